/**
 * Which sessions can take a bet on one selection of one market: the one rule that best-price /bet, /compare's
 * "Bet at best" and the autocomplete of /bet without a bookie all use. A session is eligible when it is active
 * (and is the one an admin chose for its book, if any), its book's card lists the event and takes bets by
 * market_ref, and the market and selection are listed there. Checks that need the gateway (cash, live price) are
 * added on top by the caller; a new per-session check belongs in `sessionCheck` so every caller gets it.
 */

import type { MarketCard, MarketRow, Session } from '../../../gateway/index.js';
import { bettable, selectionName } from '../../model/markets.js';
import { formatMoney } from '../../model/money.js';
import { comparableMarket, selectionMatches } from './compare.js';

/** Why a session cannot take the bet. */
export type LeftOut =
  | { kind: 'no_session'; chosen?: string }
  | { kind: 'card_unread'; error: string }
  | { kind: 'not_listed'; what: string }
  | { kind: 'market_ref_off' }
  | { kind: 'balance_short'; balanceCents: number }
  | { kind: 'balance_unread'; error: string }
  | { kind: 'no_price'; error?: string }
  /** Account health left the session out (its text says why: offline, restricted, limited below the stake). */
  | { kind: 'account'; why: string };

/** One session's answer: a price (when it got that far) or why it was left out. */
export interface BookCheck {
  bookie: string;
  sessionId?: string;
  marketRef?: string;
  /** Cash that can take a stake, in cents. */
  balanceCents?: number;
  price?: number | null;
  leftOut?: LeftOut;
}

export interface EligibilityInput {
  /** The event's books, in the listing's order. */
  books: readonly string[];
  /** The gateway's sessions (inactive ones are skipped). */
  sessions: readonly Session[];
  /** Each book's card; undefined when it could not be read (`cardErrors` says why). */
  cards: ReadonlyMap<string, MarketCard | undefined>;
  cardErrors?: ReadonlyMap<string, string>;
  /** bookie → the session an admin chose for it: that book is reached through that session alone. */
  chosen: Readonly<Record<string, string>>;
  /** The market key (named markets only). */
  market: string;
  /** A slug, label or selection key; left out, the market alone is checked. */
  selection?: string;
}

/** The session-level checks (before the card): active, and the admin's pick when there is one. */
function sessionsOf(input: EligibilityInput, book: string): BookCheck[] {
  const active = input.sessions.filter((s) => s.active && s.bookie === book);
  const pick = input.chosen[book];
  const usable = pick === undefined ? active : active.filter((s) => s.session_id === pick);
  if (usable.length === 0)
    return [{ bookie: book, leftOut: { kind: 'no_session', ...(pick ? { chosen: pick } : {}) } }];
  return usable.map((s) => ({ bookie: book, sessionId: s.session_id }));
}

/** The card-level checks for one session: listed, market_ref betting on, market and selection listed. */
function cardCheck(input: EligibilityInput, c: BookCheck, marketLabel: string): BookCheck {
  if (c.leftOut) return c;
  const card = input.cards.get(c.bookie);
  const unread = input.cardErrors?.get(c.bookie);
  if (!card && unread) return { ...c, leftOut: { kind: 'card_unread', error: unread } };
  if (!card?.bound) return { ...c, leftOut: { kind: 'not_listed', what: 'this event' } };
  if (!card.market_ref_betting_enabled) return { ...c, leftOut: { kind: 'market_ref_off' } };
  const market = comparableMarket(card, input.market);
  if (!market) return { ...c, leftOut: { kind: 'not_listed', what: marketLabel } };
  if (input.selection === undefined) return c;
  const wanted = input.selection;
  const sel = bettable(market).find((s) => selectionMatches(s, wanted));
  if (!sel?.market_ref) {
    const what = `${selectionWords(input, wanted)} in ${market.label || marketWords(market.market)}`;
    return { ...c, leftOut: { kind: 'not_listed', what } };
  }
  return { ...c, marketRef: sel.market_ref };
}

/**
 * A selection as members read it ("Sacramento Kings", "Over 24.5"), from any book that lists it, never its slug
 * ("home").
 */
function selectionWords(input: Pick<EligibilityInput, 'cards' | 'market'>, wanted: string): string {
  for (const card of input.cards.values()) {
    const sel = comparableMarket(card, input.market)?.selections.find((s) => selectionMatches(s, wanted));
    if (sel?.label) return selectionName(sel.label, sel.line);
  }
  // What a member typed (a label) is quoted back; a code no book names is not.
  return /[A-Z\s]/.test(wanted) ? `"${wanted}"` : 'this selection';
}

/** A market key no book labels, in words ("total_points" reads "total points"). */
const marketWords = (key: string): string => key.replace(/_/g, ' ');

/** The first comparable market any book lists, for its label (undefined when no book names the market). */
export function anyMarket(input: Pick<EligibilityInput, 'cards' | 'market'>): MarketRow | undefined {
  for (const card of input.cards.values()) {
    const m = comparableMarket(card, input.market);
    if (m) return m;
  }
  return undefined;
}

/**
 * One check per session of every book the event lists (a book with no usable session gets one check saying so):
 * the eligible ones carry the selection's market_ref at their book, the others why they were left out.
 */
export function bookChecks(input: EligibilityInput): BookCheck[] {
  const label = anyMarket(input)?.label || marketWords(input.market);
  return input.books.flatMap((book) => sessionsOf(input, book).map((c) => cardCheck(input, c, label)));
}

/** A session whose cash is below the stake cannot take it (checked before its price, so no job is spent on it). */
export function balanceShort(c: BookCheck, stakeCents: number): LeftOut | undefined {
  return c.balanceCents !== undefined && c.balanceCents < stakeCents
    ? { kind: 'balance_short', balanceCents: c.balanceCents }
    : undefined;
}

export function leftOutText(why: LeftOut, stakeCents?: number): string {
  switch (why.kind) {
    case 'no_session':
      return why.chosen ? 'the session an admin chose for it is not active (/settings session)' : 'no active session';
    case 'card_unread':
      return `its markets could not be read (${why.error})`;
    case 'not_listed':
      return `does not list ${why.what}`;
    case 'market_ref_off':
      return 'not taking bets on this event';
    case 'balance_short':
      return stakeCents === undefined
        ? `balance ${formatMoney(why.balanceCents)} is below the stake`
        : `balance ${formatMoney(why.balanceCents)} is below the ${formatMoney(stakeCents)} stake`;
    case 'balance_unread':
      return `balance could not be read (${why.error})`;
    case 'no_price':
      return why.error ? `no live price (${why.error})` : 'no live price';
    case 'account':
      return why.why;
  }
}
