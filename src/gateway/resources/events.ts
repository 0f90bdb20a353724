import type { APIPromise } from '../api-promise.js';
import { GatewayError } from '../errors.js';
import type { RequestOptions } from '../request-options.js';
import { type Event, EventsPage, EventsQuery } from '../schemas/events.js';
import type { ResourceContext } from './context.js';

/** A query for paging: every filter of GET /odds/v1/events except the cursor, which the pager owns. */
export type EventsPageQuery = Omit<EventsQuery, 'cursor'>;

/** Options of a pager: where to resume, plus the per-call options every page request gets. */
export interface EventsPagerOptions extends RequestOptions {
  /** Resume from a cursor saved from an earlier pager's `nextCursor` (same filters). */
  cursor?: string | null | undefined;
}

/**
 * Pages through GET /odds/v1/events with the same filters, following next_cursor until it is null (a short page
 * is not the last page). Resumable: save `nextCursor`, later pass it as `cursor`; a page is the unit of resuming.
 */
export class EventsPager implements AsyncIterable<Event> {
  readonly #fetch: (query: EventsQuery) => Promise<EventsPage>;
  readonly #query: EventsPageQuery;
  #cursor: string | null;
  #started: boolean;
  readonly #seen = new Set<string>();

  constructor(fetch: (query: EventsQuery) => Promise<EventsPage>, query: EventsPageQuery, cursor: string | null) {
    this.#fetch = fetch;
    this.#query = query;
    this.#cursor = cursor;
    // A given cursor is itself a page still to read.
    this.#started = false;
  }

  /** The cursor of the next page to read; null once the last page was read (or before the first, unresumed). */
  get nextCursor(): string | null {
    return this.#cursor;
  }

  /** True while a page remains: before the first page, and while the last page read named a next_cursor. */
  hasNextPage(): boolean {
    return !this.#started || this.#cursor !== null;
  }

  /** Reads the next page (one request, one token) and moves the cursor past it. */
  async nextPage(): Promise<EventsPage> {
    if (!this.hasNextPage()) {
      throw new GatewayError('No next page: the last page of events was already read (next_cursor was null).');
    }
    const cursor = this.#cursor;
    const page = await this.#fetch(cursor === null ? this.#query : { ...this.#query, cursor });
    this.#started = true;
    const next = page.next_cursor ?? null;
    // A gateway that hands back a cursor it already gave would loop forever: stop there.
    if (next !== null && this.#seen.has(next)) this.#cursor = null;
    else {
      if (next !== null) this.#seen.add(next);
      this.#cursor = next;
    }
    return page;
  }

  /** Every event of the remaining pages, page by page. */
  async *[Symbol.asyncIterator](): AsyncIterator<Event> {
    while (this.hasNextPage()) {
      const page = await this.nextPage();
      yield* page.data;
    }
  }

  /** The events of the remaining pages in one array; with `max`, stops reading pages once it has that many. */
  async all(opts: { max?: number } = {}): Promise<Event[]> {
    const max = opts.max ?? Number.POSITIVE_INFINITY;
    if (!(max >= 0)) throw new GatewayError(`all({ max }) needs a number of events of 0 or more (got ${opts.max}).`);
    const out: Event[] = [];
    while (out.length < max && this.hasNextPage()) {
      const page = await this.nextPage();
      for (const e of page.data) {
        if (out.length >= max) break;
        out.push(e);
      }
    }
    return out;
  }
}

/** GET /odds/v1/events: one page, or every page by next_cursor with the same filters. Each page costs 1 token. */
export class Events {
  constructor(private readonly ctx: ResourceContext) {}

  /** One page (the raw body: count, truncated, next_cursor, data, ...). */
  list(query: EventsQuery = {}, options?: RequestOptions): APIPromise<EventsPage> {
    return this.ctx.get('/odds/v1/events', EventsQuery, query, EventsPage, options);
  }

  /** A pager over every page of the query, optionally resumed from a saved cursor. */
  pages(query: EventsPageQuery = {}, options: EventsPagerOptions = {}): EventsPager {
    const { cursor, ...call } = options;
    return new EventsPager((q) => this.list(q, call), query, cursor ?? null);
  }

  /** Async iterator over all events; a short page is not the last page, only next_cursor null is. */
  iterate(query: EventsPageQuery = {}, options: EventsPagerOptions = {}): AsyncIterable<Event> {
    return this.pages(query, options);
  }

  /** Every page's events in one array (up to `max`); mind the token cost of each page. */
  all(query: EventsPageQuery = {}, options: EventsPagerOptions & { max?: number } = {}): Promise<Event[]> {
    const { max, ...rest } = options;
    return this.pages(query, rest).all(max === undefined ? {} : { max });
  }
}
