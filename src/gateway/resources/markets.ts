import { APIPromise, type WithResponse } from '../api-promise.js';
import type { QueryValue, RequestGate } from '../internal/transport.js';
import { parseRequest } from '../internal/validate.js';
import type { MarketsLimiter, QueuedInfo, ReadLane } from '../markets-limiter.js';
import type { RequestOptions } from '../request-options.js';
import { MarketCard, MarketCardQuery } from '../schemas/markets.js';
import type { ResourceContext } from './context.js';

/**
 * A card cache: anything with keyv's get/set (a `new Keyv()` fits; keyv is an optional peer dependency).
 * Values are the card objects as the gateway sent them.
 */
export interface CardCache {
  get(key: string): Promise<unknown> | unknown;
  set(key: string, value: unknown, ttlMs?: number): Promise<unknown> | unknown;
}

export interface MarketsOptions {
  limiter: MarketsLimiter;
  /** The gate reads pass instead of the limiter alone (the limiter and a budget shared across processes). */
  gate?: RequestGate | undefined;
  cache?: CardCache | undefined;
  /** Cards change only on re-scrape (minutes apart); a short TTL saves rate-limited calls. */
  cacheTtlMs?: number;
}

/** Options of one card read: the per-call options plus admission to the client's card limit. */
export interface MarketsGetOptions extends RequestOptions {
  /**
   * Longest acceptable wait for a slot under the card limit (120 per minute). Longer, by estimate: refused at once
   * with CardLimitError carrying retryAfterMs, nothing sent. Default: wait as long as it takes.
   */
  maxQueueMs?: number | undefined;
  /** Called once when the read has to wait for a slot, with the estimated wait. */
  onQueued?: ((info: QueuedInfo) => void) | undefined;
  /**
   * 'background' for scheduled reads no member waits on: they go only while no interactive read is queued and
   * within the limiter's background share of the window (`marketRateLimit.backgroundShare`, a quarter by default).
   * With `maxQueueMs: 0` such a read is refused at once (CardLimitError with retryAfterMs) instead of queueing.
   * Default 'interactive'.
   */
  lane?: ReadLane | undefined;
}

/** Cache key from every query parameter, in a fixed order, so different filters never share an entry. */
export function marketCacheKey(q: Record<string, unknown>): string {
  const parts = Object.keys(q)
    .filter((k) => q[k] !== undefined)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(q[k]))}`);
  return `gateway:markets:${parts.join('&')}`;
}

const NO_OPTIONS: MarketsGetOptions = Object.freeze({});
const CACHED: WithResponse<never>['response'] = { status: 200, headers: {}, requestId: undefined };

export class Markets {
  constructor(
    private readonly ctx: ResourceContext,
    private readonly opts: MarketsOptions,
  ) {}

  /**
   * GET /v3/markets through the client's 120/min card limit and the optional card cache. Over the limit the read
   * queues; with `maxQueueMs` it is refused at once (CardLimitError with retryAfterMs) when the estimated wait is
   * longer, `onQueued` is told when it has to wait, and `signal` takes it out of the queue; `lane: 'background'`
   * keeps a scheduled read to its share and behind every member's read. A card served from the
   * cache reports status 200 with no headers in `.withResponse()`.
   */
  get(query: MarketCardQuery, options: MarketsGetOptions = NO_OPTIONS): APIPromise<MarketCard> {
    let q: Record<string, QueryValue>;
    try {
      q = parseRequest(MarketCardQuery, query, 'GET /v3/markets') as Record<string, QueryValue>;
    } catch (err) {
      return APIPromise.reject(err);
    }
    const { maxQueueMs, onQueued, lane } = options;
    const spec = {
      method: 'GET' as const,
      path: '/v3/markets',
      query: q,
      schema: MarketCard,
      idempotent: true,
      gate: this.opts.gate ?? this.opts.limiter,
      admission:
        maxQueueMs === undefined && onQueued === undefined && lane === undefined
          ? undefined
          : { maxQueueMs, onQueued, lane },
    };
    // The transport reads only the per-call fields of `options`; no copy on this hot path.
    const cache = this.opts.cache;
    if (!cache) return this.ctx.transport.call(spec, options);
    return APIPromise.from(this.#cached(cache, marketCacheKey(q), () => this.ctx.transport.request(spec, options)));
  }

  async #cached(
    cache: CardCache,
    key: string,
    load: () => Promise<WithResponse<MarketCard>>,
  ): Promise<WithResponse<MarketCard>> {
    const hit = MarketCard.safeParse(await cache.get(key));
    if (hit.success) return { data: hit.data, response: CACHED };
    const answer = await load();
    await cache.set(key, answer.data, this.opts.cacheTtlMs ?? 15_000);
    return answer;
  }
}
