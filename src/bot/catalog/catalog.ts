import {
  CardLimitError,
  type Event,
  type EventsQuery,
  guardCardIds,
  type IdClash,
  type MarketCard,
  type MarketCardQuery,
  type QueuedInfo,
  type ReadLane,
  type Session,
} from '../../gateway/index.js';
import type { Logger } from '../config/logger.js';
import type { GatewayPort } from '../gateway-port.js';
import { UserFacingError } from '../model/user-facing-error.js';
import type { DeskMetrics } from '../ops/metrics.js';
import { SingleFlight } from '../ops/single-flight.js';
import type { BotStore } from '../store/index.js';
import { HotCache } from './hot-cache.js';
import { ReadAllowance, type ReadAllowanceLimits } from './read-allowance.js';

/** The card filters the bot uses (a tier or one market). */
export type CardFilters = Pick<MarketCardQuery, 'tier' | 'market'>;

export type EventsFilter = Pick<EventsQuery, 'league' | 'date' | 'since' | 'until' | 'status'>;

const EVENTS_TTL_MS = 60_000;
/** Where a cached event keeps when the desk read it (its clock), beside the gateway's fields. */
const READ_AT = 'desk_read_at';
const CARD_TTL_MS = 60_000;
const SESSIONS_TTL_MS = 30_000;
/** How long a book's "takes bets by market_ref" flag, learned from its last bound card, is trusted. */
const BY_ID_TTL_MS = 10 * 60_000;
const MAX_EVENT_PAGES = 10;
/** How long a process keeps a cached value in memory before reading the store's copy again (decision 2135). */
const HOT_CACHE_MS = 2_000;
/** At most this many values kept in memory: a burst's cards, sessions and events, not the whole cache (figure 7). */
const HOT_CACHE_MAX = 64;

export interface CatalogOptions {
  /** How long a card read may queue for the gateway's card limit before the member is told to try again. */
  cardMaxWaitMs?: number;
  /** Card reads autocomplete may start (default AUTOCOMPLETE_READS: 4 per member, 12 in all, a minute). */
  autocompleteReads?: ReadAllowanceLimits;
  /** The desk's clock (the sandbox's when the desk follows it): allowances and how old a cached event is. */
  now?: () => number;
  /** Told once per card whose rows share an id (those rows are then not offered for betting). */
  logger?: Pick<Logger, 'warn'>;
  /** Counts card reads by purpose (desk_card_reads_total). */
  metrics?: Pick<DeskMetrics, 'cardReads'>;
  /** The clock of the memory in front of the store's cache (default: performance.now; tests move their own). */
  memoryClock?: () => number;
}

/** How many cards with shared ids are remembered as already reported (then the memory starts again). */
const CLASH_MEMORY = 1000;

/** What prefetchCard did: a read of the card is under way (started now or before), or none may start now. */
export type Prefetch = 'loading' | 'refused';

/** How one card read waits for the card limit (the client library's admission): its allowance, and whom to tell. */
export interface CardAdmission {
  /** Longest wait for a slot; default the catalog's cardMaxWaitMs. */
  maxQueueMs?: number;
  /** Told once when the read has to queue, with the library's estimate. */
  onQueued?: (info: QueuedInfo) => void;
  /** The limiter's lane (default interactive: a member waits on it). */
  lane?: ReadLane;
}

/** The card limit refused a read before sending it; the member is told how long to wait. */
export class CardLimitRefusal extends UserFacingError {
  override name = 'CardLimitRefusal';
}

/** "try again in about N s", N at least 1. */
export function cardLimitMessage(waitMs: number): string {
  const s = Math.max(1, Math.ceil(waitMs / 1000));
  return `The gateway's card limit is reached; try again in about ${s} s.`;
}

/** The gateway's page size: 500 rows, but at most 200 when only finished events are asked for (spec, GET events). */
export function pageLimit(q: EventsFilter): number {
  return q.status === 'finished' ? 200 : 500;
}

/** Where a card is cached in the store's key-value face. */
export const cardKey = (epk: string, bookie: string, filters: CardFilters) =>
  `cache:card:${bookie}:${filters.tier ?? '*'}:${filters.market ?? '*'}:${epk}`;

