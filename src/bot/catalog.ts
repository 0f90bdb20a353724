import type { GatewayPort, GwEvent, GwEventsQuery, GwMarketCard, GwSession } from './gateway-port.js';
import { SingleFlight } from './single-flight.js';
import type { BotStore } from './store.js';

export type EventsFilter = Pick<GwEventsQuery, 'league' | 'date' | 'since' | 'until' | 'status'>;

const EVENTS_TTL_MS = 60_000;
const CARD_TTL_MS = 60_000;
const SESSIONS_TTL_MS = 30_000;
const MAX_EVENT_PAGES = 10;

const eventsKey = (q: EventsFilter) =>
  `cache:events:${q.league ?? '*'}:${q.date ?? '*'}:${q.since ?? '*'}:${q.until ?? '*'}:${q.status ?? '*'}`;

/**
 * Read-through caches over the gateway in keyv (TTL'd). Autocomplete cannot wait for the gateway
 * (3 s, no defer), so it reads only `peek*`; commands that deferred use `load*`, which fill the cache.
 */
export class Catalog {
  /** Concurrent misses of one cache key share a single gateway load. */
  private readonly flights = new SingleFlight();

  constructor(
    private readonly gateway: GatewayPort,
    private readonly store: BotStore,
  ) {}

  loadEvents(q: EventsFilter): Promise<GwEvent[]> {
    const k = eventsKey(q);
    return this.flights.run(k, () => this.readEvents(k, q));
  }

  private async readEvents(k: string, q: EventsFilter): Promise<GwEvent[]> {
    const hit = await this.store.kv.get<GwEvent[]>(k);
    if (Array.isArray(hit)) return hit;
    const out: GwEvent[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < MAX_EVENT_PAGES; i++) {
      const page = await this.gateway.events.list({ ...q, limit: 500, ...(cursor ? { cursor } : {}) });
      out.push(...page.data);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    await this.store.kv.set(k, out, EVENTS_TTL_MS);
    for (const e of out) await this.store.kv.set(`cache:event:${e.event_id}`, e, 6 * 3600_000);
    return out;
  }

  async peekEvents(q: EventsFilter): Promise<GwEvent[] | undefined> {
    const hit = await this.store.kv.get<GwEvent[]>(eventsKey(q));
    return Array.isArray(hit) ? hit : undefined;
  }

  async event(epk: string): Promise<GwEvent | undefined> {
    return (await this.store.kv.get<GwEvent>(`cache:event:${epk}`)) ?? undefined;
  }

  loadCard(epk: string, bookie: string, filters: { tier?: string; market?: string } = {}): Promise<GwMarketCard> {
    const k = `cache:card:${bookie}:${filters.tier ?? '*'}:${filters.market ?? '*'}:${epk}`;
    return this.flights.run(k, () => this.readCard(k, epk, bookie, filters));
  }

  private async readCard(
    k: string,
    epk: string,
    bookie: string,
    filters: { tier?: string; market?: string },
  ): Promise<GwMarketCard> {
    const hit = await this.store.kv.get<GwMarketCard>(k);
    if (hit && typeof hit === 'object') return hit;
    const card = await this.gateway.markets.get({ epk, bookie, ...filters });
    await this.store.kv.set(k, card, CARD_TTL_MS);
    return card;
  }

  async peekCard(epk: string, bookie: string): Promise<GwMarketCard | undefined> {
    return (await this.store.kv.get<GwMarketCard>(`cache:card:${bookie}:*:*:${epk}`)) ?? undefined;
  }

  loadSessions(): Promise<GwSession[]> {
    return this.flights.run('cache:sessions', () => this.readSessions());
  }

  private async readSessions(): Promise<GwSession[]> {
    const hit = await this.store.kv.get<GwSession[]>('cache:sessions');
    if (Array.isArray(hit)) return hit;
    const sessions = await this.gateway.sessions.list();
    await this.store.kv.set('cache:sessions', sessions, SESSIONS_TTL_MS);
    return sessions;
  }

  async peekSessions(): Promise<GwSession[] | undefined> {
    const hit = await this.store.kv.get<GwSession[]>('cache:sessions');
    return Array.isArray(hit) ? hit : undefined;
  }
}
