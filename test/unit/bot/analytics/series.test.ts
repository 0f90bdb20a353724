import { describe, expect, it } from 'vitest';
import { type CurvePoint, chartOf } from '../../../../src/bot/analytics/series.js';

const point = (n: number): CurvePoint => ({ n, at: n, profitCents: n * 100, expectedCents: 0, drawdownCents: 0 });

describe('the /stats chart', () => {
  it('is not drawn for one settled bet, and says why instead of showing an empty frame', () => {
    expect(chartOf([point(1)])).toEqual({ draw: false, note: 'One settled bet so far: the chart starts at two.' });
  });

  it('is drawn from two settled bets, and not at all (without a note) for none', () => {
    expect(chartOf([point(1), point(2)])).toEqual({ draw: true });
    expect(chartOf([])).toEqual({ draw: false });
  });
});
