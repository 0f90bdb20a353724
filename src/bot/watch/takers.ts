// Which of an event's books a watch may alert at: one that takes bets on it. A book the desk heard refuse the
// event's sport lately (`not_offered`, decision 1996), or whose card has nothing to bet on, is left out, with why.
import { notTakingText } from '../accounts/index.js';
import type { BettingReads } from '../betting/index.js';
import { booksLeftOut } from '../catalog/index.js';
import { bettable } from '../model/markets.js';

export interface BookOffer {
  /** The books that take bets on the event, in the listing's order. */
  takers: string[];
  leftOut: { book: string; why: string }[];
}

/** The event's books split into those taking bets on it and those left out; a card that cannot be read now counts as taking. */
export async function booksTakingBets(
  ctx: Pick<BettingReads, 'accounts' | 'catalog'>,
  event: { event_id: string; sport: string; books?: string[] | null | undefined },
): Promise<BookOffer> {
  const refusing = await ctx.accounts.booksNotTaking(event.sport);
  const offer: BookOffer = { takers: [], leftOut: [] };
  for (const book of event.books ?? []) {
    if (refusing.has(book)) {
      offer.leftOut.push({ book, why: notTakingText(event.sport) });
      continue;
    }
    const card = await ctx.catalog.loadCard(event.event_id, book).catch(() => undefined);
    if (card?.bound && !card.markets.some((m) => bettable(m).length > 0)) {
      offer.leftOut.push({ book, why: 'lists nothing to bet on for it' });
    } else offer.takers.push(book);
  }
  return offer;
}

/** "bookie_b (takes no basketball bets), bookie_c (…)": the books left out, for a reply. */
export function leftOutText(offer: BookOffer): string {
  return offer.leftOut.map((l) => `${l.book} (${l.why})`).join(', ');
}

/**
 * The books autocomplete leaves out of a watch on an event, without reading a card: refused the sport lately, or
 * a card already read that lists nothing to bet on.
 */
export async function booksLeftOutNow(
  ctx: Pick<BettingReads, 'accounts' | 'catalog'>,
  epk: string,
): Promise<Set<string>> {
  const event = await ctx.catalog.event(epk);
  return event ? booksLeftOut(ctx, event) : new Set();
}
