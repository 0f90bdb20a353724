import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';
import { type FundOnSandbox, fundOnSandbox } from '../../support/fund-on-sandbox.js';

const GUILD = 'g-wd-amount';

/**
 * A withdrawal settled by hand is the attempt's own only when it moved the attempt's amount (issue 43, item 8): the
 * desk's $100.00 withdraw_balance job never ended, then someone else withdrew $50.00 from the account; the treasurer who
 * names that $50.00 withdrawal as the attempt's is refused, saying both amounts, and nothing is marked withdrawn.
 */
describe.each(ENGINES)('a hand-settled withdrawal must match its attempt’s amount, on %s', (engine) => {
  // The desk's clock, moved on past the job's lifetime below (the sandbox's clock by its control route).
  let offset = 0;

  let env: FundOnSandbox;
  let cleanup: () => void = () => {};
  beforeAll(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    env = await fundOnSandbox(GUILD, () => Date.now() + offset, fresh.url);
  });
  afterAll(async () => {
    await env?.close();
    cleanup();
  });

  it('refuses a $50.00 withdrawal named as the $100.00 attempt’s own, saying both amounts', async () => {
    const { cashout } = await env.fund.requestCashout({
      guildId: GUILD,
      memberId: 'ann',
      ask: { kind: 'amount', cents: 10_000 },
    });
    await env.control.advance(31_000);
    const struck = await env.fund.strike(GUILD, { actor: 'admin' });
    if (!struck.ok) throw new Error(struck.reason);
    // The desk's withdraw_balance job never ends: the attempt cannot know whether the book acted.
    await env.control.faults({ stuckJobs: 1 });
    const attempt = async () =>
      (
        await env.store.query<{ attempt_id: string; state: string }>(
          'SELECT attempt_id, state FROM fund_withdrawals WHERE cashout_id = ?',
          cashout.cashoutId,
        )
      )[0];
    await env.fund.withdrawals();
    expect((await attempt())?.state).toBe('submitted');
    await env.control.faults({});
    // Someone else's $50.00 withdrawal from the same account.
    const handle = await env.gateway.withdrawals.create({ session_id: env.session, amount: 50 });
    const done = await handle.wait({ signal: AbortSignal.timeout(20_000) });
    const id = String(done.status === 'completed' ? done.result.withdrawal_id : '');
    // The job's deadline and its correlation id's lifetime pass: the history lists a withdrawal no attempt owns, and
    // the attempt waits for a treasurer.
    await env.control.advance(3_600_000);
    offset += 60 * 60_000;
    const deadline = Date.now() + 20_000;
    while ((await attempt())?.state !== 'unresolved') {
      if (Date.now() > deadline) throw new Error(`the attempt stayed ${(await attempt())?.state}`);
      await env.fund.withdrawals();
      await new Promise((r) => setTimeout(r, 100));
    }
    await expect(
      env.fund.settleWithdrawal({
        guildId: GUILD,
        attemptId: String((await attempt())?.attempt_id),
        withdrawalId: id,
        actor: 'admin',
      }),
    ).rejects.toThrow(
      `Withdrawal ${id} moved $50.00, but this attempt asked for $100.00: only a withdrawal of the same amount can be its own.`,
    );
    expect((await attempt())?.state).toBe('unresolved');
    const [c] = await env.store.query<{ state: string }>(
      'SELECT state FROM fund_cashouts WHERE cashout_id = ?',
      cashout.cashoutId,
    );
    expect(c?.state).not.toBe('withdrawn');
  });
});
