/** The curves a chart draws: cumulative profit, CLV-expected profit and drawdown, bet by bet. */

import { expectedProfitCents } from './clv-summary.js';
import type { BetFact } from './facts.js';
import { bySettlement, moneyBets } from './pnl.js';

export interface CurvePoint {
  /** Bet number along the curve (1 = first settled). */
  n: number;
  at: number;
  profitCents: number;
  expectedCents: number;
  /** Fall below the running peak of profit (0 or positive). */
  drawdownCents: number;
}

export function profitCurve(facts: readonly BetFact[]): CurvePoint[] {
  let profit = 0;
  let expected = 0;
  let peak = 0;
  return moneyBets(facts)
    .sort(bySettlement)
    .map((b, i) => {
      profit += (b.returnCents ?? 0) - b.stakeCents;
      expected += expectedProfitCents(b);
      if (profit > peak) peak = profit;
      return {
        n: i + 1,
        at: b.settledAt ?? b.placedAt,
        profitCents: profit,
        expectedCents: expected,
        drawdownCents: peak - profit,
      };
    });
}

/**
 * At most `max` points for drawing: one per bucket, the bucket's deepest drawdown point, so the worst
 * fall always shows; the last point is always kept.
 */
export function thinCurve(points: readonly CurvePoint[], max: number): CurvePoint[] {
  if (points.length <= max) return [...points];
  const size = Math.ceil(points.length / max);
  const out: CurvePoint[] = [];
  for (let i = 0; i < points.length; i += size) {
    let pick = points[Math.min(i + size, points.length) - 1] as CurvePoint;
    for (let j = i; j < Math.min(i + size, points.length); j++) {
      const p = points[j] as CurvePoint;
      if (p.drawdownCents > pick.drawdownCents) pick = p;
    }
    out.push(pick);
  }
  const last = points[points.length - 1] as CurvePoint;
  if (out[out.length - 1] !== last) out.push(last);
  return out;
}

/**
 * Whether a profit curve is worth drawing: a line needs two settled bets (one point draws an empty frame). The
 * sentence says why no chart came when there is exactly one.
 */
export function chartOf(points: readonly CurvePoint[]): { draw: boolean; note?: string } {
  if (points.length >= 2) return { draw: true };
  return points.length === 1
    ? { draw: false, note: 'One settled bet so far: the chart starts at two.' }
    : { draw: false };
}
