// Which of an event's books take no bets on it, from what the desk already knows (no card is read for it): a book
// heard refusing the event's sport lately (decision 1996), or one whose card read lists nothing to bet on (1995).
import type { Event } from '../../gateway/index.js';
import { bettable } from '../model/markets.js';
import type { Catalog } from './catalog.js';

/** The accounts wing's memory of books refusing a sport, as the catalog is handed it. */
export interface SportRefusals {
  booksNotTaking(sport: string): Promise<Set<string>>;
}

export type OfferReads = { catalog: Pick<Catalog, 'peekCard'>; accounts: SportRefusals };

/** The books (of this event's or others') the desk knows take no bets on the event now. */
export async function booksLeftOut(
  ctx: OfferReads,
  event: Pick<Event, 'event_id' | 'sport' | 'books'>,
): Promise<Set<string>> {
  const out = new Set(await ctx.accounts.booksNotTaking(event.sport));
  for (const book of event.books ?? []) {
    const card = await ctx.catalog.peekCard(event.event_id, book);
    if (card?.bound && !card.markets.some((m) => bettable(m).length > 0)) out.add(book);
  }
  return out;
}

/** For a listing: each event's books that take no bets on it (event id → books), one refusal read per sport. */
export async function listingLeftOut(ctx: OfferReads, events: readonly Event[]): Promise<Record<string, string[]>> {
  const bySport = new Map<string, Promise<Set<string>>>();
  const accounts: SportRefusals = {
    booksNotTaking: (sport) => {
      const known = bySport.get(sport) ?? ctx.accounts.booksNotTaking(sport);
      bySport.set(sport, known);
      return known;
    },
  };
  const out: Record<string, string[]> = {};
  for (const e of events) {
    const left = await booksLeftOut({ catalog: ctx.catalog, accounts }, e);
    const listed = (e.books ?? []).filter((b) => left.has(b));
    if (listed.length > 0) out[e.event_id] = listed;
  }
  return out;
}
