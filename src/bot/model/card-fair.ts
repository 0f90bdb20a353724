/**
 * The fair price of a selection from the books' cards the desk already read: the selection's outcome set in one
 * market (same player, same line size), each book's prices for it from the card, then the consensus.
 */

import type { MarketCard, MarketRow, MarketSelection } from '../../gateway/index.js';
import { comparableMarket, selectionKey } from './compare.js';
import {
  type BookMarket,
  consensusFair,
  DEFAULT_MARGIN_METHOD,
  type FairPrice,
  type MarginMethod,
} from './fair-price.js';

/**
 * Outcomes that exclude each other within a market row: the same player and the same size of line (Over/Under 2.5,
 * Home −1.5 / Away +1.5); a head-to-head market is one group.
 */
const groupOf = (s: MarketSelection) =>
  `${s.player ?? ''}|${s.line === null || s.line === undefined ? '' : Math.abs(s.line)}`;

/** Books' priced selections of the selection's outcome group: outcome keys (union across books) and each book's prices. */
export function outcomeMarkets(
  cards: ReadonlyMap<string, MarketCard | undefined>,
  market: string,
  selection: string,
): { outcomes: string[]; markets: BookMarket[] } | undefined {
  const rows = [...cards].map(([bookie, card]) => [bookie, comparableMarket(card, market)] as const);
  const sel = rows
    .flatMap(([, row]) => row?.selections ?? [])
    .find((s) => selectionKey(s) === selection || s.market_ref === selection);
  if (!sel) return undefined;
  const group = groupOf(sel);
  const outcomes = new Set<string>();
  const markets: BookMarket[] = [];
  for (const [bookie, row] of rows) {
    if (!row) continue;
    const prices = new Map<string, number>();
    for (const s of inGroup(row, group)) {
      outcomes.add(selectionKey(s));
      if (typeof s.odds === 'number') prices.set(selectionKey(s), s.odds);
    }
    markets.push({ bookie, prices });
  }
  return { outcomes: [...outcomes], markets };
}

const inGroup = (row: MarketRow, group: string) => row.selections.filter((s) => groupOf(s) === group);

/** The selection's fair price across the cards (a selection named by its key, slug, or a market_ref on one card). */
export function fairFromCards(input: {
  cards: ReadonlyMap<string, MarketCard | undefined>;
  market: string;
  selection: string;
  method?: MarginMethod;
}): FairPrice {
  const method = input.method ?? DEFAULT_MARGIN_METHOD;
  const found = outcomeMarkets(input.cards, input.market, input.selection);
  if (!found) return { kind: 'no_complete_market', method };
  const key = found.outcomes.find((o) => o === input.selection) ?? keyOfRef(input.cards, input.market, input.selection);
  return consensusFair({ ...found, selection: key ?? input.selection, method });
}

function keyOfRef(cards: ReadonlyMap<string, MarketCard | undefined>, market: string, ref: string): string | undefined {
  for (const card of cards.values()) {
    const s = comparableMarket(card, market)?.selections.find((x) => x.market_ref === ref);
    if (s) return selectionKey(s);
  }
  return undefined;
}
