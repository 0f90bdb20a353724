// The restored desk's post in #results: what it found, and each move it could not tie to the backup named.
import { describe, expect, it } from 'vitest';
import { type RestoreReport, restoreView } from '../../../src/bot/audit/restore-check.js';
import { COLOUR } from '../../../src/bot/model/colours.js';
import type { Transaction } from '../../../src/gateway/index.js';

const base: RestoreReport = {
  marker: { from: 'desk-20261128T030000Z.sqlite', takenAt: 1, head: { seq: 84, hash: 'ab'.repeat(32) } },
  verify: { ok: true, entries: 90, head: 'cd'.repeat(32) },
  since: 0,
  sessions: 2,
  inactive: [],
  gatewayBets: 50,
  alreadyKnown: 26,
  adoptedRecords: 4,
  adoptedSlips: 20,
  adoptedWithdrawals: 1,
  unknownBets: [],
  unknownWithdrawals: [],
};
const tx = (id: string, type: string, stake: number, status = 'pending') =>
  ({ id, type, status, stake, placed_at: '2026-11-28T03:10:00Z' }) as unknown as Transaction;
const text = (r: RestoreReport) => {
  const e = restoreView(r).embeds?.[0];
  return {
    all: `${e?.title}\n${e?.description}\n${(e?.fields ?? []).map((f) => f.value).join('\n')}`,
    color: e?.color,
  };
};

describe('the restore report', () => {
  it('says what was checked and found, green when nothing is left over', () => {
    const { all, color } = text(base);
    expect(all).toContain('Restored from a backup · desk-20261128T030000Z.sqlite');
    expect(all).toContain('ledger head at the backup: entry 84');
    expect(all).toContain('The ledger is intact: 90 entries');
    expect(all).toContain('26 already in the backup, 4 adopted into their bet records, 20 into the slips');
    expect(all).toContain(
      'Withdrawals the backup had no attempt for, recorded for the cash-outs they were made for: 1.',
    );
    expect(all).toContain('Nothing unaccounted for.');
    expect(color).toBe(COLOUR.ok);
  });

  it('names each bet, withdrawal and session it could not tie to the backup, in red', () => {
    const { all, color } = text({
      ...base,
      unknownBets: [{ sessionId: 's-a', tx: tx('sbx-a-000051', 'bet', 2.5) }],
      unknownWithdrawals: [{ sessionId: 's-a', tx: tx('wd-7', 'withdrawal', 40, 'completed') }],
      inactive: ['s-old'],
    });
    expect(all).toContain('3 moves unaccounted for.');
    expect(all).toMatch(/bet sbx-a-000051 \(s-a\): \$2\.50 placed .*\/fund explain/);
    expect(all).toMatch(/withdrawal wd-7 \(s-a\): \$40\.00, completed, no cash-out of the backup is owed it/);
    expect(all).toContain('session s-old: not active at the gateway, so its history was not read');
    expect(color).toBe(COLOUR.refused);
  });

  it('is red when the chain is broken, naming the entry', () => {
    const { all, color } = text({ ...base, verify: { ok: false, entries: 40, seq: 41, reason: 'it was changed' } });
    expect(all).toContain('The ledger is broken at entry 41');
    expect(color).toBe(COLOUR.refused);
  });
});
