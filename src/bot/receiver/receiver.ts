import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { betOutcomeOf } from '../../gateway/receipts.js';
import { StackedSrmResult } from '../../gateway/schemas/stacked-srm.js';
import { WebhookBody } from '../../gateway/schemas/webhooks.js';
import { jsonDepth, parseWebhook, WebhookSignatureError } from '../../gateway/webhooks.js';
import { listen } from '../../http/listen.js';
import { RouteTable } from '../../http/routes.js';
import type { Logger } from '../config/logger.js';
import { addOpsRoutes, type Handler, type OpsEndpoints, sendJsonBody as send } from '../ops/routes.js';
import type { OnceRepo } from './once.js';

export type WebhookDelivery = WebhookBody;

export interface ReceiverOptions extends OpsEndpoints {
  port: number;
  host?: string;
  maxBodyBytes: number;
  toleranceMs: number;
  /**
   * The key deliveries are signed with (the desk's API key); the library's parseWebhook checks them. Without one
   * every delivery is refused (a body signed with no key proves nothing).
   */
  apiKey: string | undefined;
  once: OnceRepo;
  /**
   * A verified final delivery stored and applied in one transaction (a result of a job this process recorded; see
   * ResultTracker.take): the 2xx follows its commit and `after` runs at once. Undefined: the ordinary path below.
   * Not asked for a delivery whose callback URL carries a query (a caller's tag, e.g. the fund's attempts).
   */
  take?: (body: WebhookDelivery, raw: string) => Promise<{ first: boolean; after?: () => Promise<void> } | undefined>;
  /** Why a verified delivery must not be applied to its job (wrong shape for it), or undefined. */
  check?: (body: WebhookDelivery) => Promise<string | undefined>;
  /** Keeps a delivery that is not applied; true the first time this exact body is kept. */
  quarantine?: (body: WebhookDelivery, raw: string, reason: string) => Promise<boolean>;
  /** Runs after the 2xx is sent, off the request path. */
  /** `query`: the callback URL's query string as delivered (a caller may tag its callback_url, e.g. `fund_attempt`). */
  onDelivery: (body: WebhookDelivery, meta?: { query: URLSearchParams }) => Promise<void>;
  logger: Logger;
  now?: () => number;
  /** Open connections at most; more are refused by the server (default 2,048). */
  maxConnections?: number;
  /**
   * Bytes of unfinished large bodies held across all requests at most; beyond, 503 (default 32 MiB). Bodies of
   * at most 16 KiB (every genuine delivery) do not count, so a flood of big slow bodies cannot starve them.
   */
  maxInFlightBytes?: number;
  /** Refused deliveries are logged as one summary line per interval (default 60 s). */
  summaryIntervalMs?: number;
}

/** Where the gateway posts its deliveries. */
export const WEBHOOK_PATH = '/webhooks/gateway';

export interface Receiver {
  url: string;
  /** Refusals by reason since start (also summarised in the log). */
  readonly refused: Readonly<Record<string, number>>;
  close(): Promise<void>;
}

/** Nesting allowed in a delivery: the spec's bodies are a few levels deep. */
export const MAX_JSON_DEPTH = 64;
/** Bodies up to this size are never refused for the in-flight budget: a genuine delivery is a few hundred bytes. */
const SMALL_BODY_BYTES = 16 * 1024;
/** A header or a whole request taking longer than this is cut off (the gateway waits 10 s for an answer). */
const REQUEST_TIMEOUT_MS = 10_000;
type FinalStatus = 'completed' | 'timeout' | 'unknown';
const FINAL = new Set<string>(['completed', 'timeout', 'unknown']);

class TooLarge extends Error {}
class OverBudget extends Error {}

/** Parses a stored delivery (verified when it arrived): depth-bounded JSON, then the library's webhook schema. */
export function parseDelivery(text: string): { ok: true; body: WebhookDelivery } | { ok: false; reason: string } {
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { ok: false, reason: 'nested too deeply' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const parsed = WebhookBody.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'not a webhook body (correlation_id missing or mistyped)' };
  return { ok: true, body: parsed.data };
}

