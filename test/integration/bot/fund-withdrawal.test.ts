import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FundService } from '../../../src/bot/fund/fund-service.js';
import type { BotStore } from '../../../src/bot/store/index.js';
import type { GatewayClient } from '../../../src/gateway/index.js';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { type FundOnSandbox, fundOnSandbox } from '../../support/fund-on-sandbox.js';
import type { SandboxControl } from '../../support/sandbox-control.js';

const GUILD = 'g-wd';

/**
 * A cash-out's withdrawal against the sandbox over HTTP, as the leader's beat runs it: held pending by the
 * bookmaker then completed, refused then tried again, and waiting (saying why) while the cash is short.
 */
describe('a cash-out paid through withdraw_balance', () => {
  let store: BotStore;
  let sandbox: RunningSandbox;
  let control: SandboxControl;
  let gateway: GatewayClient;
  let fund: FundService;
  let session = '';

  const state = async (id: string) =>
    (
      await store.query<{ state: string; note: string | null }>(
        'SELECT state, note FROM fund_cashouts WHERE cashout_id = ?',
        id,
      )
    )[0];
  const attempts = async (id: string) =>
    (
      await store.query<{ state: string }>(
        'SELECT state FROM fund_withdrawals WHERE cashout_id = ? ORDER BY created_at',
        id,
      )
    ).map((r) => r.state);
  /** Beats until the cash-out reaches `want` (the sandbox's jobs take a moment). */
  async function beatUntil(id: string, want: string) {
    const deadline = Date.now() + 20_000;
    while ((await state(id))?.state !== want) {
      if (Date.now() > deadline) throw new Error(`the cash-out stayed ${(await state(id))?.state}, not ${want}`);
      await fund.withdrawals();
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  async function redeemed(cents: number): Promise<string> {
    const { cashout } = await fund.requestCashout({ guildId: GUILD, memberId: 'ann', ask: { kind: 'amount', cents } });
    await control.advance(31_000);
    const r = await fund.strike(GUILD, { actor: 'admin' });
    if (!r.ok) throw new Error(r.reason);
    expect((await state(cashout.cashoutId))?.state).toBe('redeemed');
    return cashout.cashoutId;
  }

  let env: FundOnSandbox;
  beforeAll(async () => {
    env = await fundOnSandbox(GUILD);
    ({ store, sandbox, control, gateway, fund, session } = env);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('follows a withdrawal the bookmaker holds pending until it completes, without sending it again', async () => {
    await control.withdrawalMode('pending');
    const id = await redeemed(1_000);
    await beatUntil(id, 'withdrawing');
    const deadline = Date.now() + 20_000;
    let wd: { withdrawal_id: string } | undefined;
    while (!wd) {
      await fund.withdrawals();
      const [row] = await store.query<{ gateway_withdrawal_id: string | null; bookmaker_status: string | null }>(
        'SELECT gateway_withdrawal_id, bookmaker_status FROM fund_withdrawals WHERE cashout_id = ?',
        id,
      );
      if (row?.bookmaker_status === 'pending' && row.gateway_withdrawal_id)
        wd = { withdrawal_id: row.gateway_withdrawal_id };
      else if (Date.now() > deadline) throw new Error('the withdrawal never showed pending');
      else await new Promise((r) => setTimeout(r, 100));
    }
    for (let i = 0; i < 3; i++) await fund.withdrawals();
    expect((await state(id))?.state).toBe('withdrawing');
    await fetch(`${sandbox.url}/_sandbox/withdrawals/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ withdrawal_id: wd.withdrawal_id, status: 'completed' }),
    });
    await beatUntil(id, 'withdrawn');
    expect(await attempts(id)).toEqual(['completed']);
  });

  it('tries a refused withdrawal again as a new attempt, the refused one kept', async () => {
    await control.withdrawalMode('failed');
    const id = await redeemed(1_200);
    const deadline = Date.now() + 20_000;
    while (!(await attempts(id)).includes('failed')) {
      if (Date.now() > deadline) throw new Error('the refused withdrawal was never recorded');
      await fund.withdrawals();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await state(id))?.state).toBe('redeemed');
    await control.withdrawalMode('completed');
    await beatUntil(id, 'withdrawn');
    expect(await attempts(id)).toEqual(['failed', 'completed']);
  });

  it('waits, saying why, while no session holds the cash', async () => {
    const { cashout, needsApproval } = await fund.requestCashout({
      guildId: GUILD,
      memberId: 'ann',
      ask: { kind: 'all' },
    });
    expect(needsApproval).toBe(true);
    await fund.repo.decideCashout(cashout.cashoutId, 'checker', true, Date.now());
    await control.advance(31_000);
    const r = await fund.strike(GUILD, { actor: 'admin' });
    if (!r.ok) throw new Error(r.reason);
    // Everything Ann holds is owed to her; a bet elsewhere takes cash the session no longer has to give.
    const { cents } = (
      await store.query<{ cents: number }>('SELECT cents FROM fund_cashouts WHERE cashout_id = ?', cashout.cashoutId)
    )[0]!;
    const b = await gateway.balances.get({ session_id: session });
    await fetch(`${sandbox.url}/v3/withdraw_balance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sandbox-key-alpha' },
      body: JSON.stringify({
        session_id: session,
        amount: Math.round((b.withdrawable_balance ?? 0) * 100 - cents / 2) / 100,
      }),
    });
    await control.advance(31_000);
    await new Promise((res) => setTimeout(res, 500));
    await fund.withdrawals();
    const s = await state(cashout.cashoutId);
    expect(s?.state).toBe('redeemed');
    expect(s?.note).toMatch(/^waits: the fund's accounts hold \$[\d,.]+ withdrawable, short of \$[\d,.]+/);
    expect(await attempts(cashout.cashoutId)).toEqual([]);
  });

  it('pays a cash-out no one session can cover in parts from two sessions, once they hold it together', async () => {
    // The cash-out left waiting above, and a second account of the fund (its cash Bob's opening contribution).
    const [waiting] = await fund.repo.redeemedWaiting(GUILD);
    const owed = waiting?.cents ?? 0;
    const second = (await gateway.sessions.list()).find((x) => x.bookie === 'bookie_a' && x.active)?.session_id ?? '';
    await fund.addAccount({ guildId: GUILD, sessionId: second, actor: 'admin', openingMemberId: 'bob' });
    const withdrawable = async (id: string) =>
      Math.round(((await gateway.balances.get({ session_id: id })).withdrawable_balance ?? 0) * 100);
    const first = await withdrawable(session);
    // The second session holds more than the first but less than what is owed: two parts, the larger first.
    const target = owed - Math.floor(first / 2);
    const held = await withdrawable(second);
    if (held > target) {
      await fetch(`${sandbox.url}/v3/withdraw_balance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'sandbox-key-alpha' },
        body: JSON.stringify({ session_id: second, amount: (held - target) / 100 }),
      });
    } else if (held < target) {
      await control.deposit(second, (target - held) / 100);
    }
    await control.advance(31_000);
    await new Promise((res) => setTimeout(res, 500));
    expect(await withdrawable(second)).toBe(target);
    await beatUntil(waiting?.cashoutId as string, 'withdrawn');
    const parts = await store.query<{ session_id: string; amount_cents: number; state: string }>(
      'SELECT session_id, amount_cents, state FROM fund_withdrawals WHERE cashout_id = ? ORDER BY created_at',
      waiting?.cashoutId,
    );
    expect(parts.map((p) => [p.session_id, Number(p.amount_cents), p.state])).toEqual([
      [second, target, 'completed'],
      [session, owed - target, 'completed'],
    ]);
  });
});
