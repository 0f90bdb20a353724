import { describe, expect, it } from 'vitest';
import {
  type CashoutAsk,
  type DealIn,
  type DealOut,
  type FeeTerms,
  feeAt,
  navOf,
  PRICE_SCALE,
  priceOf,
  shares,
  strike,
  UNIT_SCALE,
} from '../../../../src/bot/model/fund.js';
import { createRng, type Rng } from '../../../chaos/rng.js';

/**
 * Generated sequences of contributions, bets, settlements, strikes, cash-outs, withdrawals, payments and fees
 * over a simulated fund (seeded, so a failure names its seed and repeats).
 */
interface World {
  cash: number;
  bonus: number;
  open: Array<{ stake: number }>;
  withdrawnUnpaid: number;
  owed: Array<{ cents: number; withdrawn: boolean; fee?: boolean }>;
  /** The performance fee accrued at the last strike (a liability until it crystallises). */
  fees: number;
  pendingIn: DealIn[];
  pendingOut: DealOut[];
  holdings: Map<string, number>;
  units: number;
  fee: FeeTerms;
  // Money that crossed the fund's edge, and what betting made.
  contributed: number;
  paidOut: number;
  feesPaid: number;
  betPnl: number;
}

const MEMBERS = ['ann', 'bob', 'cat', 'dan', 'eve'];

