// The GET /v3/markets answer built from a book's card: tiers, ordering, bettable filtering, market_refs.
import type { CardMarket, CardSelection, Tier } from './cards.js';
import { TIERS } from './cards.js';
import { encodeMarketRef } from './market-ref.js';

export interface CardViewOptions {
  bookie: string;
  epk: string;
  tier: Tier | null;
  market: string | null;
  includeUnbettable: boolean;
  /** Price shown for a selection (last scrape). */
  price: (market: string, sel: CardSelection) => number;
}

export function isBettable(sel: CardSelection): boolean {
  return sel.reason === null && sel.propositionId !== null;
}

function selectionRow(o: CardViewOptions, m: CardMarket, sel: CardSelection): Record<string, unknown> {
  const bettable = isBettable(sel);
  const row: Record<string, unknown> = {
    label: sel.label,
    odds: o.price(m.market, sel),
    line: sel.line,
    player: sel.player,
    slug: sel.slug,
  };
  if (bettable)
    row.market_ref = encodeMarketRef({ bookie: o.bookie, epk: o.epk, market: m.market, selection: sel.slug });
  row.proposition_id = sel.propositionId;
  row.bettable = bettable;
  if (!bettable) row.reason = sel.reason;
  return row;
}

export interface CardView {
  markets: Record<string, unknown>[];
  n_markets: number;
  n_selections: number;
  n_bettable_selections: number;
}

/** Markets ordered popular → other → unmapped, most bettable first within a tier. */
export function viewCard(card: readonly CardMarket[], o: CardViewOptions): CardView {
  const rows: { tier: Tier; nBettable: number; index: number; row: Record<string, unknown> }[] = [];
  card.forEach((m, index) => {
    if (o.tier && m.tier !== o.tier) return;
    if (o.market && m.market !== o.market) return;
    const shown = o.includeUnbettable ? m.selections : m.selections.filter(isBettable);
    if (shown.length === 0) return;
    const nBettable = shown.filter(isBettable).length;
    rows.push({
      tier: m.tier,
      nBettable,
      index,
      row: {
        market: m.market,
        label: m.label,
        raw_market_name: m.rawName,
        tier: m.tier,
        n_bettable: nBettable,
        selections: shown.map((s) => selectionRow(o, m, s)),
      },
    });
  });
  rows.sort((a, b) => TIERS.indexOf(a.tier) - TIERS.indexOf(b.tier) || b.nBettable - a.nBettable || a.index - b.index);
  const markets = rows.map((r) => r.row);
  const nSel = markets.reduce((a, m) => a + (m.selections as unknown[]).length, 0);
  return {
    markets,
    n_markets: markets.length,
    n_selections: nSel,
    n_bettable_selections: rows.reduce((a, r) => a + r.nBettable, 0),
  };
}

/** The selection a market_ref names on a card, if it is still there and bettable. */
export function findSelection(
  card: readonly CardMarket[],
  market: string,
  slug: string,
): { market: CardMarket; selection: CardSelection } | undefined {
  const m = card.find((x) => x.market === market);
  const selection = m?.selections.find((s) => s.slug === slug);
  return m && selection ? { market: m, selection } : undefined;
}