const eventsKey = (q: EventsFilter) =>
  `cache:events:${q.league ?? '*'}:${q.date ?? '*'}:${q.since ?? '*'}:${q.until ?? '*'}:${q.status ?? '*'}`;

/**
 * Read-through caches over the gateway in keyv (TTL'd). Autocomplete cannot wait for the gateway
 * (3 s, no defer), so it reads only `peek*`; commands that deferred use `load*`, which fill the cache.
 */
export class Catalog {
  /** Concurrent misses of one cache key share a single gateway load. */
  private readonly flights = new SingleFlight();
  private readonly maxWaitMs: number;
  /** Cards autocomplete is reading in the background lane (keys of their flights). */
  private readonly prefetching = new Set<string>();
  private readonly autocompleteReads: ReadAllowance;
  private readonly now: () => number;
  private readonly logger: Pick<Logger, 'warn'> | undefined;
  private readonly metrics: CatalogOptions['metrics'];
  /** Cards whose shared ids were reported (`bookie|epk|ids`), so each is told once. */
  private readonly clashesTold = new Set<string>();
  /** This process's short memory of the store's cached values (decision 2135). */
  readonly hot: HotCache;

  constructor(
    private readonly gateway: GatewayPort,
    private readonly store: BotStore,
    opts: CatalogOptions = {},
  ) {
    this.logger = opts.logger;
    this.metrics = opts.metrics;
    // A read may queue for a quarter of the limiter's window (15 s of a minute): long enough to absorb a burst's
    // edge, short enough that a user hears "try again in N s" instead of watching "thinking…" for a minute.
    this.maxWaitMs = opts.cardMaxWaitMs ?? gateway.marketsLimiter.windowMs / 4;
    this.now = opts.now ?? Date.now;
    this.autocompleteReads = new ReadAllowance(opts.autocompleteReads, opts.now);
    this.hot = new HotCache(HOT_CACHE_MS, HOT_CACHE_MAX, opts.memoryClock);
  }

  loadEvents(q: EventsFilter): Promise<Event[]> {
    const k = eventsKey(q);
    return this.flights.run(k, () => this.readEvents(k, q));
  }

  private async readEvents(k: string, q: EventsFilter): Promise<Event[]> {
    const hit = await this.cached<Event[]>(k);
    if (Array.isArray(hit)) return hit;
    // The library's pager follows next_cursor; the desk reads at most MAX_EVENT_PAGES pages (each costs a token).
    const pager = this.gateway.events.pages({ ...q, limit: pageLimit(q) });
    const out: Event[] = [];
    for (let i = 0; i < MAX_EVENT_PAGES && pager.hasNextPage(); i++) out.push(...(await pager.nextPage()).data);
    await this.cache(k, out, EVENTS_TTL_MS);
    const readAt = this.now();
    for (const e of out)
      await this.cache(`cache:event:${e.event_id}`, { ...e, [READ_AT]: readAt }, 6 * 3600_000, false);
    return out;
  }

  async peekEvents(q: EventsFilter): Promise<Event[] | undefined> {
    const hit = await this.cached<Event[]>(eventsKey(q));
    return Array.isArray(hit) ? hit : undefined;
  }

  async event(epk: string): Promise<Event | undefined> {
    return (await this.cachedEvent(epk))?.event;
  }

  /** The event as the last listing that named it said, and when the desk read that listing (its clock). */
  private async cachedEvent(epk: string): Promise<{ event: Event; readAt: number | undefined } | undefined> {
    const hit = await this.cached<Event & { [READ_AT]?: number }>(`cache:event:${epk}`);
    if (!hit) return undefined;
    const { [READ_AT]: readAt, ...event } = hit;
    return { event, readAt };
  }

  /** A card through the cache; a miss is read under the client's card limit (see CardAdmission). */
  loadCard(epk: string, bookie: string, filters: CardFilters = {}, admission: CardAdmission = {}): Promise<MarketCard> {
    const k = cardKey(epk, bookie, filters);
    const joinsPrefetch = admission.lane !== 'background' && this.prefetching.has(k) && this.flights.has(k);
    const flight = this.flights.run(k, () => this.readCard(k, epk, bookie, filters, admission));
    if (!joinsPrefetch) return flight;
    // Joined autocomplete's background read: should the limit refuse that one, this read goes on its own.
    return flight.catch((err: unknown) => {
      if (err instanceof CardLimitRefusal) return this.loadCard(epk, bookie, filters, admission);
      throw err;
    });
  }