/** Runs one sequence; returns how many strikes dealt and how many charged a fee (so the test knows it covered them). */
function run(seed: number, steps: number): { dealt: number; fees: number } {
  const seen = { dealt: 0, fees: 0 };
  const rng: Rng = createRng(seed);
  const w: World = {
    cash: 0,
    bonus: rng.int(0, 3_000),
    open: [],
    withdrawnUnpaid: 0,
    owed: [],
    fees: 0,
    pendingIn: [],
    pendingOut: [],
    holdings: new Map(),
    units: 0,
    fee: { rateBps: rng.pick([0, 0, 1_000, 2_000]), highWaterPrice: 0 },
    contributed: 0,
    paidOut: 0,
    feesPaid: 0,
    betPnl: 0,
  };
  let n = 0;
  const assets = () => w.cash + w.open.reduce((a, b) => a + b.stake, 0) + w.withdrawnUnpaid;
  const owedTotal = () => w.owed.reduce((a, o) => a + o.cents, 0);
  const pendingTotal = () => w.pendingIn.reduce((a, c) => a + c.cents, 0);
  const navNow = () =>
    navOf({
      sessions: [{ sessionId: 's', balanceCents: w.cash + w.bonus, bonusCents: w.bonus }],
      openStakeCents: w.open.reduce((a, b) => a + b.stake, 0),
      withdrawnUnpaidCents: w.withdrawnUnpaid,
      owedRedemptionsCents: owedTotal(),
      pendingContributionsCents: pendingTotal(),
    });
  for (let step = 0; step < steps; step++) {
    const op = rng.pick([
      'contribute',
      'contribute',
      'bet',
      'bet',
      'settle',
      'settle',
      'strike',
      'cashout',
      'withdraw',
      'pay',
    ]);
    const where = `seed ${seed}, step ${step} (${op})`;
    if (op === 'contribute') {
      const cents = rng.int(1, 50_000);
      w.cash += cents;
      w.contributed += cents;
      w.pendingIn.push({ id: `c${n++}`, memberId: rng.pick(MEMBERS), cents });
    } else if (op === 'bet' && w.cash > 0) {
      const stake = rng.int(1, Math.min(w.cash, 20_000));
      w.cash -= stake;
      w.open.push({ stake });
    } else if (op === 'settle' && w.open.length > 0) {
      const [bet] = w.open.splice(rng.int(0, w.open.length - 1), 1);
      const stake = (bet as { stake: number }).stake;
      const outcome = rng.pick(['won', 'lost', 'void']);
      const credit =
        outcome === 'won' ? Math.round(stake * (1 + rng.int(1, 400) / 100)) : outcome === 'void' ? stake : 0;
      w.cash += credit;
      w.betPnl += credit - stake;
    } else if (op === 'cashout') {
      const holders = [...w.holdings].filter(([, u]) => u > 0);
      if (holders.length > 0) {
        const [memberId, units] = rng.pick(holders);
        const ask: CashoutAsk = rng.pick<CashoutAsk>([
          { kind: 'all' },
          { kind: 'units', units: rng.int(1, units) },
          { kind: 'amount', cents: rng.int(1, 30_000) },
        ]);
        w.pendingOut.push({ id: `o${n++}`, memberId, ask });
      }
    } else if (op === 'withdraw') {
      const o = w.owed.find((x) => !x.withdrawn && x.cents <= w.cash);
      if (o) {
        w.cash -= o.cents;
        w.withdrawnUnpaid += o.cents;
        o.withdrawn = true;
      }
    } else if (op === 'pay') {
      const i = w.owed.findIndex((x) => x.withdrawn);
      if (i >= 0) {
        const o = w.owed.splice(i, 1)[0] as { cents: number; fee?: boolean };
        w.withdrawnUnpaid -= o.cents;
        if (o.fee) w.feesPaid += o.cents;
        else w.paidOut += o.cents;
      }
    } else if (op === 'strike') {
      const nav = navNow();
      const before = { navCents: nav.navCents, units: w.units };
      const r = strike({
        nav,
        units: w.units,
        holdings: w.holdings,
        contributions: w.pendingIn,
        cashouts: w.pendingOut,
        fee: w.fee,
        openingPriceCents: 100,
        crystallise: rng.int(1, 4) === 1,
      });
      // A fee is charged only on a price above the mark, and never more than its rate of the gain.
      if (r.feeCents > 0) {
        seen.fees++;
        const gainCents = nav.navCents - Math.ceil((w.fee.highWaterPrice / PRICE_SCALE) * (w.units / UNIT_SCALE));
        expect(r.feeCents, where).toBeLessThanOrEqual(Math.ceil((gainCents * w.fee.rateBps) / 10_000));
      }
      // What crystallises is owed to the manager, the rest stays accrued; together, the strike's accrual.
      expect(r.crystallisedCents + r.accruedAfterCents, where).toBe(r.feeCents);
      if (r.crystallisedCents > 0) w.owed.push({ cents: r.crystallisedCents, withdrawn: false, fee: true });
      w.fees = r.accruedAfterCents;
      w.fee = { ...w.fee, highWaterPrice: r.highWaterPrice };
      // Dealing does not move the accrual: worked out again on the book after the strike, it is what stays accrued
      // (less at most a cent or two: the averaged mark rounds up).
      if (!r.held && r.unitsAfter > 0 && r.accruedAfterCents > 0) {
        const again = feeAt({ navCents: r.navAfterCents + r.accruedAfterCents, units: r.unitsAfter }, w.fee);
        expect(again, where).toBeLessThanOrEqual(r.accruedAfterCents);
        expect(again, where).toBeGreaterThanOrEqual(r.accruedAfterCents - 2);
      }
      if (!r.held) {
        const inCents = r.issued.reduce((a, d) => a + d.cents, 0);
        const outCents = r.redeemed.reduce((a, d) => a + d.cents, 0);
        // Dealing moves NAV by exactly the money dealt.
        expect(r.navAfterCents, where).toBe(r.navCents + inCents - outCents);
        // Rounding favours the fund: no contribution buys more than it paid for, no redemption pays more than
        // its units are worth at the strike's price.
        if (r.unitsBefore > 0) {
          for (const d of r.issued)
            expect(BigInt(d.units) * BigInt(r.navCents), where).toBeLessThanOrEqual(
              BigInt(d.cents) * BigInt(r.unitsBefore),
            );
          for (const d of r.redeemed)
            expect(BigInt(d.cents) * BigInt(r.unitsBefore), where).toBeLessThanOrEqual(
              BigInt(d.units) * BigInt(r.navCents),
            );
          // …and the price per unit after dealing is never below the strike's price.
          if (r.unitsAfter > 0)
            expect(priceOf({ navCents: r.navAfterCents, units: r.unitsAfter }, 100), where).toBeGreaterThanOrEqual(
              r.price,
            );
        }
        for (const d of r.redeemed) w.owed.push({ cents: d.cents, withdrawn: false });
        if (r.issued.length + r.redeemed.length > 0) seen.dealt++;
        w.pendingIn = [];
        w.pendingOut = [];
        w.holdings = new Map([...r.holdings].filter(([, u]) => u > 0));
        w.units = r.unitsAfter;
        expect(
          [...w.holdings.values()].reduce((a, u) => a + u, 0),
          where,
        ).toBe(w.units);
        // NAV after dealing, read again from the world (less the fee still accrued), is the strike's NAV after dealing.
        expect(navNow().navCents - w.fees, where).toBe(r.navAfterCents);
      }
      expect(before.units, where).toBe(r.unitsBefore);
      // The sum of members' values equals NAV at the strike, to the cent.
      const book = { navCents: r.held ? r.navCents : r.navAfterCents, units: w.units };
      const s = shares(
        [...w.holdings].map(([memberId, units]) => ({ memberId, units })),
        book,
      );
      if (w.units > 0) {
        expect(
          s.shares.reduce((a, x) => a + x.cents, 0),
          where,
        ).toBe(book.navCents);
        expect(s.residualCents, where).toBeLessThan(Math.max(1, w.holdings.size));
      }
    }
    // No sequence creates or destroys money: what the fund holds is what came in, plus what betting made, less
    // what went out; and it is owned by members (NAV), the manager (fees), or those owed or awaiting dealing.
    expect(assets(), where).toBe(w.contributed + w.betPnl - w.paidOut - w.feesPaid);
    expect(navNow().navCents + owedTotal() + pendingTotal(), where).toBe(assets());
  }
  return seen;
}

describe('fund conservation over generated sequences', () => {
  it("keeps members' values summing to NAV at every strike and money neither made nor lost, over 300 sequences", () => {
    const seen = { dealt: 0, fees: 0 };
    for (let seed = 1; seed <= 300; seed++) {
      const r = run(seed, 120);
      seen.dealt += r.dealt;
      seen.fees += r.fees;
    }
    // The sequences reached what they are meant to test: many dealing strikes, some charging a fee.
    expect(seen.dealt).toBeGreaterThan(1_000);
    expect(seen.fees).toBeGreaterThan(50);
  });
});
