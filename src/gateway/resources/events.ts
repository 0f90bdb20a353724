import { type Event, EventsPage, EventsQuery } from '../schemas/events.js';
import type { Transport } from '../transport.js';
import { parseRequest } from '../validate.js';

/** GET /odds/v1/events: one page, or every page by next_cursor with the same filters. */
export class Events {
  constructor(private readonly transport: Transport) {}

  async list(query: EventsQuery = {}): Promise<EventsPage> {
    const q = parseRequest(EventsQuery, query, 'GET /odds/v1/events');
    return this.transport.request({
      method: 'GET',
      path: '/odds/v1/events',
      query: q,
      schema: EventsPage,
      idempotent: true,
    });
  }

  /** Async iterator over all events; a short page is not the last page, only next_cursor null is. */
  async *iterate(query: Omit<EventsQuery, 'cursor'> = {}): AsyncGenerator<Event, void, undefined> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (;;) {
      const page = await this.list(cursor === undefined ? query : { ...query, cursor });
      yield* page.data;
      const next = page.next_cursor ?? null;
      if (next === null || seen.has(next)) return;
      seen.add(next);
      cursor = next;
    }
  }

  /** Every page's events in one array; mind the token cost of each page. */
  async all(query: Omit<EventsQuery, 'cursor'> = {}): Promise<Event[]> {
    const out: Event[] = [];
    for await (const e of this.iterate(query)) out.push(e);
    return out;
  }
}
