import { describe, expect, it } from 'vitest';
import { type DealIn, type DealOut, feeAt, navOf, priceOf, strike } from '../../../../src/bot/fund/model/fund.js';
import {
  type AccountRead,
  type BridgeTxn,
  type Named,
  planStrike,
  planWithdrawal,
} from '../../../../src/bot/fund/model/fund-plan.js';
import { createRng } from '../../../chaos/rng.js';

const T0 = Date.UTC(2026, 10, 20, 12);
const none: Named = { bets: new Map(), deposits: new Set(), withdrawals: new Set(), explained: new Set() };
const account = (over: Partial<AccountRead> = {}): AccountRead => ({
  account: 'bookie_c/alpha_c',
  sessionId: 's-c',
  sessionIds: ['s-c'],
  balance: { balanceCents: 69_000, bonusCents: 5_000, retrievedAt: T0 + 60_000 },
  floatCents: 0,
  bridgeFrom: T0,
  history: [],
  ...over,
});
const txn = (over: Partial<BridgeTxn>): BridgeTxn => ({
  id: 't1',
  type: 'deposit',
  status: 'won',
  cents: 10_000,
  placedAt: T0 + 1_000,
  settledAt: T0 + 1_000,
  ...over,
});

describe('planStrike: each account once, its cash bridged since it joined', () => {
  it('values an account through one session, its float kept out, when nothing moved', () => {
    const plan = planStrike({ accounts: [account({ floatCents: 2_500 })], named: none });
    expect(plan).toEqual({
      ok: true,
      sessions: [
        {
          sessionId: 's-c',
          account: 'bookie_c/alpha_c',
          balanceCents: 69_000,
          bonusCents: 5_000,
          floatCents: 2_500,
          retrievedAt: new Date(T0 + 60_000).toISOString(),
        },
      ],
      settledUnread: [],
      bridge: [{ account: 'bookie_c/alpha_c', bets: 0, deposits: 0, withdrawals: 0, explained: 0 }],
    });
  });

  it('refuses a deposit no contribution accounts for, naming the account, the amount and what to do', () => {
    const plan = planStrike({ accounts: [account({ history: [txn({ id: 'dep-9' })] })], named: none });
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.reason).toMatch(
      /^unexplained money on bookie_c\/alpha_c: a deposit no contribution accounts for \(deposit dep-9, \$100\.00, .*\/fund contribute .*\/fund explain transaction:dep-9/,
    );
    // The deposit's time as Discord shows it to each reader, never a raw ISO string.
    expect(!plan.ok && plan.reason).toContain(`$100.00, <t:${Math.floor((T0 + 1_000) / 1000)}:f>)`);
  });

  it('names matched deposits, its own withdrawals, its bets and accepted moves; a failed withdrawal moved nothing', () => {
    const history = [
      txn({ id: 'd1' }),
      txn({ id: 'w1', type: 'withdrawal', status: 'cashed_out', withdrawalStatus: 'completed' }),
      txn({ id: 'w2', type: 'withdrawal', status: 'void', withdrawalStatus: 'failed' }),
      txn({ id: 'b1', type: 'bet', status: 'lost' }),
      txn({ id: 'x1', type: 'deposit' }),
    ];
    const named: Named = {
      bets: new Map([['b1', { open: false }]]),
      deposits: new Set(['d1']),
      withdrawals: new Set(['w1']),
      explained: new Set(['x1']),
    };
    const plan = planStrike({ accounts: [account({ history })], named });
    expect(plan.ok && plan.bridge).toEqual([
      { account: 'bookie_c/alpha_c', bets: 1, deposits: 1, withdrawals: 1, explained: 1 },
    ]);
  });

  it("refuses another server's bet and a withdrawal no cash-out made", () => {
    const bet = planStrike({ accounts: [account({ history: [txn({ id: 'b9', type: 'bet' })] })], named: none });
    expect(!bet.ok && bet.reason).toMatch(/a bet this server did not place \(bet b9/);
    const out = planStrike({
      accounts: [account({ history: [txn({ id: 'w9', type: 'withdrawal', withdrawalStatus: 'completed' })] })],
      named: none,
    });
    expect(!out.ok && out.reason).toMatch(/a withdrawal the fund's cash-outs did not make/);
  });

  it('counts a settled bet the desk still reads as open as settled (its return is in the cash)', () => {
    const named: Named = { ...none, bets: new Map([['b1', { open: true }]]) };
    const history = [txn({ id: 'b1', type: 'bet', status: 'won', settledAt: T0 + 5_000 })];
    const plan = planStrike({ accounts: [account({ history })], named });
    expect(plan.ok && plan.settledUnread).toEqual(['b1']);
  });

  it('refuses a balance refreshed before a move it should hold, and ignores moves before the account joined', () => {
    const late = txn({ id: 'd1', placedAt: T0 + 120_000, settledAt: T0 + 120_000 });
    const stale = planStrike({
      accounts: [account({ history: [late] })],
      named: { ...none, deposits: new Set(['d1']) },
    });
    expect(!stale.ok && stale.reason).toMatch(
      // "at" a time to the second, never "at Today at 18:28" (a <t:…:f> reads "Today at …"; issue 45).
      /was refreshed at <t:\d+:T>, before a move on it at <t:\d+:T>; .*next heartbeat/,
    );
    expect(!stale.ok && stale.reason).toContain(`at <t:${Math.floor((T0 + 120_000) / 1000)}:T>;`);
    const before = txn({ id: 'old', type: 'bet', placedAt: T0 - 5_000, settledAt: T0 - 1_000 });
    expect(planStrike({ accounts: [account({ history: [before] })], named: none }).ok).toBe(true);
  });

  it('refuses an account whose balance or history could not be read', () => {
    const { balance: _b, ...unread } = account();
    expect(planStrike({ accounts: [unread], named: none })).toMatchObject({ ok: false });
    const { history: _h, ...partial } = account();
    expect(planStrike({ accounts: [partial], named: none })).toMatchObject({ ok: false });
  });
});

describe('planWithdrawal: where the next part of a cash-out comes from', () => {
  const a = { account: 'bookie_a/alpha_a', sessionId: 's-a', cents: 50_000 };
  const c = { account: 'bookie_c/alpha_c', sessionId: 's-c', cents: 30_000 };
  it('takes it whole from the account holding most when that holds it all', () => {
    expect(planWithdrawal(20_000, [c, a])).toEqual({ from: a, cents: 20_000 });
  });
  it('takes the largest part first when only the accounts together hold it', () => {
    expect(planWithdrawal(70_000, [c, a])).toEqual({ from: a, cents: 50_000 });
  });
  it('waits, saying how much they hold, when together they do not', () => {
    expect(planWithdrawal(90_000, [c, a])).toEqual({
      wait: "waits: the fund's accounts hold $800.00 withdrawable, short of $900.00 (bets still open hold the rest)",
    });
  });
  it('owes nothing for a redemption worth less than a cent', () => {
    expect(planWithdrawal(0, [a])).toEqual({ nothing: true });
  });
});

describe('a strike with nothing changed is a fixed point, the performance fee on (issue 30, item 10)', () => {
  /** The cash of one account as planStrike values it, then NAV and strike() as the repository runs them. */
  function strikeOn(cashCents: number, book: Held, over: { ins?: DealIn[]; outs?: DealOut[] } = {}) {
    const plan = planStrike({
      accounts: [account({ balance: { balanceCents: cashCents, bonusCents: 0, retrievedAt: T0 + 60_000 } })],
      named: none,
    });
    if (!plan.ok) throw new Error(plan.reason);
    const r = strike({
      nav: navOf({
        sessions: plan.sessions,
        openStakeCents: 0,
        withdrawnUnpaidCents: 0,
        owedRedemptionsCents: book.owed,
        pendingContributionsCents: (over.ins ?? []).reduce((a, c) => a + c.cents, 0),
      }),
      units: book.units,
      holdings: book.holdings,
      contributions: over.ins ?? [],
      cashouts: over.outs ?? [],
      fee: { rateBps: book.rateBps, highWaterPrice: book.mark },
      openingPriceCents: 100,
    });
    return {
      r,
      next: {
        ...book,
        units: r.unitsAfter,
        holdings: r.holdings,
        mark: r.highWaterPrice,
        owed: book.owed + r.crystallisedCents + r.redeemed.reduce((a, d) => a + d.cents, 0),
      },
    };
  }
  interface Held {
    units: number;
    holdings: Map<string, number>;
    mark: number;
    owed: number;
    rateBps: number;
  }

  it('keeps NAV, price and accrual unchanged over generated books, after dealing of every kind', () => {
    const rng = createRng(30_10);
    let checked = 0;
    for (let round = 0; round < 400; round++) {
      const rateBps = rng.pick([500, 1_000, 2_000, 2_500, 3_333]);
      // Opening: Ann's money at $1.00, then the books gain, then dealing at a price above the mark.
      let cash = rng.int(10_000, 5_000_000);
      let s = strikeOn(
        cash,
        { units: 0, holdings: new Map(), mark: 0, owed: 0, rateBps },
        {
          ins: [{ id: 'c0', memberId: 'ann', cents: cash }],
        },
      );
      cash += rng.int(1, 2_000_000);
      const ins: DealIn[] = rng.int(0, 1) ? [{ id: 'c1', memberId: 'bob', cents: rng.int(1, 900_000) }] : [];
      const outs: DealOut[] = rng.int(0, 1)
        ? [{ id: 'o1', memberId: 'ann', ask: { kind: 'units', units: rng.int(1, s.next.units - 1) } }]
        : [];
      cash += ins.reduce((a, c) => a + c.cents, 0);
      const dealing = strikeOn(cash, s.next, { ins, outs });
      expect(dealing.r.feeCents).toBeGreaterThan(0);
      s = dealing;
      // Nothing changes: the cash is what it was (the redemptions are owed, still in the account), twice over.
      for (let again = 0; again < 2; again++) {
        const before = s.r;
        const still = strikeOn(cash, s.next);
        const where = `round ${round}, strike ${again + 1} after dealing`;
        expect(still.r.navAfterCents, where).toBe(before.navAfterCents);
        expect(still.r.price, where).toBe(priceOf({ navCents: before.navAfterCents, units: before.unitsAfter }, 100));
        expect(still.r.accruedAfterCents, where).toBe(before.accruedAfterCents);
        expect(still.r.highWaterPrice, where).toBe(before.highWaterPrice);
        // Rounding still favours the fund: the accrual kept is never more than the fee's rate of the gain.
        expect(still.r.feeCents, where).toBe(
          feeAt(
            { navCents: still.r.grossNavCents, units: still.r.unitsBefore },
            { rateBps, highWaterPrice: still.r.highWaterPrice },
          ),
        );
        checked++;
        s = still;
      }
    }
    expect(checked).toBe(800);
  });
});
