import { constants } from 'node:buffer';
import { inspect } from 'node:util';
import type { Dispatcher } from 'undici';
import { GatewayError } from './errors.js';
import { type DeprecationNotice, Transport } from './internal/transport.js';
import { Agent } from './internal/undici.js';
import { JobTracker, type PollerOptions } from './jobs.js';
import { type LimiterClock, MarketsLimiter } from './markets-limiter.js';
import { AccountPromos } from './resources/account-promos.js';
import { Balances } from './resources/balances.js';
import { Bets } from './resources/bets.js';
import { BonusBets } from './resources/bonus-bets.js';
import { ResourceContext } from './resources/context.js';
import { Events } from './resources/events.js';
import { Jobs } from './resources/jobs.js';
import { Legacy } from './resources/legacy.js';
import { type CardCache, Markets } from './resources/markets.js';
import { PriceChecks } from './resources/price-checks.js';
import { Promos } from './resources/promos.js';
import { Sessions } from './resources/sessions.js';
import { Transactions } from './resources/transactions.js';
import { Withdrawals } from './resources/withdrawals.js';
import { type SharedCardBudget, sharedGate } from './shared-card-budget.js';

export interface GatewayClientOptions {
  /** The gateway's base URL, e.g. 'http://127.0.0.1:8787'. */
  baseUrl: string;
  /** Sent as X-API-Key; never printed, logged or put in an error. */
  apiKey: string;
  /** undici dispatcher; default a private Agent the client owns and closes. */
  dispatcher?: Dispatcher | undefined;
  /**
   * Default deadline of a whole call in milliseconds: every attempt and the waits between retries (10 000).
   * Override per call with `{ timeoutMs }`.
   */
  timeoutMs?: number | undefined;
  /** Default retries of read-only calls (2); state-changing calls are never retried once sent. */
  maxRetries?: number | undefined;
  /** @deprecated The former name of maxRetries. */
  maxReadRetries?: number | undefined;
  /**
   * Longest Retry-After (on 429 and 503) the client waits out before retrying a read, in milliseconds (60 000).
   * A longer one is not slept on: the RateLimitError/ServiceUnavailableError surfaces at once with retryAfterMs.
   */
  maxRetryAfterMs?: number | undefined;
  /**
   * Largest answer body the client reads, in bytes (16 MiB). A larger one is cut off as it streams in (never held
   * whole) and the call fails with ResponseTooLargeError. The largest documented answers, a full events page or a
   * long transactions list, are a few MiB at most.
   */
  maxResponseBytes?: number | undefined;
  /** Optional card cache for GET /v3/markets (a Keyv instance fits; keyv is an optional peer dependency). */
  marketCache?: CardCache | undefined;
  /** Lifetime of a cached card in milliseconds (15 000). */
  marketCacheTtlMs?: number | undefined;
  /** Client-side rolling limit for GET /v3/markets (the gateway allows 120 per minute per key). */
  marketRateLimit?:
    | {
        perMinute?: number;
        windowMs?: number;
        backgroundShare?: number;
        clock?: LimiterClock;
        /**
         * The key's budget shared with other processes on the same key (see SharedCardBudget): each read passes this
         * process's limiter and then takes one read of the shared window. Leave out for a single process.
         */
        shared?: SharedCardBudget | undefined;
      }
    | undefined;
  /** Batched bet_status poller. */
  poller?: PollerOptions | undefined;
  /** Sends X-Service-Sandbox: 1 (sample responses for a key without subscription). */
  sandbox?: boolean | undefined;
  /** Waits between read retries; injectable for tests (close() and a call's signal still end the wait). */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Called once per deprecated route the gateway flags (default: one process warning per route). */
  onDeprecation?: ((notice: DeprecationNotice) => void) | undefined;
}

/** Default of maxResponseBytes: 16 MiB, several times the largest documented answer. */
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** A body is decoded into one string, which cannot be longer than this. */
const MAX_RESPONSE_BYTES = constants.MAX_STRING_LENGTH;

function configError(message: string): never {
  throw new GatewayError(
    `${message}\nExample:\n  new GatewayClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.GATEWAY_API_KEY! })`,
  );
}

