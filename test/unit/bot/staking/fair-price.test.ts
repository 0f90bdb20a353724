import { describe, expect, it } from 'vitest';
import {
  consensusFair,
  edgeOf,
  MARGIN_METHODS,
  type MarginMethod,
  removeMargin,
} from '../../../../src/bot/model/fair-price.js';
import { createRng } from '../../../../src/sandbox/core/rng.js';

const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);

describe('margin removal, worked examples', () => {
  it('multiplicative divides each implied probability by the booksum', () => {
    // Hand computation: 1/2.6 + 1/2.4 + 1/4.3 = 1.0338401908…; (1/2.6) / 1.0338401908 = 0.3720259553.
    const p = removeMargin([2.6, 2.4, 4.3], 'multiplicative');
    expect(p[0]).toBeCloseTo(0.3720259553, 9);
    expect(p[1]).toBeCloseTo(0.4030281182, 9);
    expect(p[2]).toBeCloseTo(0.2249459265, 9);
  });

  it("Shin's method gives the published answer for odds 2.6, 2.4, 4.3", () => {
    // Worked example of the `shin` package (M. Berk, PyPI "shin", README: calculate_implied_probabilities([2.6, 2.4, 4.3])
    // = [0.37299406033208965, 0.4047794109200184, 0.2222265287474275], z = 0.0169…), Shin (1993) as solved by
    // Jullien & Salanié (1994); the same model as method 'shin' of the R package `implied`.
    const p = removeMargin([2.6, 2.4, 4.3], 'shin');
    expect(p[0]).toBeCloseTo(0.37299406033208965, 9);
    expect(p[1]).toBeCloseTo(0.4047794109200184, 9);
    expect(p[2]).toBeCloseTo(0.2222265287474275, 9);
  });

  it('the power method raises each implied probability to one power k that makes them sum to 1', () => {
    // Power (logarithmic) method as in Clarke, Kovalchik & Ingram (2017) "Adjusting bookmaker's odds to allow for
    // overround" and Buchdahl's "Wisdom of the Crowd": p_i = (1/o_i)^k. Checked here against its definition: one k
    // for every outcome (log p_i / log π_i is the same), probabilities summing to 1.
    const odds = [2.6, 2.4, 4.3];
    const p = removeMargin(odds, 'power');
    const ks = p.map((pi, i) => Math.log(pi) / Math.log(1 / (odds[i] as number)));
    expect(Math.max(...ks) - Math.min(...ks)).toBeLessThan(1e-9);
    expect(ks[0]).toBeGreaterThan(1);
    expect(sum(p)).toBeCloseTo(1, 12);
  });

  it('power and Shin take more margin off the longshot than multiplicative does (favourite–longshot bias)', () => {
    const [m, pw, s] = (['multiplicative', 'power', 'shin'] as const).map((k) => removeMargin([1.3, 3.8], k));
    expect(pw?.[1]).toBeLessThan(m?.[1] as number);
    expect(s?.[1]).toBeLessThan(m?.[1] as number);
  });

  it('a market of equal prices is fair at equal probabilities by every method', () => {
    for (const method of MARGIN_METHODS) expect(removeMargin([1.9, 1.9], method)).toEqual([0.5, 0.5]);
  });

  it('refuses a single outcome and prices that are not decimal odds', () => {
    expect(() => removeMargin([2])).toThrow(/at least two/);
    expect(() => removeMargin([2, 1])).toThrow(/not decimal odds/);
  });
});

describe('consensus across books', () => {
  const book = (bookie: string, prices: Record<string, number>) => ({
    bookie,
    prices: new Map(Object.entries(prices)),
  });

  it('averages the fair probabilities of the complete markets with equal weights', () => {
    // Hand computation, multiplicative: book a 1.9/1.9 → 0.5; book b 1.8/2.0 → (1/1.8)/(1/1.8+1/2) = 0.5263157895;
    // mean 0.5131578947, fair odds 1.9487179487.
    const fair = consensusFair({
      markets: [book('a', { home: 1.9, away: 1.9 }), book('b', { home: 1.8, away: 2.0 })],
      outcomes: ['home', 'away'],
      selection: 'home',
    });
    expect(fair).toMatchObject({ kind: 'fair', books: ['a', 'b'], method: 'multiplicative' });
    if (fair.kind !== 'fair') return;
    expect(fair.probability).toBeCloseTo(0.5131578947, 9);
    expect(fair.odds).toBeCloseTo(1.9487179487, 9);
  });

  it('leaves out a book that does not price every outcome', () => {
    const fair = consensusFair({
      markets: [book('a', { home: 1.9, away: 1.9 }), book('b', { home: 1.5 })],
      outcomes: ['home', 'away'],
      selection: 'home',
    });
    expect(fair).toMatchObject({ kind: 'fair', books: ['a'], probability: 0.5 });
  });

  it('answers no complete market when no book prices every outcome', () => {
    const fair = consensusFair({
      markets: [book('a', { home: 1.9 }), book('b', { away: 1.5 })],
      outcomes: ['home', 'away'],
      selection: 'home',
      method: 'shin',
    });
    expect(fair).toEqual({ kind: 'no_complete_market', method: 'shin' });
  });

  it('the edge is the price times the fair probability, less one', () => {
    expect(edgeOf(0.5, 2.05)).toBeCloseTo(0.025, 12);
    expect(edgeOf(0.5, 1.9)).toBeCloseTo(-0.05, 12);
  });
});

describe('properties (seeded generator, 500 random markets per method)', () => {
  it('the fair probabilities of a complete market sum to 1 and lie in (0, 1), for every method', () => {
    const rng = createRng(20261126);
    for (const method of MARGIN_METHODS as MarginMethod[]) {
      for (let i = 0; i < 500; i++) {
        const n = 2 + Math.floor(rng() * 6);
        const raw = Array.from({ length: n }, () => 0.02 + rng());
        const margin = 1 + rng() * 0.15;
        const total = sum(raw);
        const odds = raw.map((r) => Math.max(1.01, total / (r * margin)));
        const p = removeMargin(odds, method);
        expect(Math.abs(sum(p) - 1)).toBeLessThan(1e-9);
        for (const pi of p) expect(pi > 0 && pi < 1).toBe(true);
      }
    }
  });
});
