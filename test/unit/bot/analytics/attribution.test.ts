import { describe, expect, it } from 'vitest';
import { attribution, type FundAccountRef, isFundBet } from '../../../../src/bot/analytics/attribution.js';
import type { BetFact } from '../../../../src/bot/analytics/facts.js';
import { bet } from './facts.js';

const JOINED = Date.UTC(2026, 8, 1);
const ACCOUNTS: FundAccountRef[] = [
  { bookie: 'bookie_a', username: 'alpha_a', since: JOINED },
  { bookie: 'bookie_c', username: 'alpha_c', since: JOINED + 3_600_000 },
];
const fundBet = (over: Partial<BetFact>) =>
  bet({ book: 'bookie_a', account: 'alpha_a', placedAt: JOINED + 60_000, ...over });

describe("which bets are the fund's", () => {
  it("a bet through a fund account after it joined is the fund's", () => {
    expect(isFundBet(fundBet({}), { accounts: ACCOUNTS })).toBe(true);
  });
  it('a bet placed before its account joined is not', () => {
    expect(isFundBet(bet({ book: 'bookie_c', account: 'alpha_c', placedAt: JOINED }), { accounts: ACCOUNTS })).toBe(
      false,
    );
  });
  it('the same user name at another book is another account', () => {
    expect(isFundBet(fundBet({ book: 'bookie_b' }), { accounts: ACCOUNTS })).toBe(false);
  });
  it('a slip without its account is matched through its session', () => {
    const b = fundBet({ account: null, session: 'sess-9' });
    expect(isFundBet(b, { accounts: ACCOUNTS })).toBe(false);
    expect(
      isFundBet(b, { accounts: ACCOUNTS, accountOfSession: (s) => (s === 'sess-9' ? 'alpha_a' : undefined) }),
    ).toBe(true);
  });
});

describe('attribution', () => {
  it("credits each settled fund bet to its member, with stake, P&L, ROI, CLV and the share of the fund's P&L", () => {
    const a = attribution(
      [
        fundBet({ member: 'ann', stakeCents: 1000, status: 'won', returnCents: 2100, oddsTaken: 2.1, closeOdds: 2.0 }),
        fundBet({ member: 'ann', stakeCents: 500, status: 'lost', returnCents: 0, oddsTaken: 1.9, closeOdds: 2.0 }),
        fundBet({ member: 'bob', stakeCents: 700, status: 'lost', returnCents: 0 }),
        fundBet({ member: 'bob', stakeCents: 300, status: 'void', returnCents: 300 }),
      ],
      { accounts: ACCOUNTS },
    );
    expect(a.fund).toEqual({ bets: 4, stakedCents: 2200, pnlCents: -100 });
    const [ann, bob] = a.rows;
    expect(ann).toMatchObject({ member: 'ann', bets: 2, stakedCents: 1500, pnlCents: 600, withClose: 2 });
    expect(ann?.roi).toBeCloseTo(0.4, 12);
    expect(ann?.meanClv).toBeCloseTo((2.1 / 2 - 1 + (1.9 / 2 - 1)) / 2, 12);
    expect(ann?.beatCloseRate).toBe(0.5);
    expect(ann?.shareOfFund).toBe(-6);
    expect(bob).toMatchObject({ member: 'bob', bets: 2, stakedCents: 700, pnlCents: -700, meanClv: null });
    expect(bob?.shareOfFund).toBe(7);
  });

  it('leaves bets outside the fund out and counts them', () => {
    const a = attribution(
      [
        fundBet({ member: 'ann', status: 'won', stakeCents: 1000, returnCents: 1500 }),
        bet({ member: 'ann', book: 'bookie_b', account: 'bravo_b', status: 'lost', stakeCents: 400, returnCents: 0 }),
      ],
      { accounts: ACCOUNTS },
    );
    expect(a.fund.pnlCents).toBe(500);
    expect(a.outside).toEqual({ bets: 1, pnlCents: -400, beforeJoining: 0 });
  });

  it('says which outside bets went through a fund account before it joined, and the stored fact decides whose a bet is', () => {
    const a = attribution(
      [
        bet({
          book: 'bookie_c',
          account: 'alpha_c',
          placedAt: JOINED,
          status: 'won',
          stakeCents: 2000,
          returnCents: 4240,
        }),
        // Decided at its claim as outside every fund, though placed after the account joined: the stored fact wins.
        fundBet({ status: 'lost', stakeCents: 500, returnCents: 0, fundKey: null }),
        bet({ book: 'bookie_b', account: 'bravo_b', status: 'lost', stakeCents: 400, returnCents: 0 }),
      ],
      { accounts: ACCOUNTS, fundKey: 'g1' },
    );
    expect(a.outside).toEqual({ bets: 3, pnlCents: 2240 - 500 - 400, beforeJoining: 2 });
    expect(a.fund.bets).toBe(0);
  });

  it('counts open fund bets as pending, outside the P&L', () => {
    const a = attribution([fundBet({ status: 'open' }), fundBet({ status: 'won', returnCents: 2000 })], {
      accounts: ACCOUNTS,
    });
    expect(a.pending).toBe(1);
    expect(a.fund.bets).toBe(1);
  });

  it('takes the period by settlement time', () => {
    const at = JOINED + 86_400_000;
    const a = attribution(
      [
        fundBet({ status: 'won', returnCents: 2000, settledAt: at - 1 }),
        fundBet({ status: 'lost', returnCents: 0, settledAt: at }),
      ],
      { accounts: ACCOUNTS, since: at },
    );
    expect(a.fund.pnlCents).toBe(-1000);
  });

  it('with no P&L the shares are unknown, not divided by zero', () => {
    const a = attribution([fundBet({ status: 'void', returnCents: 1000 })], { accounts: ACCOUNTS });
    expect(a.rows[0]?.shareOfFund).toBeNull();
  });
});