  /**
   * A card read autocomplete asks for (no member waits on it): started only within the asker's and everyone's
   * autocomplete allowance, in the limiter's background lane and never queued, so it cannot take a slot a member's
   * own read is waiting for. One read per card at a time; the card is served from the cache on a later keystroke.
   */
  prefetchCard(epk: string, bookie: string, member: string): Prefetch {
    const k = cardKey(epk, bookie, {});
    if (this.flights.has(k)) return 'loading';
    if (this.gateway.marketsLimiter.estimateWaitMs({ lane: 'background' }) > 0) return 'refused';
    if (!this.autocompleteReads.take(member)) return 'refused';
    this.prefetching.add(k);
    this.loadCard(epk, bookie, {}, { lane: 'background', maxQueueMs: 0 })
      .finally(() => this.prefetching.delete(k))
      .catch(() => undefined);
    return 'loading';
  }

  private async readCard(
    k: string,
    epk: string,
    bookie: string,
    filters: CardFilters,
    admission: CardAdmission,
  ): Promise<MarketCard> {
    const hit = await this.cached<MarketCard>(k);
    if (hit && typeof hit === 'object') return hit;
    await this.assertEventHasBook(epk, bookie);
    let card: MarketCard;
    try {
      card = await this.gateway.markets.get(
        { epk, bookie, ...filters },
        {
          maxQueueMs: admission.maxQueueMs ?? this.maxWaitMs,
          onQueued: admission.onQueued,
          ...(admission.lane ? { lane: admission.lane } : {}),
        },
      );
    } catch (err) {
      // Refused by the card limit, nothing sent: the member hears how long to wait.
      if (err instanceof CardLimitError)
        throw new CardLimitRefusal(cardLimitMessage(err.retryAfterMs ?? this.maxWaitMs));
      throw err;
    }
    this.metrics?.cardReads.inc({ purpose: admission.lane === 'background' ? 'autocomplete' : 'interactive' });
    card = this.guarded(epk, bookie, card);
    await this.cache(k, card, CARD_TTL_MS);
    if (card.bound) await this.cache(`cache:by-id:${bookie}`, card.market_ref_betting_enabled, BY_ID_TTL_MS);
    return card;
  }

  /** Rows sharing a market_ref (or a bettable proposition_id) cannot say which bet their id places: not offered. */
  private guarded(epk: string, bookie: string, card: MarketCard): MarketCard {
    const guarded = guardCardIds(card);
    if (guarded.clashes.length > 0) this.tellClashes(epk, bookie, guarded.clashes);
    return guarded.card;
  }

  private tellClashes(epk: string, bookie: string, clashes: IdClash[]): void {
    const key = `${bookie}|${epk}|${clashes.map((c) => `${c.reason}:${c.id}`).join(',')}`;
    if (this.clashesTold.has(key)) return;
    if (this.clashesTold.size >= CLASH_MEMORY) this.clashesTold.clear();
    this.clashesTold.add(key);
    this.logger?.warn('card rows share an id: those rows are not offered for betting', {
      epk,
      bookie,
      clashes: clashes.map((c) => ({ reason: c.reason, rows: c.rows })),
    });
  }

  /**
   * A fresh read of a whole card for a watch (the watch scheduler owns these): in the limiter's background lane and
   * never queued, so it takes no slot a member waits for and is refused (CardLimitRefusal) when the lane's share of
   * the window is spent. The cache is refreshed with it, so members' next /markets of the card reads it for free.
   */
  refreshCard(epk: string, bookie: string): Promise<MarketCard> {
    const k = cardKey(epk, bookie, {});
    return this.flights.run(`watch:${k}`, async () => {
      let card: MarketCard;
      try {
        card = await this.gateway.markets.get({ epk, bookie }, { maxQueueMs: 0, lane: 'background' });
      } catch (err) {
        if (err instanceof CardLimitError) throw new CardLimitRefusal(cardLimitMessage(err.retryAfterMs ?? 0));
        throw err;
      }
      this.metrics?.cardReads.inc({ purpose: 'watch' });
      card = this.guarded(epk, bookie, card);
      await this.cache(k, card, CARD_TTL_MS);
      if (card.bound) await this.cache(`cache:by-id:${bookie}`, card.market_ref_betting_enabled, BY_ID_TTL_MS);
      return card;
    });
  }

