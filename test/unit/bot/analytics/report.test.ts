import { describe, expect, it } from 'vitest';
import { clvSummary, expectedProfitCents } from '../../../../src/bot/analytics/clv-summary.js';
import { leaderboard } from '../../../../src/bot/analytics/leaderboard.js';
import { report, reportBy } from '../../../../src/bot/analytics/report.js';
import { profitCurve, thinCurve } from '../../../../src/bot/analytics/series.js';
import { bet } from './facts.js';

describe('CLV over a set of bets', () => {
  it('counts bets without a close in the capture rate instead of dropping them', () => {
    const s = clvSummary([
      bet({ status: 'won', returnCents: 2000, closeOdds: 1.9 }),
      bet({ status: 'lost', returnCents: 0, closeOdds: null }),
      bet({ status: 'lost', returnCents: 0, closeOdds: 2.1 }),
      bet({ status: 'lost', returnCents: 0, closeOdds: null }),
    ]);
    expect(s.bets).toBe(4);
    expect(s.withoutClose).toBe(2);
    expect(s.captureRate).toBe(0.5);
  });

  it('leaves void bets out of CLV and capture', () => {
    const s = clvSummary([bet({ status: 'void', returnCents: 1000, closeOdds: 1.5 }), bet({ closeOdds: 1.9 })]);
    expect(s.bets).toBe(1);
    expect(s.withClose).toBe(1);
    expect(s.captureRate).toBeNull();
  });

  it('gives mean CLV, beat-close rate and summed log CLV of bets with a close', () => {
    const s = clvSummary([bet({ oddsTaken: 2.1, closeOdds: 2.0 }), bet({ oddsTaken: 1.9, closeOdds: 2.0 })]);
    expect(s.meanClv).toBeCloseTo((0.05 - 0.05) / 2, 12);
    expect(s.beatCloseRate).toBe(0.5);
    expect(s.sumLogClv).toBeCloseTo(Math.log(1.05) + Math.log(0.95), 12);
  });

  it('weights CLV by stake when asked for the stake-weighted figure', () => {
    const s = clvSummary([
      bet({ stakeCents: 3000, oddsTaken: 2.2, closeOdds: 2.0 }),
      bet({ stakeCents: 1000, oddsTaken: 2.0, closeOdds: 2.0 }),
    ]);
    expect(s.stakeWeightedClv).toBeCloseTo((3000 * 0.1) / 4000, 12);
  });

  it('takes EV only from complete markets and counts the others', () => {
    const s = clvSummary([
      bet({ oddsTaken: 2.1, closeOdds: 2, closeMarket: { prices: [2, 2], complete: true } }),
      bet({ oddsTaken: 2.1, closeOdds: 2, closeMarket: { prices: [2, 4], complete: false } }),
    ]);
    expect(s.evBets).toBe(1);
    expect(s.noEv).toBe(1);
    expect(s.meanEv).toBeCloseTo(0.05, 12);
  });

  it('expects stake × EV from a complete close, stake × price CLV from an incomplete one, 0 with none', () => {
    expect(
      expectedProfitCents(
        bet({ stakeCents: 1000, oddsTaken: 2.1, closeOdds: 2, closeMarket: { prices: [2, 2], complete: true } }),
      ),
    ).toBe(50);
    expect(expectedProfitCents(bet({ stakeCents: 1000, oddsTaken: 2.2, closeOdds: 2, closeMarket: null }))).toBe(100);
    expect(expectedProfitCents(bet({ stakeCents: 1000, oddsTaken: 2.2, closeOdds: null }))).toBe(0);
  });
});

describe('grouping', () => {
  const facts = [
    bet({ member: 'ann', book: 'bookie_a', status: 'won', returnCents: 2000 }),
    bet({ member: 'bob', book: 'bookie_b', status: 'lost', returnCents: 0 }),
    bet({ member: 'ann', book: 'bookie_b', status: 'lost', returnCents: 0 }),
  ];

  it('reports per member, each with its own P&L', () => {
    const rows = reportBy(facts, 'member');
    expect(rows.map((r) => [r.key, r.pnl.profitCents])).toEqual([
      ['ann', 0],
      ['bob', -1000],
    ]);
  });

  it('reports per book and the groups add up to the whole', () => {
    const rows = reportBy(facts, 'book');
    expect(rows.reduce((s, r) => s + r.pnl.profitCents, 0)).toBe(report(facts).pnl.profitCents);
  });

  it('puts a bet in the calendar day of the zone asked for', () => {
    const late = bet({ placedAt: Date.UTC(2026, 8, 1, 23, 30) });
    expect(reportBy([late], 'day', { zone: 'UTC' })[0]?.key).toBe('2026-09-01');
    expect(reportBy([late], 'day', { zone: 'Australia/Sydney' })[0]?.key).toBe('2026-09-02');
  });

  it('keys weeks by their Monday and months by YYYY-MM', () => {
    const thu = bet({ placedAt: Date.UTC(2026, 8, 3, 12) });
    expect(reportBy([thu], 'week')[0]?.key).toBe('2026-08-31');
    expect(reportBy([thu], 'month')[0]?.key).toBe('2026-09');
  });
});

describe('profit curve for the chart', () => {
  it('runs cumulative profit, expected profit and drawdown bet by bet', () => {
    const curve = profitCurve([
      bet({ settledAt: 1, stakeCents: 1000, status: 'won', returnCents: 2000, oddsTaken: 2.2, closeOdds: 2 }),
      bet({ settledAt: 2, stakeCents: 1000, status: 'lost', returnCents: 0, oddsTaken: 2, closeOdds: 2 }),
    ]);
    expect(curve.map((p) => [p.profitCents, p.expectedCents, p.drawdownCents])).toEqual([
      [1000, 100, 0],
      [0, 100, 1000],
    ]);
  });

  it('thins a long curve to the limit and keeps the deepest drawdown and the last point', () => {
    const points = Array.from({ length: 10_000 }, (_, i) => ({
      n: i + 1,
      at: i,
      profitCents: i,
      expectedCents: 0,
      drawdownCents: i === 4321 ? 99_999 : 0,
    }));
    const thin = thinCurve(points, 500);
    expect(thin.length).toBeLessThanOrEqual(501);
    expect(thin.some((p) => p.drawdownCents === 99_999)).toBe(true);
    expect(thin[thin.length - 1]?.n).toBe(10_000);
  });
});

describe('leaderboard', () => {
  const many = (member: string, n: number, taken: number) =>
    Array.from({ length: n }, () => bet({ member, oddsTaken: taken, closeOdds: 2 }));

  it('ranks by CLV, not by profit', () => {
    const facts = [
      ...many('sharp', 5, 2.2),
      ...many('lucky', 5, 1.9).map((b) => ({ ...b, status: 'won' as const, returnCents: 1900 })),
    ];
    expect(leaderboard(facts, 5).ranked.map((r) => r.member)).toEqual(['sharp', 'lucky']);
  });

  it('leaves out members under the minimum number of bets with a close, and lists them', () => {
    const b = leaderboard([...many('ann', 5, 2.1), ...many('new', 2, 3)], 5);
    expect(b.ranked.map((r) => r.member)).toEqual(['ann']);
    expect(b.tooFew).toEqual([{ member: 'new', withClose: 2 }]);
  });
});
