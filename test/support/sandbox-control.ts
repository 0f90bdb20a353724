import { Agent, fetch } from 'undici';
import { GatewayClient } from '../../src/gateway/index.js';
import type { FaultConfig } from '../../src/sandbox/index.js';

export interface SandboxBet {
  bet: { bet_id: string; account_id?: string; session_id?: string; stake: number; [k: string]: unknown };
  status: string;
  pnl: number;
  settled_at: string | null;
}

export interface SandboxState {
  now: string;
  bets: SandboxBet[];
  jobs: { correlation_id: string; status: string; account_id: string }[];
  webhookDeliveries: { correlation_id: string; url: string; state: string }[];
  counters: Record<string, number>;
}

/**
 * A new connection per control call: a kept-alive socket the sandbox closes after its idle timeout can be reused
 * at the same moment on a loaded machine (the timers fire late), and a POST that meets a reset is not retried.
 */
const noKeepAlive = new Agent({ pipelining: 0 });

/** The sandbox's /_sandbox control routes over HTTP, as a test drives them. */
export class SandboxControl {
  constructor(readonly url: string) {}

  async #call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/_sandbox${path}`, {
      dispatcher: noKeepAlive,
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`/_sandbox${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  state(): Promise<SandboxState> {
    return this.#call('GET', '/state');
  }

  settle(epk?: string): Promise<{ settled: number }> {
    return this.#call('POST', '/settle', epk === undefined ? {} : { epk });
  }

  advance(ms: number): Promise<{ now: string }> {
    return this.#call('POST', '/clock/advance', { ms });
  }

  /** Credits a session's account (a member's money arriving) and lists a `deposit` transaction. */
  deposit(sessionId: string, amount: number): Promise<{ deposit_id: string; cash: number }> {
    return this.#call('POST', '/deposit', { session_id: sessionId, amount });
  }

  /** How the bookmaker answers the next withdrawals. */
  withdrawalMode(mode: 'completed' | 'pending' | 'failed'): Promise<unknown> {
    return this.#call('POST', '/withdrawals/mode', { mode });
  }

  /** A selection's price at a book becomes `price` at the next scrape (the watch control). */
  movePrice(body: { bookie: string; epk: string; market: string; selection: string; price: number }): Promise<{
    move: { price: number; scrape_at: string };
  }> {
    return this.#call('POST', '/world/price', body);
  }

  /** Every named book (default all) moves the selection's price by `factor` at the next scrape. */
  steam(body: { epk: string; market: string; selection: string; factor: number; books?: string[] }): Promise<{
    steam: { books: { bookie: string; at: string }[] };
  }> {
    return this.#call('POST', '/world/steam', body);
  }

  faults(config: FaultConfig): Promise<unknown> {
    return this.#call('POST', '/faults', config);
  }

  /** Sets (or with `clear`, removes) a simulated stake limit on a session's bookmaker account. */
  limits(body: {
    session_id: string;
    sport: string;
    max_stake?: number;
    shrink_factor?: number;
    min_stake?: number;
    over_limit?: 'refuse' | 'reduce';
    clear?: boolean;
  }): Promise<{ limits: Array<{ sport: string; max_stake_now: number; wins: number }> }> {
    return this.#call('POST', '/accounts/limits', body);
  }

  limitsOf(sessionId: string): Promise<{ limits: Array<{ sport: string; max_stake_now: number; wins: number }> }> {
    return this.#call('GET', `/accounts/limits?session_id=${encodeURIComponent(sessionId)}`);
  }
}

/** How the desk names a session to members: its book and account user name ("bookie_a · alpha_a"). */
export async function accountLabel(sandboxUrl: string, apiKey: string, sessionId: string): Promise<string> {
  const client = new GatewayClient({ baseUrl: sandboxUrl, apiKey });
  try {
    const s = (await client.sessions.list()).find((x) => x.session_id === sessionId);
    if (!s) throw new Error(`no session ${sessionId} at the sandbox`);
    return `${s.bookie} · ${s.username}`;
  } finally {
    await client.close();
  }
}