/** Which statuses may change a job: only final ones; none given means a completed job's result. */
export function finalStatusOf(body: WebhookDelivery): FinalStatus | undefined {
  const status = body.status ?? 'completed';
  return FINAL.has(status) ? (status as FinalStatus) : undefined;
}

/**
 * Why a final delivery cannot be applied to a job of this kind (undefined: it can). Without a job row (a delivery
 * ahead of its 202) only what holds for every kind is checked: a completed job's result is an object. The kind's
 * own check runs again when the job row exists, before the stored delivery is applied (decision 1637).
 */
export function shapeProblem(jobKind: string | undefined, body: WebhookDelivery): string | undefined {
  if (finalStatusOf(body) !== 'completed') return undefined;
  if (typeof body.result !== 'object' || body.result === null || Array.isArray(body.result)) {
    return 'result of a completed job is not an object';
  }
  if (jobKind === 'stack') {
    return StackedSrmResult.safeParse(body.result).success ? undefined : 'result is not a stacked_srm result';
  }
  if (jobKind !== 'bet') return undefined;
  const bet = betOutcomeOf(body.result);
  return !bet.placed && bet.unreadable ? 'result is not a bet result' : undefined;
}

/** A short reason for the refusal summary, from the library's message. */
function refusalOf(message: string): string {
  if (/delivered_at/.test(message)) return 'delivered_at missing or outside the accepted window';
  if (/nests deeper/.test(message)) return 'body nested too deeply';
  if (/not JSON/.test(message)) return 'body not JSON';
  return 'body not a webhook body';
}

