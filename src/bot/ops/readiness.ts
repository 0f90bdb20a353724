import type { GatewayPort } from '../gateway-port.js';

/** How long each part may take to answer a readiness check. */
const CHECK_TIMEOUT_MS = 2_000;
/** A gateway answer younger than this counts as "answered recently"; older, it is asked again. */
const GATEWAY_FRESH_MS = 30_000;

export interface ReadinessParts {
  /** The store: it must answer a statement. */
  store: { query(sql: string): Promise<unknown> };
  /** discord.js's client has its gateway connection up (`client.isReady()`). */
  discordReady: () => boolean;
  /** The betting gateway, when the desk is configured with one. */
  gateway?: Pick<GatewayPort, 'sessions'>;
  /** The process is draining after SIGTERM: not ready for new work. */
  draining?: () => boolean;
  now?: () => number;
}

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** A short reason without the error's text (a driver's message may carry a host or user name). */
function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof e?.message === 'string' && /^no answer within/.test(e.message)) return e.message;
  if (typeof e?.code === 'string') return `failed (${e.code})`;
  return `failed (${typeof e?.name === 'string' ? e.name : 'error'})`;
}

/**
 * GET /readyz: the parts that are not ready, each named with why (empty: ready). The store must answer a
 * statement, discord.js must be connected, and the gateway must have answered within the last 30 s (it is asked
 * for its session list when its last answer is older).
 */
export function readiness(parts: ReadinessParts): () => Promise<string[]> {
  const now = parts.now ?? Date.now;
  let gatewayAnsweredAt = Number.NEGATIVE_INFINITY;
  const gatewayCheck = async (): Promise<string | undefined> => {
    if (!parts.gateway || now() - gatewayAnsweredAt < GATEWAY_FRESH_MS) return undefined;
    try {
      await parts.gateway.sessions.list({ timeoutMs: CHECK_TIMEOUT_MS });
      gatewayAnsweredAt = now();
      return undefined;
    } catch (err) {
      return `gateway: ${reasonOf(err)}`;
    }
  };
  const storeCheck = async (): Promise<string | undefined> => {
    try {
      await within(parts.store.query('SELECT 1 AS ok'), CHECK_TIMEOUT_MS);
      return undefined;
    } catch (err) {
      return `store: ${reasonOf(err)}`;
    }
  };
  return async () => {
    const found = await Promise.all([
      storeCheck(),
      Promise.resolve(parts.discordReady() ? undefined : 'discord: not connected'),
      gatewayCheck(),
      Promise.resolve(parts.draining?.() ? 'process: draining after SIGTERM' : undefined),
    ]);
    return found.filter((f): f is string => f !== undefined);
  };
}
