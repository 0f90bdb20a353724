import type Keyv from 'keyv';
import type { AdmissionOptions, MarketsLimiter } from '../markets-limiter.js';
import { MarketCard, MarketCardQuery } from '../schemas/markets.js';
import type { Transport } from '../transport.js';
import { parseRequest } from '../validate.js';

export interface MarketsOptions {
  limiter: MarketsLimiter;
  cache?: Keyv | undefined;
  /** Cards change only on re-scrape (minutes apart); a short TTL saves rate-limited calls. */
  cacheTtlMs?: number;
}

/** Cache key from every query parameter, in a fixed order, so different filters never share an entry. */
export function marketCacheKey(q: Record<string, unknown>): string {
  const parts = Object.keys(q)
    .filter((k) => q[k] !== undefined)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(q[k]))}`);
  return `gateway:markets:${parts.join('&')}`;
}

/** Options of one card read. */
export type MarketsGetOptions = Omit<AdmissionOptions, 'front'>;

export class Markets {
  constructor(
    private readonly transport: Transport,
    private readonly opts: MarketsOptions,
  ) {}

  /**
   * GET /v3/markets through the client's 120/min card limit and the optional card cache. Over the limit the read
   * queues; with `maxQueueMs` it is refused at once (CardLimitError with retryAfterMs) when the estimated wait is
   * longer, `onQueued` is told when it has to wait, and `signal` takes it out of the queue.
   */
  async get(query: MarketCardQuery, options: MarketsGetOptions = {}): Promise<MarketCard> {
    const q = parseRequest(MarketCardQuery, query, 'GET /v3/markets');
    const cache = this.opts.cache;
    const key = cache ? marketCacheKey(q) : '';
    if (cache) {
      const hit = MarketCard.safeParse(await cache.get(key));
      if (hit.success) return hit.data;
    }
    const card = await this.transport.request({
      method: 'GET',
      path: '/v3/markets',
      query: q,
      schema: MarketCard,
      idempotent: true,
      gate: this.opts.limiter,
      admission: options,
    });
    if (cache) await cache.set(key, card, this.opts.cacheTtlMs ?? 15_000);
    return card;
  }
}
