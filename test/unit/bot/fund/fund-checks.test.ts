import { describe, expect, it } from 'vitest';
import { type FundRowsAndEntries, fundEntryMismatches } from '../../../../src/bot/fund/model/fund-checks.js';

const move = (ref: string, m: string, from: string | null, to: string, extra: Record<string, unknown> = {}) => ({
  kind: 'fund_withdrawal',
  ref,
  amountCents: 30_000,
  data: { move: m, from, to, ...extra },
});

/** A fund whose rows and entries agree: two contributions issued, one cash-out struck and withdrawn in one attempt. */
const agreeing = (): FundRowsAndEntries => ({
  outstanding: 700,
  contributions: [
    { id: 'fc-1', state: 'issued', units: 600 },
    { id: 'fc-2', state: 'issued', units: 400 },
    { id: 'fc-3', state: 'cancelled', units: null },
  ],
  cashouts: [
    { id: 'fo-1', units: 300, struck: true, fee: false },
    { id: 'fee-1', units: 0, struck: true, fee: true },
  ],
  attempts: [{ id: 'fw-1', state: 'completed', amountCents: 30_000, gatewayWithdrawalId: 'wd-9' }],
  entries: [
    { kind: 'fund_issue', ref: 'fc-1', amountCents: 60_000, data: { units: 600 } },
    { kind: 'fund_issue', ref: 'fc-2', amountCents: 40_000, data: { units: 400 } },
    { kind: 'fund_cancel', ref: 'fc-3', amountCents: 1_000, data: { reason: 'mistyped' } },
    { kind: 'fund_redemption', ref: 'fo-1', amountCents: 30_000, data: { units: 300 } },
    move('fw-1', 'begin', null, 'sending'),
    move('fw-1', 'markSubmitted', 'sending', 'submitted', { correlationId: 'c-1' }),
    move('fw-1', 'markCompleted', 'submitted', 'completed', { withdrawalId: 'wd-9' }),
  ],
});

describe("the daily reconciliation's check of the fund's entries against its rows", () => {
  it('finds nothing when units issued − cancelled = outstanding and every attempt retraces its moves', () => {
    expect(fundEntryMismatches(agreeing())).toEqual([]);
  });

  it('names units outstanding that the entries do not add up to', () => {
    expect(fundEntryMismatches({ ...agreeing(), outstanding: 1_000 })).toEqual([
      'the ledger issued 1000 units and cancelled 300 (700), but the fund reads 1000 outstanding (millionths of a unit)',
    ]);
  });

  it('names a contribution and a cash-out whose row and entry disagree', () => {
    const f = agreeing();
    const out = fundEntryMismatches({
      ...f,
      contributions: [{ id: 'fc-1', state: 'issued', units: 650 }, ...f.contributions.slice(1)],
      cashouts: [{ id: 'fo-1', units: 300, struck: false, fee: false }, ...f.cashouts.slice(1)],
    });
    expect(out).toContain('contribution fc-1 is issued with 650 units, but the ledger has 1 issue entry for 600 units');
    expect(out).toContain('cash-out fo-1 is not struck, but the ledger has 1 redemption entry for 300 units');
  });

  it("names a withdrawal whose row and entries disagree: its state, its withdrawal's id, a move no table has", () => {
    const f = agreeing();
    const row = (over: Partial<FundRowsAndEntries['attempts'][number]>) => ({
      ...f,
      attempts: [{ ...(f.attempts[0] as FundRowsAndEntries['attempts'][number]), ...over }],
    });
    expect(fundEntryMismatches(row({ state: 'failed' }))).toEqual([
      'withdrawal attempt fw-1: its row is failed, its entries end at completed',
    ]);
    expect(fundEntryMismatches(row({ gatewayWithdrawalId: 'wd-other' }))).toEqual([
      'withdrawal attempt fw-1: its row names withdrawal wd-other, its completing entry wd-9',
    ]);
    expect(fundEntryMismatches(row({ amountCents: 31_000 }))).toEqual([
      'withdrawal attempt fw-1: an entry (begin) is for 30000 cents, the attempt for 31000',
    ]);
    const skipped = { ...f, entries: f.entries.filter((e) => e.data.move !== 'markSubmitted') };
    expect(fundEntryMismatches(skipped)).toEqual([
      'withdrawal attempt fw-1: an entry moves it from submitted while its entries had it sending',
    ]);
    const forged = {
      ...f,
      entries: [
        ...f.entries.slice(0, 4),
        move('fw-1', 'begin', null, 'sending'),
        move('fw-1', 'adopt', 'sending', 'completed'),
      ],
    };
    expect(fundEntryMismatches(forged)).toEqual([
      'withdrawal attempt fw-1: an entry names no move of its table (adopt)',
    ]);
  });
});
