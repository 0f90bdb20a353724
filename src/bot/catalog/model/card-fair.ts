/**
 * The fair price of a selection from the books' cards the desk already read: the selection's outcome set in one
 * market (same player, same line size), each book's prices for it from the card, then the consensus.
 */

import type { MarketCard, MarketRow, MarketSelection } from '../../../gateway/index.js';
import {
  type BookMarket,
  consensusFair,
  consensusMarket,
  DEFAULT_MARGIN_METHOD,
  type FairPrice,
  type MarginMethod,
} from '../../model/fair-price.js';
import { comparableMarket, selectionKey } from './compare.js';

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

/** A market row's selections by outcome group, in one pass. */
function groupsOf(row: MarketRow | undefined): Map<string, MarketSelection[]> {
  const groups = new Map<string, MarketSelection[]>();
  for (const sel of row?.selections ?? []) {
    const g = groupOf(sel);
    const list = groups.get(g);
    if (list) list.push(sel);
    else groups.set(g, [sel]);
  }
  return groups;
}

/**
 * Every selection of one book's card with its fair price, one pass per market and outcome group (bench figure 19
 * holds a 300-selection card at three books under 5 ms), keyed by the selection's market_ref (else its key).
 */
export function fairPricesOfCard(
  cards: ReadonlyMap<string, MarketCard | undefined>,
  bookie: string,
  method: MarginMethod = DEFAULT_MARGIN_METHOD,
): Map<string, FairPrice> {
  const out = new Map<string, FairPrice>();
  const none: FairPrice = { kind: 'no_complete_market', method };
  for (const row of cards.get(bookie)?.markets ?? []) {
    if (row.tier === 'unmapped') continue;
    const books = [...cards].map(([b, card]) => [b, groupsOf(comparableMarket(card, row.market))] as const);
    for (const [group, sels] of groupsOf(row)) {
      const outcomes = new Set<string>();
      const markets: BookMarket[] = [];
      for (const [b, groups] of books) {
        const prices = new Map<string, number>();
        for (const s of groups.get(group) ?? []) {
          const key = selectionKey(s);
          outcomes.add(key);
          if (typeof s.odds === 'number') prices.set(key, s.odds);
        }
        if (prices.size > 0) markets.push({ bookie: b, prices });
      }
      const fair = consensusMarket({ markets, outcomes: [...outcomes], method });
      for (const sel of sels) out.set(sel.market_ref ?? selectionKey(sel), fair.get(selectionKey(sel)) ?? none);
    }
  }
  return out;
}
