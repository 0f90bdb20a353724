import { describe, expect, it } from 'vitest';
import { maxDrawdown, pnl } from '../../../../src/bot/analytics/pnl.js';
import { bet } from './facts.js';

/** n bets staking `stake` cents to win 10,000 cents, `wins` of them won. */
function toWin100(n: number, wins: number, stakeCents: number) {
  const odds = (stakeCents + 10_000) / stakeCents;
  return Array.from({ length: n }, (_, i) =>
    i < wins
      ? bet({ stakeCents, oddsTaken: odds, status: 'won', returnCents: stakeCents + 10_000 })
      : bet({ stakeCents, oddsTaken: odds, status: 'lost', returnCents: 0 }),
  );
}

describe('profit, turnover, yield and strike rate', () => {
  // Issue 14 (the usual line-shopping example): 1,000 bets to win $100 at a 53 % strike rate make $1,300
  // at −110 and $2,710 at −107.
  it('makes $1,300 on 1,000 bets at −110 winning 53 % (line-shopping example)', () => {
    const s = pnl(toWin100(1000, 530, 11_000));
    expect(s.profitCents).toBe(130_000);
    expect(s.turnoverCents).toBe(11_000_000);
    expect(s.strikeRate).toBeCloseTo(0.53, 12);
  });

  it('makes $2,710 on the same bets at −107', () => {
    expect(pnl(toWin100(1000, 530, 10_700)).profitCents).toBe(271_000);
  });

  it('gives yield as profit over turnover: $1,300 on $110,000 is 1.18 %', () => {
    expect(pnl(toWin100(1000, 530, 11_000)).yield).toBeCloseTo(130_000 / 11_000_000, 12);
  });

  it('gives ROI on bank as profit over the bank, and units over the unit size', () => {
    const s = pnl(toWin100(1000, 530, 11_000), { bankCents: 1_000_000, unitCents: 10_000 });
    expect(s.roiOnBank).toBeCloseTo(0.13, 12);
    expect(s.units).toEqual({ turnover: 1100, profit: 13, maxDrawdown: s.maxDrawdownCents / 10_000 });
  });

  it('keeps money in whole cents', () => {
    const s = pnl([
      bet({ stakeCents: 333, oddsTaken: 1.91, status: 'won', returnCents: 636 }),
      bet({ stakeCents: 1001, status: 'lost', returnCents: 0 }),
    ]);
    expect(s.profitCents).toBe(636 - 333 - 1001);
    expect(Number.isInteger(s.profitCents) && Number.isInteger(s.turnoverCents)).toBe(true);
  });
});

describe('void, cashed-out, open and unknown bets', () => {
  const mixed = [
    bet({ stakeCents: 1000, status: 'won', returnCents: 2000 }),
    bet({ stakeCents: 1000, status: 'lost', returnCents: 0 }),
    bet({ stakeCents: 5000, status: 'void', returnCents: 5000 }),
    bet({ stakeCents: 1000, status: 'cashed_out', returnCents: 1400 }),
    bet({ stakeCents: 700, status: 'open' }),
    bet({ stakeCents: 900, status: 'lost', returnCents: null }),
  ];

  it('leaves a void out of turnover, profit and strike rate, and counts it', () => {
    const s = pnl(mixed);
    expect(s.voided).toBe(1);
    expect(s.turnoverCents).toBe(3000);
    expect(s.profitCents).toBe(1000 - 1000 + 400);
  });

  it('counts a cash-out’s money but not in the strike rate (neither won nor lost)', () => {
    const s = pnl(mixed);
    expect(s.cashedOut).toBe(1);
    // One won of three decided by the result (the lost bet of unknown return is still lost).
    expect(s.strikeRate).toBeCloseTo(1 / 3, 12);
  });

  it('counts open bets and settled bets of unknown return without guessing their money', () => {
    const s = pnl(mixed);
    expect(s.open).toBe(1);
    expect(s.unknownReturn).toBe(1);
    expect(s.bets).toBe(6);
  });

  it('has no yield or strike rate when nothing was settled', () => {
    const s = pnl([bet({ status: 'open' })]);
    expect(s.yield).toBeNull();
    expect(s.strikeRate).toBeNull();
  });
});

describe('max drawdown', () => {
  // captaincalculator.com/financial/finance/maximum-drawdown: peak $75,000, trough $50,000 → 33.3 %.
  it('is 33.3 % of a $50,000 bank that rose to $75,000 and fell back (Captain Calculator example)', () => {
    const s = pnl(
      [
        bet({ settledAt: 1, stakeCents: 2_500_000, status: 'won', returnCents: 5_000_000 }),
        bet({ settledAt: 2, stakeCents: 2_500_000, status: 'lost', returnCents: 0 }),
      ],
      { bankCents: 5_000_000 },
    );
    expect(s.maxDrawdownCents).toBe(2_500_000);
    expect(s.maxDrawdownOfBank).toBeCloseTo(1 / 3, 12);
  });

  it('measures from the running peak, not the start: +5, −3, +1, −6 falls 8 from 5', () => {
    expect(maxDrawdown([5, -3, 1, -6])).toEqual({ drawdown: 8, peak: 5 });
  });

  it('counts losses from the very start (the start is a peak of 0)', () => {
    expect(maxDrawdown([-4, 2, -1])).toEqual({ drawdown: 4, peak: 0 });
  });

  it('orders by settlement time, not by placement', () => {
    const early = bet({ placedAt: 1, settledAt: 20, stakeCents: 1000, status: 'won', returnCents: 2000 });
    const late = bet({ placedAt: 2, settledAt: 10, stakeCents: 1000, status: 'lost', returnCents: 0 });
    expect(pnl([early, late]).maxDrawdownCents).toBe(1000);
  });
});