/** A seeded generator (LCG), so a failing sequence can be replayed from its seed. */
function rng(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 4294967296;
  };
}

describe("attribution sums to the fund's P&L to the cent over generated sequences", () => {
  for (let seed = 1; seed <= 200; seed++) {
    it(`sequence ${seed}`, () => {
      const r = rng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
      const members = ['ann', 'bob', 'cat', 'dan', 'eve'].slice(0, 1 + Math.floor(r() * 5));
      const facts: BetFact[] = [];
      // The fund's P&L the way the book moves its cash: each settled fund bet's return less its stake.
      let bookPnl = 0;
      const since = JOINED + Math.floor(r() * 3) * 86_400_000;
      const n = Math.floor(r() * 120);
      for (let i = 0; i < n; i++) {
        const placedAt = JOINED - 3_600_000 + Math.floor(r() * 5 * 86_400_000);
        const settledAt = placedAt + Math.floor(r() * 86_400_000);
        const [book, account] = pick([
          ['bookie_a', 'alpha_a'],
          ['bookie_c', 'alpha_c'],
          ['bookie_b', 'bravo_b'],
          ['bookie_a', 'other'],
        ] as const);
        const stakeCents = 1 + Math.floor(r() * 100_000);
        const odds = Math.round((1.01 + r() * 9) * 100) / 100;
        const status = pick(['won', 'lost', 'void', 'cashed_out', 'open'] as const);
        const returnCents =
          status === 'won'
            ? Math.round(stakeCents * odds)
            : status === 'lost'
              ? 0
              : status === 'void'
                ? stakeCents
                : status === 'cashed_out'
                  ? Math.floor(r() * stakeCents * 2)
                  : null;
        const joined = ACCOUNTS.find((a) => a.bookie === book && a.username === account);
        if (joined && placedAt >= joined.since && status !== 'open' && settledAt >= since) {
          bookPnl += (returnCents as number) - stakeCents;
        }
        facts.push(
          bet({
            member: pick(members),
            book,
            account,
            placedAt,
            settledAt,
            stakeCents,
            oddsTaken: odds,
            status,
            returnCents,
            closeOdds: r() < 0.5 ? null : Math.round(odds * (0.9 + r() * 0.2) * 100) / 100,
          }),
        );
      }
      const a = attribution(facts, { accounts: ACCOUNTS, since });
      expect(a.rows.reduce((s, row) => s + row.pnlCents, 0)).toBe(bookPnl);
      expect(a.fund.pnlCents).toBe(bookPnl);
      for (const row of a.rows) expect(Number.isInteger(row.pnlCents)).toBe(true);
    });
  }
});
