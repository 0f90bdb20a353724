import { describe, expect, it } from 'vitest';
import { closeMarketOf } from '../../../../src/bot/analytics/close-market.js';
import type { MarketRow, MarketSelection } from '../../../../src/gateway/index.js';

const sel = (label: string, odds: number, extra: Partial<MarketSelection> = {}): MarketSelection => ({
  label,
  odds,
  bettable: true,
  ...extra,
});
const market = (key: string, selections: MarketSelection[], tier = 'popular'): MarketRow => ({
  market: key,
  label: key,
  tier,
  selections,
});

describe('the outcome set of a bet’s market at the close', () => {
  it('takes a whole three-way head-to-head as complete', () => {
    const m = market('head_to_head', [sel('A', 2.1), sel('Draw', 3.4), sel('B', 3.6)]);
    expect(closeMarketOf(m, m.selections[0]!)).toEqual({ prices: [2.1, 3.4, 3.6], complete: true });
  });

  it('narrows a totals row to the bet’s own over/under pair', () => {
    const m = market('alternate_total_points', [
      sel('Over 40.5', 1.8, { line: 40.5, slug: 'alt-over-40-5' }),
      sel('Under 40.5', 2.0, { line: 40.5, slug: 'alt-under-40-5' }),
      sel('Over 43.5', 2.2, { line: 43.5, slug: 'alt-over-43-5' }),
      sel('Under 43.5', 1.65, { line: 43.5, slug: 'alt-under-43-5' }),
    ]);
    expect(closeMarketOf(m, m.selections[2]!)).toEqual({ prices: [2.2, 1.65], complete: true });
  });

  it('pairs a player prop by player and line', () => {
    const m = market('disposals', [
      sel('Ann Over 24.5', 1.9, { player: 'Ann', line: 24.5 }),
      sel('Ann Under 24.5', 1.9, { player: 'Ann', line: 24.5 }),
      sel('Bo Over 24.5', 1.7, { player: 'Bo', line: 24.5 }),
    ]);
    expect(closeMarketOf(m, m.selections[2]!)).toEqual({ prices: [1.7], complete: false });
    expect(closeMarketOf(m, m.selections[0]!).complete).toBe(true);
  });

  it('pairs a handicap with its negative line', () => {
    const m = market('line', [sel('A -3.5', 1.9, { line: -3.5 }), sel('B +3.5', 1.9, { line: 3.5 })]);
    expect(closeMarketOf(m, m.selections[1]!)).toEqual({ prices: [1.9, 1.9], complete: true });
  });

  it('never calls a scorer market complete (several can score)', () => {
    const m = market('goalscorer_threshold', [sel('Ann', 3), sel('Bo', 4)]);
    expect(closeMarketOf(m, m.selections[0]!).complete).toBe(false);
  });

  it('never calls an unmapped market complete', () => {
    const m = market('special', [sel('x', 1.9), sel('y', 1.9)], 'unmapped');
    expect(closeMarketOf(m, m.selections[0]!).complete).toBe(false);
  });

  it('calls a head-to-head missing an outcome (one side only) incomplete', () => {
    const m = market('head_to_head', [sel('A', 2.1)]);
    expect(closeMarketOf(m, m.selections[0]!).complete).toBe(false);
  });
});
