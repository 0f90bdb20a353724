import { describe, expect, it } from 'vitest';
import { kellyShare, suggestedStakeCents } from '../../../../src/bot/betting/model/kelly.js';
import { createRng } from '../../../../src/sandbox/core/rng.js';

describe('Kelly share, worked examples', () => {
  it('an even-money bet won 60% of the time stakes 20% of the bank', () => {
    // Thorp (2006), "The Kelly criterion in blackjack, sports betting and the stock market", §2: at even odds
    // f* = p − q; p = 0.6 gives 0.2. In decimal odds 2.0: edge = 0.6·2 − 1 = 0.2, f* = 0.2 / (2 − 1).
    expect(kellyShare(0.6, 2.0)).toBeCloseTo(0.2, 12);
  });

  it('f* = edge / (odds − 1) at longer odds', () => {
    // Kelly (1956) in decimal odds b + 1: f* = (bp − q) / b. p = 0.25 at 5.0 (b = 4): (1 − 0.75) / 4 = 0.0625.
    expect(kellyShare(0.25, 5.0)).toBeCloseTo(0.0625, 12);
  });

  it('is 0 with no edge and with a negative edge', () => {
    expect(kellyShare(0.5, 2.0)).toBe(0);
    expect(kellyShare(0.4, 2.0)).toBe(0);
  });
});

describe('suggested stake', () => {
  it('is a quarter of full Kelly of the bank by default, rounded down to the $1 unit', () => {
    // Full Kelly 0.2 of $1,234.56 = $246.912; a quarter = $61.728; rounded down to whole dollars = $61.
    expect(suggestedStakeCents({ probability: 0.6, odds: 2.0, bankCents: 123_456 })).toBe(6100);
  });

  it('rounds down to the server unit', () => {
    expect(suggestedStakeCents({ probability: 0.6, odds: 2.0, bankCents: 123_456, unitCents: 500 })).toBe(6000);
  });

  it('is never above the lowest cap', () => {
    const s = suggestedStakeCents({ probability: 0.6, odds: 2.0, bankCents: 123_456, capsCents: [20_000, 4_550] });
    expect(s).toBe(4500);
  });

  it('uses the fraction an admin set', () => {
    expect(suggestedStakeCents({ probability: 0.6, odds: 2.0, bankCents: 100_000, fraction: 0.5 })).toBe(10_000);
  });

  it('is 0 with no bank', () => {
    expect(suggestedStakeCents({ probability: 0.6, odds: 2.0, bankCents: 0 })).toBe(0);
  });
});

describe('properties (seeded generator, 2000 draws)', () => {
  it('Kelly is 0 at zero edge and never negative', () => {
    const rng = createRng(22);
    for (let i = 0; i < 2000; i++) {
      const odds = 1.01 + rng() * 20;
      expect(kellyShare(1 / odds, odds)).toBe(0);
      const p = rng();
      expect(kellyShare(p, odds)).toBeGreaterThanOrEqual(0);
      const stake = suggestedStakeCents({ probability: p, odds, bankCents: Math.floor(rng() * 1e7) });
      expect(stake).toBeGreaterThanOrEqual(0);
      expect(stake % 100).toBe(0);
    }
  });
});