/** A call's one deadline, retries included, when neither the client nor the call names one. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Typed client for the whole Betting Gateway API. One poller, one limiter and one connection pool per client. */
export class GatewayClient {
  /** The gateway's base URL, without a trailing slash (and with any `user:password@` in it masked). */
  readonly baseUrl: string;
  /** List, start, restart and stop sessions (`/api/session_ids`, `/api/start_session`, ...). */
  readonly sessions: Sessions;
  /** Cached balance of a session (`POST /v3/balance`). */
  readonly balances: Balances;
  /** Withdraw funds (`POST /v3/withdraw_balance`, async, never retried). */
  readonly withdrawals: Withdrawals;
  /** Place bets (`POST /v3/place_bet`, `/v3/stacked_srm`; async, never retried). */
  readonly bets: Bets;
  /** Live prices per session (`POST /v3/price_check`). */
  readonly priceChecks: PriceChecks;
  /** Transaction history (`POST /v3/transactions`, async). */
  readonly transactions: Transactions;
  /** Bonus tokens and splits (`POST /v3/bonus_bets`, `/v3/split_bonus_bet`). */
  readonly bonusBets: BonusBets;
  /** Race promos, promo tokens, boost tokens (`POST /v3/promos`, `/v3/promo_tokens`, `/v2/boost_token`). */
  readonly promos: Promos;
  /** Account promos and bet-boost cards by id (`GET /v3/account_promos`, `POST /v3/place_promo`). */
  readonly accountPromos: AccountPromos;
  /** Market cards under the client's card limit (`GET /v3/markets`). */
  readonly markets: Markets;
  /** The event listing, page by page (`GET /odds/v1/events`). */
  readonly events: Events;
  /** Job status reads and the shared poller (`POST /api/bet_status`, webhooks). */
  readonly jobs: Jobs;
  /** @deprecated Older routes kept for callers that still need them; prefer the v3 resources. */
  readonly legacy: Legacy;
  /** The rolling 120-per-minute limit card reads pass (its `queued`, `estimateWaitMs()`). */
  readonly marketsLimiter: MarketsLimiter;
  readonly #transport: Transport;
  readonly #tracker: JobTracker;
  readonly #ownedAgent: InstanceType<typeof Agent> | undefined;
  #closing: Promise<void> | undefined;

  constructor(opts: GatewayClientOptions) {
    if (!opts || typeof opts.baseUrl !== 'string' || !URL.canParse(opts.baseUrl)) {
      configError('GatewayClient needs baseUrl, an absolute http(s) URL of the gateway.');
    }
    if (typeof opts.apiKey !== 'string' || opts.apiKey.trim() === '') {
      configError('GatewayClient needs apiKey (the X-API-Key of your account), e.g. from GATEWAY_API_KEY.');
    }
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(timeoutMs > 0)) configError(`timeoutMs must be a positive number of milliseconds (got ${timeoutMs}).`);
    const maxRetries = opts.maxRetries ?? opts.maxReadRetries ?? 2;
    if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) {
      configError(`maxRetries must be a whole number of 0 or more (got ${maxRetries}).`);
    }
    const maxRetryAfterMs = opts.maxRetryAfterMs ?? 60_000;
    if (!(maxRetryAfterMs >= 0)) {
      configError(`maxRetryAfterMs must be a number of milliseconds of 0 or more (got ${maxRetryAfterMs}).`);
    }
    const maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!(Number.isInteger(maxResponseBytes) && maxResponseBytes >= 1 && maxResponseBytes <= MAX_RESPONSE_BYTES)) {
      configError(
        `maxResponseBytes must be a whole number of bytes from 1 to ${MAX_RESPONSE_BYTES} (got ${maxResponseBytes}).`,
      );
    }
    this.#ownedAgent = opts.dispatcher ? undefined : new Agent({ keepAliveTimeout: 10_000, connections: 64 });
    this.#transport = new Transport({
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      dispatcher: opts.dispatcher ?? this.#ownedAgent!,
      timeoutMs,
      maxReadRetries: maxRetries,
      maxRetryAfterMs,
      maxResponseBytes,
      sandbox: opts.sandbox ?? false,
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
      ...(opts.onDeprecation ? { onDeprecation: opts.onDeprecation } : {}),
    });
    this.baseUrl = this.#transport.baseUrl;
    const transport = this.#transport;
    this.#tracker = new JobTracker(
      (ids) => this.jobs.status(ids),
      opts.poller,
      (v) => transport.redact(v),
    );
    const ctx = new ResourceContext(this.#transport, this.#tracker);
    this.jobs = new Jobs(ctx, this.#tracker);
    this.marketsLimiter = new MarketsLimiter(opts.marketRateLimit);
    this.sessions = new Sessions(ctx);
    this.balances = new Balances(ctx);
    this.withdrawals = new Withdrawals(ctx);
    this.bets = new Bets(ctx);
    this.priceChecks = new PriceChecks(ctx);
    this.transactions = new Transactions(ctx);
    this.bonusBets = new BonusBets(ctx);
    this.promos = new Promos(ctx);
    this.accountPromos = new AccountPromos(ctx);
    const shared = opts.marketRateLimit?.shared;
    this.markets = new Markets(ctx, {
      limiter: this.marketsLimiter,
      ...(shared ? { gate: sharedGate(this.marketsLimiter, shared) } : {}),
      cache: opts.marketCache,
      ...(opts.marketCacheTtlMs !== undefined ? { cacheTtlMs: opts.marketCacheTtlMs } : {}),
    });
    this.events = new Events(ctx);
    this.legacy = new Legacy(ctx);
  }

  /**
   * Closes the client at once: queued card reads, calls waiting to retry, calls in flight and job waits reject
   * with ClientClosedError; the poll and limiter timers are cleared and the client's own connection pool is
   * destroyed (a dispatcher you passed in is left to you). Safe to call more than once.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#tracker.close();
    this.marketsLimiter.close();
    this.#transport.close();
    await this.#ownedAgent?.destroy();
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl };
  }

  [inspect.custom](): string {
    return `GatewayClient { baseUrl: ${JSON.stringify(this.baseUrl)}, pendingJobs: ${this.#tracker.pendingCount} }`;
  }
}
