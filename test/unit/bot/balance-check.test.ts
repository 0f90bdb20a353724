import { describe, expect, it } from 'vitest';
import { balanceMismatch, compareBalance, type DeskBets } from '../../../src/bot/audit/balance-check.js';
import type { Transaction } from '../../../src/gateway/index.js';

const T0 = Date.parse('2026-11-20T00:00:00Z');
const iso = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const previous = { cashCents: 100_000, retrievedAt: T0 };
const balance = (cash: number, bonus = 0, minutes = 60) => ({
  balance: cash + bonus,
  bonus_balance: bonus,
  retrieved_at: iso(minutes),
});
const bet = (id: string, over: Partial<Transaction> = {}): Transaction => ({
  id,
  type: 'bet',
  status: 'pending',
  stake: 10,
  pnl: 0,
  is_bonus_bet: false,
  placed_at: iso(10),
  settled_at: null,
  ...over,
});
const desk = (stakes: Record<string, number>, pnls: Record<string, number> = {}): DeskBets => ({
  stakeCents: new Map(Object.entries(stakes)),
  settledPnlCents: new Map(Object.entries(pnls)),
});
const compare = (b: ReturnType<typeof balance>, transactions: Transaction[], d: DeskBets) =>
  compareBalance({ sessionId: 's1', balance: b, transactions, previous, desk: d, now: T0 + 3_600_000 });

describe('the balance the desk’s records imply', () => {
  it('takes the stakes the ledger placed and adds the returns it settled, a cash bet paid stake plus profit', () => {
    const txs = [
      bet('b1', { status: 'won', stake: 10, pnl: 8.5, settled_at: iso(40) }),
      bet('b2', { stake: 20, placed_at: iso(20) }),
    ];
    // 1000 − 10 − 20 + 18.50
    const c = compare(balance(988.5), txs, desk({ b1: 1_000, b2: 2_000 }, { b1: 850 }));
    expect(c.impliedCents).toBe(98_850);
    expect(balanceMismatch(c)).toBeUndefined();
  });

  it('counts a bonus bet as no cash staked and only its winnings paid, and leaves bonus tokens out of the cash', () => {
    const txs = [bet('b1', { is_bonus_bet: true, status: 'won', stake: 10, pnl: 15, settled_at: iso(30) })];
    const c = compare(balance(1_015, 25), txs, desk({ b1: 1_000 }, { b1: 1_500 }));
    expect(c.cashCents).toBe(101_500);
    expect(balanceMismatch(c)).toBeUndefined();
  });

  it('names a withdrawal the desk did not make, signed, and what nothing listed explains', () => {
    const txs: Transaction[] = [
      {
        id: 'wd-1',
        type: 'withdrawal',
        status: 'cashed_out',
        stake: 50,
        pnl: -50,
        placed_at: iso(5),
        settled_at: iso(5),
      },
    ];
    const c = compare(balance(945), txs, desk({}));
    expect(balanceMismatch(c)).toBe(
      "cash $945.00 at the gateway, $1,000.00 implied by the desk's records ($1,000.00 at the last check, less stakes placed, plus returns settled since): -$55.00 apart. The gateway lists a withdrawal (-$50.00). Nothing the gateway lists explains -$5.00.",
    );
  });

  it('finds no mismatch when every move the gateway lists is one the fund knows and nothing else is apart', () => {
    const deposit: Transaction = {
      id: 'dep-1',
      type: 'deposit',
      status: 'won',
      stake: 50,
      pnl: 50,
      placed_at: iso(5),
      settled_at: iso(5),
    };
    const c = compare(balance(1_050), [deposit], desk({}));
    expect(balanceMismatch(c, new Set(['dep-1']))).toBeUndefined();
    expect(balanceMismatch(c)).toMatch(/The gateway lists a deposit \(\+\$50\.00\)\.$/);
  });

  it('names a settlement the book paid that the ledger has not recorded', () => {
    const txs = [bet('b1', { placed_at: iso(-600), status: 'void', stake: 10, pnl: 0, settled_at: iso(30) })];
    const c = compare(balance(1_010), txs, desk({ b1: 1_000 }));
    expect(balanceMismatch(c)).toMatch(
      /\+\$10\.00 apart\. The gateway lists the settlement of bet b1, not in the ledger \(\+\$10\.00\)\.$/,
    );
  });

  it('does not compare when money moved after the balance was read, nor on the first check', () => {
    const late = compare(balance(990), [bet('b1', { placed_at: iso(61) })], desk({ b1: 1_000 }));
    expect(late.notCompared).toBe('moved_after_read');
    expect(balanceMismatch(late)).toBeUndefined();
    const first = compareBalance({
      sessionId: 's1',
      balance: balance(990),
      transactions: [],
      previous: null,
      desk: desk({}),
      now: T0,
    });
    expect(first.notCompared).toBe('first');
    expect(first.cashCents).toBe(99_000);
  });
});