  /** An unknown book is refused here, naming the event's books, instead of costing a card read. */
  private async assertEventHasBook(epk: string, bookie: string): Promise<void> {
    // Only a listing read lately says which books an event has: books list an event as it nears, so an older one
    // would refuse a book that lists it now (the card read then answers for the book).
    const cached = await this.cachedEvent(epk);
    if (!cached || cached.readAt === undefined || this.now() - cached.readAt >= EVENTS_TTL_MS) return;
    const { event } = cached;
    const books = event.books ?? [];
    if (books.length === 0 || books.includes(bookie)) return;
    throw new UserFacingError(
      `${bookie} has no card for ${event.name}. Its books: ${books.join(', ')}. Pick one of those.`,
    );
  }

  /**
   * The card once the read under way (if any) has ended, waiting at most `ms`: autocomplete's answer to a card
   * it just asked for, within Discord's 3 s. Undefined when it is still being read or the read failed.
   */
  async waitForCard(epk: string, bookie: string, ms: number): Promise<MarketCard | undefined> {
    const running = this.flights.pending(cardKey(epk, bookie, {}));
    if (running) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        running.catch(() => undefined),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, ms);
        }),
      ]);
      clearTimeout(timer);
    }
    return this.peekCard(epk, bookie);
  }

  async peekCard(epk: string, bookie: string, filters: CardFilters = {}): Promise<MarketCard | undefined> {
    const k = cardKey(epk, bookie, filters);
    return (await this.cached<MarketCard>(k)) ?? undefined;
  }

  /** Whether the book took bets by market_ref on its last bound card read; undefined when not known yet. */
  async takesBetsById(bookie: string): Promise<boolean | undefined> {
    const flag = await this.cached<boolean>(`cache:by-id:${bookie}`);
    return typeof flag === 'boolean' ? flag : undefined;
  }

  loadSessions(): Promise<Session[]> {
    return this.flights.run('cache:sessions', () => this.readSessions());
  }

  private async readSessions(): Promise<Session[]> {
    const hit = await this.cached<Session[]>('cache:sessions');
    if (Array.isArray(hit)) return hit;
    const sessions = await this.gateway.sessions.list();
    await this.cache('cache:sessions', sessions, SESSIONS_TTL_MS);
    return sessions;
  }

  /** A cached value: this process's memory of it, else the store's copy (then kept in memory until it lapses). */
  private async cached<T>(k: string): Promise<T | undefined> {
    const hot = this.hot.get<T>(k);
    if (hot !== undefined) return hot;
    const raw = await this.store.kv.getRaw<T>(k);
    if (raw?.value === undefined || raw.value === null) return undefined;
    // A write of this process that landed while the store was read is newer than what the read found.
    const written = this.hot.get<T>(k);
    if (written !== undefined) return written;
    const ttl = typeof raw.expires === 'number' ? raw.expires - Date.now() : undefined;
    return this.hot.set(k, raw.value, ttl);
  }

  /**
   * Writes a value to the store's cache for `ttlMs` and keeps it in this process's memory (`keep` false: only
   * forgets the memory's older copy; a listing's hundreds of events would push the burst's cards out).
   */
  private async cache(k: string, value: unknown, ttlMs: number, keep = true): Promise<void> {
    await this.store.kv.set(k, value, ttlMs);
    if (keep) this.hot.set(k, value, ttlMs);
    else this.hot.forget(k);
  }

  async peekSessions(): Promise<Session[] | undefined> {
    const hit = await this.cached<Session[]>('cache:sessions');
    return Array.isArray(hit) ? hit : undefined;
  }
}
