import { describe, expect, it } from 'vitest';
import { incompleteBeta, meanInterval, tCdf, tQuantile } from '../../../../src/bot/analytics/interval.js';
import { leaderboard } from '../../../../src/bot/analytics/leaderboard.js';
import { clvSample, skillOf } from '../../../../src/bot/analytics/skill.js';
import { skillText } from '../../../../src/bot/analytics/views/stats.js';
import { bet } from './facts.js';

/** Bets whose price CLV against a close of 2.00 is each of `clvs`. */
const withClv = (member: string, clvs: number[]) =>
  clvs.map((c) => bet({ member, oddsTaken: 2 * (1 + c), closeOdds: 2 }));

describe('Student t quantiles against printed tables', () => {
  it.each([
    [1, 12.7062],
    [2, 4.3027],
    [9, 2.2622],
    [29, 2.0452],
    [100, 1.984],
  ])('t(0.975, %i) = %f', (df, table) => {
    expect(tQuantile(0.975, df)).toBeCloseTo(table, 3);
  });

  it('is symmetric about zero', () => {
    expect(tQuantile(0.025, 9)).toBeCloseTo(-tQuantile(0.975, 9), 10);
  });

  it('inverts the CDF', () => {
    expect(tCdf(tQuantile(0.9, 7), 7)).toBeCloseTo(0.9, 10);
  });

  it('the incomplete beta at its closed forms: I_x(1, 1) = x and I_x(a, 1) = x^a', () => {
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
    expect(incompleteBeta(0.6, 3, 1)).toBeCloseTo(0.216, 12);
  });
});

describe('mean interval', () => {
  it('gives no interval for 0 or 1 values', () => {
    expect(meanInterval([])).toBeNull();
    expect(meanInterval([0.02])).toBeNull();
  });

  it('for 2 values uses t with 1 degree of freedom (hand-computed: mean 0.01, ±0.5082)', () => {
    const i = meanInterval([0.05, -0.03]);
    expect(i?.mean).toBeCloseTo(0.01, 12);
    expect(i?.low).toBeCloseTo(-0.4982, 4);
    expect(i?.high).toBeCloseTo(0.5182, 4);
  });

  it('collapses to the mean when every value is equal', () => {
    const i = meanInterval([0.03, 0.03, 0.03, 0.03]);
    expect(i).toMatchObject({ sd: 0 });
    expect(i?.low).toBeCloseTo(0.03, 15);
    expect(i?.high).toBeCloseTo(0.03, 15);
  });

  it('matches a hand-computed data set to four decimals (n 10, mean 0.0172, sd 0.018949, t 2.262157)', () => {
    const i = meanInterval([0.031, -0.012, 0.045, 0.008, 0.022, -0.005, 0.017, 0.039, 0.001, 0.026]);
    expect(i?.sd).toBeCloseTo(0.018949, 6);
    expect(i?.low).toBeCloseTo(0.0036, 4);
    expect(i?.high).toBeCloseTo(0.0308, 4);
  });
});

describe('skill verdict', () => {
  it('says too few to tell under the minimum, counting only bets with a close', () => {
    const facts = [...withClv('a', [0.02, 0.03, 0.01]), bet({ member: 'a', closeOdds: null })];
    const s = skillOf(facts, 100);
    expect(s.verdict).toEqual({ kind: 'too-few', have: 3, need: 100 });
    expect(skillText(s)).toBe('too few bets to tell: 3 of the 100 needed (bets with a close)');
  });

  it('leaves voids out of the sample', () => {
    expect(
      clvSample([bet({ status: 'void', returnCents: 1000, closeOdds: 1.9 }), bet({ closeOdds: 1.9 })]),
    ).toHaveLength(1);
  });

  it('beats the close when the whole interval is above zero', () => {
    const s = skillOf(withClv('a', [0.031, -0.012, 0.045, 0.008, 0.022, -0.005, 0.017, 0.039, 0.001, 0.026]), 10);
    expect(s.verdict.kind).toBe('beats-close');
    expect(skillText(s)).toBe('beats the close: 95 % interval +0.36% to +3.08% (10 bets)');
  });

  it('is behind the close when the whole interval is below zero', () => {
    expect(skillOf(withClv('a', [-0.02, -0.03, -0.025, -0.02]), 4).verdict.kind).toBe('behind-close');
  });

  it('has no clear edge when the interval spans zero', () => {
    expect(skillOf(withClv('a', [0.05, -0.04, 0.03, -0.02]), 4).verdict.kind).toBe('unclear');
  });
});

describe('leaderboard by the interval', () => {
  it('puts a steady edge above a short lucky run with the higher mean', () => {
    const steady = withClv(
      'steady',
      Array.from({ length: 40 }, (_, i) => 0.02 + (i % 2 ? 0.002 : -0.002)),
    );
    const lucky = withClv(
      'lucky',
      Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 0.3 : -0.05)),
    );
    const board = leaderboard([...steady, ...lucky], 30);
    expect(board.ranked.map((r) => r.member)).toEqual(['steady', 'lucky']);
    expect((board.ranked[1]?.clv.meanClv ?? 0) > (board.ranked[0]?.clv.meanClv ?? 0)).toBe(true);
  });

  it('needs at least two bets with a close to rank anyone, whatever minimum is asked', () => {
    const board = leaderboard(withClv('one', [0.5]), 1);
    expect(board.ranked).toEqual([]);
    expect(board.tooFew).toEqual([{ member: 'one', withClose: 1 }]);
  });
});
