// The bot's rules about a card's markets and selections (what can be bet on, in what order, under what name),
// used by the views and by the betting code alike.
import type { MarketRow, MarketSelection } from '../../gateway/index.js';

/** Tiers in the order members see them: the books' popular markets first, one book's own last. */
const TIER_ORDER = ['popular', 'other', 'unmapped'];

export type BettableSelection = MarketSelection & { odds: number; market_ref: string };

/** Selections a bet can be started on: bettable, with a market_ref and a price. */
export function bettable(market: MarketRow): BettableSelection[] {
  return market.selections.filter(
    (s): s is BettableSelection => s.bettable && typeof s.market_ref === 'string' && typeof s.odds === 'number',
  );
}

export function sortMarkets(markets: MarketRow[]): MarketRow[] {
  const rank = (t: string) => {
    const i = TIER_ORDER.indexOf(t);
    return i === -1 ? TIER_ORDER.length : i;
  };
  return markets
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank(a.m.tier) - rank(b.m.tier) || a.i - b.i)
    .map((x) => x.m);
}

/**
 * A selection's name with its line, unless the label already carries it: books label "Over 2.5" (line 2.5),
 * "Everton -0.5" (line -0.5) or "Jalen Wallace 2+" (line 2), and the line must not be repeated.
 */
export function selectionName(label: string, line?: number | null): string {
  if (line === undefined || line === null) return label;
  const number = String(Math.abs(line)).replace('.', '\\.');
  const carried = new RegExp(`(^|[^\\d.])[+-]?${number}(?![\\d]|\\.\\d)`).test(label);
  return carried ? label : `${label} ${line}`;
}
