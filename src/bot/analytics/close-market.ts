/**
 * Which prices on a card make up the bet's market for de-vig, and whether they are all of it. A card row can
 * hold several markets in one (alternate lines, one over/under pair per player and line), so the outcome
 * set is narrowed to the bet's own pair; markets that are not mutually exclusive and exhaustive (scorers,
 * unmapped specials) are never called complete.
 */

import type { MarketRow, MarketSelection } from '../../gateway/index.js';
import type { BookClose } from './facts.js';

/** Markets whose whole row is one exhaustive outcome set (2-way, or 3-way with a draw). */
const WHOLE_ROW = new Set(['head_to_head', 'both_teams_to_score']);
/** Handicaps: the pair is a line and its negative. */
const HANDICAP = new Set(['line', 'alternate_line']);

const side = (s: MarketSelection): 'over' | 'under' | undefined => {
  const text = `${s.slug ?? ''} ${s.label}`.toLowerCase();
  if (/\bover\b/.test(text)) return 'over';
  if (/\bunder\b/.test(text)) return 'under';
  return undefined;
};

const priced = (xs: MarketSelection[]) => xs.flatMap((s) => (typeof s.odds === 'number' && s.odds > 1 ? [s.odds] : []));

export function closeMarketOf(market: MarketRow, sel: MarketSelection): BookClose {
  const all = market.selections;
  if (market.tier === 'unmapped') return { prices: priced(all), complete: false };
  if (WHOLE_ROW.has(market.market)) {
    const n = all.length;
    return { prices: priced(all), complete: (n === 2 || n === 3) && priced(all).length === n };
  }
  const line = sel.line;
  if (HANDICAP.has(market.market) && typeof line === 'number') {
    const pair = all.filter(
      (s) => (s.player ?? null) === (sel.player ?? null) && (s.line === line || s.line === -line),
    );
    return { prices: priced(pair), complete: pair.length === 2 && priced(pair).length === 2 };
  }
  if (side(sel) !== undefined) {
    const pair = all.filter(
      (s) =>
        (s.player ?? null) === (sel.player ?? null) && (s.line ?? null) === (sel.line ?? null) && side(s) !== undefined,
    );
    const sides = new Set(pair.map(side));
    return { prices: priced(pair), complete: pair.length === 2 && sides.size === 2 && priced(pair).length === 2 };
  }
  return { prices: priced(all), complete: false };
}
