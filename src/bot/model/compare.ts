/** Comparing one market across books: which selections match, and which book prices each best. */

import type { MarketCard, MarketRow, MarketSelection } from '../../gateway/index.js';
import type { FairPrice } from './fair-price.js';

/** More selections than this (a scorer list) make a wall of jobs: the member picks one instead. */
export const MAX_SELECTIONS = 6;

export interface BookPrice {
  bookie: string;
  sessionId: string;
  marketRef: string;
  price: number | null;
  error?: string;
}

export interface SelectionComparison {
  /** Key comparable across books: the selection's slug, else its label and line. */
  key: string;
  label: string;
  books: BookPrice[];
  /** The book with the highest live price, if any priced. */
  best: BookPrice | undefined;
  /** The selection's fair price from the books' complete markets (absent on comparisons made without it). */
  fair?: FairPrice;
}

export const selectionKey = (s: MarketSelection) => s.slug ?? `${s.label.toLowerCase()}|${s.line ?? ''}`;

/** The best (highest) live price among books; ties go to the first listed. */
export function bestOf(books: readonly BookPrice[]): BookPrice | undefined {
  let best: BookPrice | undefined;
  for (const b of books) if (b.price !== null && (best === undefined || b.price > (best.price ?? 0))) best = b;
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
