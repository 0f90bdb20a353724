/**
 * The plain record every analytic reads: one bet, whatever store it came from (source.ts builds them).
 * Money is whole cents; times are epoch milliseconds.
 */

import type { SettledStatus } from '../model/bet-states.js';

/** How the book settled the bet (SETTLED_STATUSES, model/bet-states.ts), or open. */
export type BetStatus = SettledStatus | 'open';

/** The close prices of the bet's market, for taking the book's margin out. */
export interface BookClose {
  /** Close price of every outcome in the market, the bet's own selection among them. */
  prices: number[];
  /** True only when `prices` cover every outcome (a mutually exclusive, exhaustive set). */
  complete: boolean;
}

/**
 * A same-race multi's close (decision 2040): no book quotes a multi before it takes one, so its close is its fair
 * chance at the race's close, from the legs' closing no-vig win prices by the slip's own model.
 */
export interface FairClose {
  kind: 'fair';
  /** The chance every leg comes true, at the close. */
  probability: number;
  /** The books whose complete win markets went into it. */
  books: string[];
  method: string;
}

export type CloseMarket = BookClose | FairClose;

/** Whether a close is a multi's fair close rather than a book's market. */
export const isFairClose = (m: CloseMarket | null | undefined): m is FairClose =>
  m !== null && m !== undefined && (m as FairClose).kind === 'fair';

export interface BetFact {
  betId: string;
  /** Discord user id of the member who placed it. */
  member: string;
  book: string;
  session: string;
  /** The account's user name at the book, when the slip named it (fund attribution reads it). */
  account?: string | null;
  /**
   * The server whose fund the bet was decided to be at its claim (null: outside every fund); absent on records from
   * before that was stored (decision 1950).
   */
  fundKey?: string | null;
  /** The event's key and league, when the slip named them (the weekly report groups by league). */
  epk?: string | null;
  league?: string | null;
  sport: string;
  placedAt: number;
  /** When it settled, when known; P&L curves order by it (else by placedAt). */
  settledAt?: number | null;
  stakeCents: number;
  /** Decimal odds the bet was struck at. */
  oddsTaken: number;
  status: BetStatus;
  /** Money paid back including the stake (0 lost, the stake for a void); null while open or unknown. */
  returnCents: number | null;
  /**
   * Last pre-off price of the same selection at the same book; null when none was captured. A multi's is the book's
   * price its fair close implies with the margin it took the multi at (source.ts, decision 2040).
   */
  closeOdds: number | null;
  closeMarket: CloseMarket | null;
  /** The consensus fair probability when the slip was made (absent: no complete market, or an older bet). */
  fairProbability?: number | null;
  /** The stake suggested when the slip was made (fractional Kelly of the bank), whole cents; absent: none. */
  suggestedCents?: number | null;
  /** A same-race multi: how many legs it has (absent: a single). */
  multiLegs?: number;
}

export interface FactsFilter {
  member?: string;
  book?: string;
  /** Bets placed at or after this instant. */
  since?: number;
  /** Bets placed before this instant. */
  until?: number;
}

/** Facts matching a filter; a source may filter in its own query and call this as the last word. */
export function applyFilter(facts: readonly BetFact[], f: FactsFilter): BetFact[] {
  return facts.filter(
    (b) =>
      (f.member === undefined || b.member === f.member) &&
      (f.book === undefined || b.book === f.book) &&
      (f.since === undefined || b.placedAt >= f.since) &&
      (f.until === undefined || b.placedAt < f.until),
  );
}