/**
 * The embedded webhook receiver: verify, bound, reject stale, check the shape for its job, dedupe, persist,
 * answer 2xx, then hand the delivery on. Persisting before answering means a crash after the 2xx loses
 * nothing (stored deliveries are replayed at start).
 */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const now = opts.now ?? Date.now;
  const apiKey = opts.apiKey?.trim() ? opts.apiKey : undefined;
  if (!apiKey) {
    opts.logger.warn(
      'webhook receiver has no API key (GATEWAY_API_KEY): every delivery is refused with 401 and results arrive by polling only; set the key to take webhooks',
    );
  }
  const maxInFlight = opts.maxInFlightBytes ?? 32 * 1024 * 1024;
  let inFlight = 0;
  const refused: Record<string, number> = {};
  let sinceSummary: Record<string, number> = {};
  const refuse = (res: ServerResponse, status: number, reason: string, close = false) => {
    refused[reason] = (refused[reason] ?? 0) + 1;
    sinceSummary[reason] = (sinceSummary[reason] ?? 0) + 1;
    send(res, status, { error: reason }, close);
  };

  const readBody = (req: IncomingMessage, max: number): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let counted = 0;
      const giveBack = () => {
        inFlight -= counted;
        counted = 0;
      };
      req.on('data', (chunk: Buffer) => {
        if (size + chunk.length > max) {
          giveBack();
          reject(new TooLarge());
          req.destroy();
          return;
        }
        size += chunk.length;
        if (size > SMALL_BODY_BYTES) {
          const add = size - counted;
          if (inFlight + add > maxInFlight) {
            giveBack();
            reject(new OverBudget());
            req.destroy();
            return;
          }
          inFlight += add;
          counted += add;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        giveBack();
        resolve(body);
      });
      req.on('error', (err) => {
        giveBack();
        reject(err);
      });
      req.on('close', () => {
        giveBack();
        reject(new Error('connection closed before the body ended'));
      });
    });

  const receive = async (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > opts.maxBodyBytes) return refuse(res, 413, 'body too large', true);
    if (declared > SMALL_BODY_BYTES && inFlight + declared > maxInFlight) {
      return refuse(res, 503, 'busy; retry later', true);
    }
    let raw: Buffer;
    try {
      raw = await readBody(req, opts.maxBodyBytes);
    } catch (err) {
      if (err instanceof TooLarge) return refuse(res, 413, 'body too large', true);
      if (err instanceof OverBudget) return refuse(res, 503, 'busy; retry later', true);
      return refuse(res, 400, 'could not read the body', true);
    }
    // Without a key nothing can be verified: a body "signed" with an empty key proves nothing.
    if (!apiKey) return refuse(res, 401, 'bad signature');
    let body: WebhookDelivery;
    try {
      body = parseWebhook(raw, req.headers['bet-signature'], apiKey, {
        maxDepth: MAX_JSON_DEPTH,
        toleranceMs: opts.toleranceMs,
        now,
      });
    } catch (err) {
      if (err instanceof WebhookSignatureError) return refuse(res, 401, 'bad signature');
      return refuse(res, 400, refusalOf(String((err as Error).message)));
    }
    const text = raw.toString('utf8');
    const tagged = (req.url ?? '').includes('?');
    const taken = tagged ? undefined : await opts.take?.(body, text);
    if (taken) {
      send(res, 200, { ok: true, duplicate: !taken.first });
      void taken.after?.();
      return;
    }
    const problem =
      finalStatusOf(body) === undefined
        ? `status ${String(body.status).slice(0, 40)} is not a final job state`
        : await opts.check?.(body);
    if (problem !== undefined) {
      // Signed, so from the gateway (or someone with the key): keep it for a person, never apply it.
      const first = (await opts.quarantine?.(body, text, problem)) ?? true;
      if (first)
        opts.logger.warn('webhook quarantined: wrong shape for its job', {
          correlationId: body.correlation_id,
          problem,
        });
      return send(res, 200, { ok: true, quarantined: true });
    }
    const first = await opts.once.recordDelivery(body.correlation_id, text, now());
    send(res, 200, { ok: true, duplicate: !first });
    if (!first) return;
    setImmediate(() => {
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
      opts.onDelivery(body, { query }).catch((err) => opts.logger.error('webhook handling failed', { err }));
    });
  };
  const routes = addOpsRoutes(new RouteTable<Handler>(), opts).add('POST', WEBHOOK_PATH, receive);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const found = routes.match(req.method ?? 'GET', (req.url ?? '/').split('?')[0] ?? '/');
    if (found.kind === 'found') return found.route(req, res);
    if (found.kind === 'method-not-allowed') return send(res, 405, { error: `use ${found.allow.join(' or ')}` });
    return send(res, 404, { error: `not found; POST ${WEBHOOK_PATH}` });
  };
  const server: Server = createServer(
    {
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: REQUEST_TIMEOUT_MS,
      // Node checks both timeouts on this interval (30 s by default), which let slow bodies live ~90 s.
      connectionsCheckingInterval: 1_000,
      keepAliveTimeout: 5_000,
    },
    (req, res) => {
      handle(req, res).catch((err) => {
        opts.logger.error('webhook receiver error', { err });
        send(res, 500, { error: 'internal error' });
      });
    },
  );
  server.maxConnections = opts.maxConnections ?? 2_048;
  const summary = setInterval(() => {
    const total = Object.values(sinceSummary).reduce((a, b) => a + b, 0);
    if (total === 0) return;
    opts.logger.warn(`webhook receiver refused ${total} deliveries`, { byReason: sinceSummary });
    sinceSummary = {};
  }, opts.summaryIntervalMs ?? 60_000);
  summary.unref();
  const listening = await listen(server, opts.port, opts.host ?? '127.0.0.1');
  return {
    url: listening.url,
    refused,
    close: () => {
      clearInterval(summary);
      return listening.close();
    },
  };
}

/** The store key of a quarantined body: the same bytes are kept once. */
export function digestOf(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}
