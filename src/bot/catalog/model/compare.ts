/** Comparing one market across books: which selections match, and which book prices each best. */

import type { MarketCard, MarketRow, MarketSelection } from '../../../gateway/index.js';
import type { FairPrice } from '../../model/fair-price.js';

/** More selections than this (a scorer list) make a wall of jobs: the member picks one instead. */
export const MAX_SELECTIONS = 6;

export interface BookPrice {
  bookie: string;
  /** Absent when the book was left out before a price check (no session, not listed, ...). */
  sessionId?: string;
  marketRef?: string;
  price: number | null;
  error?: string;
  /** Why this book cannot take the bet (it may still show a price, for comparison). */
  why?: string;
}

export interface SelectionComparison {
  /** Key comparable across books: the selection's slug, else its label and line. */
  key: string;
  label: string;
  books: BookPrice[];
  /** The book with the highest live price among those that can take the bet, if any. */
  best: BettablePrice | undefined;
  /** The selection's fair price from the books' complete markets (absent on comparisons made without it). */
  fair?: FairPrice;
}

export const selectionKey = (s: MarketSelection) => s.slug ?? `${s.label.toLowerCase()}|${s.line ?? ''}`;

/** A book that priced the selection and can take the bet there. */
export type BettablePrice = BookPrice & { sessionId: string; marketRef: string; price: number };

const canBet = (b: BookPrice): b is BettablePrice =>
  b.price !== null && b.why === undefined && b.sessionId !== undefined && b.marketRef !== undefined;

/** The best (highest) live price among books that can take the bet; ties go to the first listed. */
export function bestOf(books: readonly BookPrice[]): BettablePrice | undefined {
  let best: BettablePrice | undefined;
  for (const b of books) if (canBet(b) && (best === undefined || b.price > best.price)) best = b;
  return best;
}

/** A selection named by its slug, its label or its key (slugs and labels are shared across books, market_refs not). */
export const selectionMatches = (s: MarketSelection, wanted: string) => {
  const w = wanted.trim().toLowerCase();
  return s.slug?.toLowerCase() === w || s.label.toLowerCase() === w || selectionKey(s).toLowerCase() === w;
};

/** A market comparable across books: named (mapped) markets only, by their market key. */
export const comparableMarket = (card: MarketCard | undefined, market: string): MarketRow | undefined =>
  card?.markets.find((m) => m.market === market && m.tier !== 'unmapped');
