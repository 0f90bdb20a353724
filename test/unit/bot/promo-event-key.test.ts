import { describe, expect, it } from 'vitest';
import { promoEventKey } from '../../../src/bot/betting/slip-kinds.js';

describe('promoEventKey (the cap scope of a promo stake)', () => {
  it("is the promo's event key when it names one", () => {
    expect(promoEventKey({ promo_id: 7, bookie: 'bookie_a', epk: 'soccer/x/y/2026-11-22' })).toBe(
      'soccer/x/y/2026-11-22',
    );
  });

  it('is the race key racing slips use, for a racing promo naming its race', () => {
    const promo = {
      promo_id: 8,
      bookie: 'bookie_a',
      kind: 'racing' as const,
      track: 'Flemington',
      race_num: 3,
      race_type: '(R)',
      date: '2026-11-22',
    };
    expect(promoEventKey(promo)).toBe('racing:Flemington/3/(R)/2026-11-22');
  });

  it('is a scope of its own for two promos without an event, so they never share a cap', () => {
    const a = promoEventKey({ promo_id: 1, bookie: 'bookie_a', kind: 'sports' });
    const b = promoEventKey({ promo_id: 2, bookie: 'bookie_a', kind: 'sports' });
    expect(a).not.toBe(b);
    expect(a).not.toBe('');
  });
});
