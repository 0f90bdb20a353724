import { describe, expect, it } from 'vitest';
import { fairFromCards, fairPricesOfCard } from '../../../../src/bot/catalog/model/card-fair.js';
import type { MarketCard } from '../../../../src/gateway/index.js';

const sel = (slug: string, odds: number | null, extra: Record<string, unknown> = {}) => ({
  label: slug,
  slug,
  odds,
  bettable: true,
  market_ref: `ref-${slug}-${odds}`,
  ...extra,
});
const card = (bookie: string, selections: ReturnType<typeof sel>[], market = 'h2h'): MarketCard =>
  ({
    epk: 'e',
    bookie,
    bound: true,
    market_ref_betting_enabled: true,
    markets: [{ market, label: market, tier: 'popular', selections }],
  }) as MarketCard;

describe('the fair price from the books cards', () => {
  it('uses every book that prices the whole market, found by the slip market_ref', () => {
    // Hand computation, multiplicative: a 1.9/1.9 → 0.5; b 1.8/2.0 → 0.5263157895; c lacks "away" (left out).
    const cards = new Map([
      ['a', card('a', [sel('home', 1.9), sel('away', 1.9)])],
      ['b', card('b', [sel('home', 1.8), sel('away', 2.0)])],
      ['c', card('c', [sel('home', 1.7)])],
    ]);
    const fair = fairFromCards({ cards, market: 'h2h', selection: 'ref-home-1.8' });
    expect(fair).toMatchObject({ kind: 'fair', books: ['a', 'b'] });
    if (fair.kind === 'fair') expect(fair.probability).toBeCloseTo(0.5131578947, 9);
  });

  it('groups a totals market by its line, so Over/Under 2.5 is one market and 3.5 another', () => {
    const totals = [
      sel('over-2.5', 1.9, { line: 2.5 }),
      sel('under-2.5', 1.9, { line: 2.5 }),
      sel('over-3.5', 3.0, { line: 3.5 }),
    ];
    const cards = new Map([['a', card('a', totals, 'totals')]]);
    expect(fairFromCards({ cards, market: 'totals', selection: 'over-2.5' })).toMatchObject({
      kind: 'fair',
      probability: 0.5,
    });
    expect(fairFromCards({ cards, market: 'totals', selection: 'over-3.5' })).toMatchObject({
      kind: 'no_complete_market',
    });
  });

  it('a selection priced at no book has no complete market', () => {
    const cards = new Map([['a', card('a', [sel('home', null), sel('away', 1.9)])]]);
    expect(fairFromCards({ cards, market: 'h2h', selection: 'home' }).kind).toBe('no_complete_market');
  });
});

describe('fair prices of a whole card', () => {
  it('gives every selection the price the one-selection reading gives', () => {
    const cards = new Map([
      ['a', card('a', [sel('home', 1.9), sel('draw', 3.4), sel('away', 4.1)])],
      ['b', card('b', [sel('home', 1.8), sel('draw', 3.6), sel('away', 4.4)])],
      ['c', card('c', [sel('home', 1.95), sel('away', 4.0)])],
    ]);
    const all = fairPricesOfCard(cards, 'a', 'shin');
    for (const s of ['home', 'draw', 'away']) {
      const one = fairFromCards({ cards, market: 'h2h', selection: s, method: 'shin' });
      expect(all.get(`ref-${s}-${cards.get('a')?.markets[0]?.selections.find((x) => x.slug === s)?.odds}`)).toEqual(
        one,
      );
    }
  });
});
