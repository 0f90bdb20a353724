import { describe, expect, it } from 'vitest';
import { devigMultiplicative, evAgainstClose, logClv, overround, priceClv } from '../../../../src/bot/analytics/clv.js';

/** American odds to decimal, as the public examples quote them. */
const dec = (us: number) => (us > 0 ? 1 + us / 100 : 1 + 100 / -us);

describe('price-vs-price CLV (odds_taken / odds_close − 1)', () => {
  // calculator.academy/closing-line-value-calculator: bet at +150 (2.50), closed at +130 (2.30).
  it('is +8.7 % for a bet at +150 that closed at +130 (calculator.academy example)', () => {
    expect(priceClv(dec(150), dec(130))).toBeCloseTo(2.5 / 2.3 - 1, 12);
    expect(priceClv(2.5, 2.3)).toBeCloseTo(0.0869565, 6);
  });

  it('tells the same story as that page’s 3.48-point gap in implied probability', () => {
    // 1/2.30 − 1/2.50 = 0.0348 (their figure); price CLV is that gap over the taken price's probability.
    const gap = 1 / 2.3 - 1 / 2.5;
    expect(gap).toBeCloseTo(0.0348, 4);
    expect(priceClv(2.5, 2.3)).toBeCloseTo(gap / (1 / 2.5), 12);
  });

  it('is negative when the price closed longer than it was taken', () => {
    expect(priceClv(2.0, 2.1)).toBeCloseTo(-0.047619, 6);
  });
});

describe('log CLV (ln(odds_taken / odds_close))', () => {
  it('is ln 1.05 ≈ 0.0488 for 2.10 taken against a 2.00 close', () => {
    expect(logClv(2.1, 2.0)).toBeCloseTo(Math.log(1.05), 12);
    expect(logClv(2.1, 2.0)).toBeCloseTo(0.04879, 5);
  });

  it('adds up: beating 2.00 by 2.10 then 2.10 by 2.205 is the same as 2.205 against 2.00', () => {
    expect(logClv(2.1, 2.0) + logClv(2.205, 2.1)).toBeCloseTo(logClv(2.205, 2.0), 12);
  });
});

describe('overround and multiplicative de-vig', () => {
  // gamblingguidance.com/horseracing/bookmakers-overround.html: 1.75, 2.30, 10.80 make a 109.88 % book.
  it('sums 1.75 / 2.30 / 10.80 to a 109.88 % book (gamblingguidance example)', () => {
    expect(overround([1.75, 2.3, 10.8]) * 100).toBeCloseTo(109.88, 2);
  });

  // forum.betangel.com t=24173: three runners at evens is a 150 % book; removing it gives 3.0 each.
  it('turns three runners at evens (150 %) into fair odds of 3.0 each (Bet Angel forum example)', () => {
    const fair = devigMultiplicative([2, 2, 2]);
    expect(overround([2, 2, 2])).toBeCloseTo(1.5, 12);
    for (const p of fair) expect(1 / p).toBeCloseTo(3, 12);
  });

  it('gives fair probabilities that sum to exactly one and keep the prices’ proportions', () => {
    const fair = devigMultiplicative([1.75, 2.3, 10.8]);
    expect(fair.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
    expect((fair[0] as number) / (fair[1] as number)).toBeCloseTo(2.3 / 1.75, 12);
  });

  // sportsbookreview.com forum (season win totals): −105 / −125 is an overround of about 1.067751, 6.35 % vig.
  it('reads −105 / −125 as a 1.067751 book with 6.35 % vig (Sportsbook Review example)', () => {
    const book = overround([dec(-105), dec(-125)]);
    expect(book).toBeCloseTo(1.067751, 6);
    expect(1 - 1 / book).toBeCloseTo(0.0635, 4);
  });
});

describe('EV against the no-vig close', () => {
  // underdogchance.com "How to calculate closing line value": margin D = 1/B + 1/C, fair close E = 1/((1/B)/D),
  // no-vig CLV = A/E − 1. Here B and C are the −125 / −105 close above and the bet was taken at 2.00.
  it('is taken / fair close − 1, the fair close being the multiplicatively de-vigged price (underdogchance)', () => {
    const B = dec(-125);
    const C = dec(-105);
    const D = 1 / B + 1 / C;
    const E = 1 / (1 / B / D);
    const r = evAgainstClose(2, B, { prices: [B, C], complete: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.fairOdds).toBeCloseTo(E, 12);
    expect(r.ev).toBeCloseTo(2 / E - 1, 12);
    expect(r.ev).toBeCloseTo(0.0406, 4);
  });

  it('on a fair two-way market at 2.00 / 2.00, a bet at 2.10 is worth +5 %', () => {
    const r = evAgainstClose(2.1, 2, { prices: [2, 2], complete: true });
    expect(r.ok && r.ev).toBeCloseTo(0.05, 12);
  });

  it('is left out, saying so, when the market is not complete', () => {
    expect(evAgainstClose(2.1, 2, { prices: [2, 3.5], complete: false })).toEqual({
      ok: false,
      reason: 'incomplete_market',
    });
  });

  it('counts a market whose prices add to under 100 % as incomplete (an outcome must be missing)', () => {
    expect(evAgainstClose(2.1, 2.5, { prices: [2.5, 3.0], complete: true })).toEqual({
      ok: false,
      reason: 'incomplete_market',
    });
  });

  it('is left out when there was no close at all', () => {
    expect(evAgainstClose(2.1, null, null)).toEqual({ ok: false, reason: 'no_close' });
  });

  it('refuses a market that does not hold the bet’s own close price', () => {
    expect(evAgainstClose(2.1, 2.05, { prices: [1.9, 1.9], complete: true })).toEqual({
      ok: false,
      reason: 'not_in_market',
    });
  });
});
