import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/bot/config/logger.js';
import { FundService } from '../../src/bot/fund/fund-service.js';
import { fundViews } from '../../src/bot/fund/views/fund-presenter.js';
import { type BotStore, openStore } from '../../src/bot/store/index.js';
import { GatewayClient, type Transaction } from '../../src/gateway/index.js';
import { type BotChild, respawnBot, spawnReadyBot } from '../support/bot-child.js';
import { cents, deskCommand, strikeFund } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { until } from '../support/wait.js';

/**
 * A cash-out's withdraw_balance under crashes and slowness (issue 30, item 4): the bot killed with SIGKILL while
 * its request is on its way, and a request whose answer comes after the client gave up while another process runs
 * the fund's beat. Each ends with exactly one withdrawal at the sandbox per cash-out, tied to its attempt by the
 * job's own evidence (its correlation id, its withdrawal_id), none listed by the sandbox that no attempt owns.
 */
describe("a cash-out's withdrawal through kill -9 and a slow answer: exactly one, tied by evidence", () => {
  let desk: Desk;
  let child: BotChild | undefined;
  let store: BotStore;
  let gw: GatewayClient;
  let session = '';
  let ann: APIUser;

  beforeAll(async () => {
    desk = await startDesk({
      proxy: true,
      webhooks: true,
      inProcessBot: false,
      env: {
        FUND_CHECK_SECONDS: '1',
        RECONCILE_WINDOW_SECONDS: '3',
        GATEWAY_JOB_DEADLINE_SECONDS: '3',
        RECONCILE_INTERVAL_SECONDS: '1',
      },
    });
    child = await spawnReadyBot(desk);
    store = await openStore(desk.env.STORE_URL as string);
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    session =
      (await gw.sessions.list()).find((s) => s.bookie === 'bookie_c' && s.session_id.endsWith('00c'))?.session_id ?? '';
    expect(session).not.toBe('');
    ann = desk.ld.users.bettor;
    await fund(desk.ld.users.admin, 'accounts', { action: 'add', session, opening_member: ann.id }, /Added/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
  }, 120_000);
  afterAll(async () => {
    await child?.kill9().catch(() => undefined);
    await gw?.close();
    await store?.close();
    await desk?.close();
  });

  const fund = (user: APIUser, sub: string, options: Record<string, string | number | boolean>, done: RegExp) =>
    deskCommand(desk, user, 'fund', sub, options, done);
  /** The withdrawals the sandbox lists for the account. */
  async function listed(): Promise<Transaction[]> {
    const out = await (await gw.transactions.list({ session_id: session, days_back: 3, limit: 500 })).wait();
    return (out.status === 'completed' ? (out.result.transactions ?? []) : []).filter((t) => t.type === 'withdrawal');
  }
  const attempts = () =>
    store.query<{
      cashout_id: string;
      state: string;
      correlation_id: string | null;
      gateway_withdrawal_id: string | null;
    }>('SELECT cashout_id, state, correlation_id, gateway_withdrawal_id FROM fund_withdrawals ORDER BY created_at');
  const withdrawn = async (cashoutId: string) =>
    (await store.query("SELECT 1 AS x FROM fund_cashouts WHERE cashout_id = ? AND state = 'withdrawn'", cashoutId))
      .length === 1;
  /** Every withdrawal the sandbox lists is owned by exactly one completed attempt, and every completed attempt's is listed. */
  async function eachOwnedOnce() {
    const ids = (await listed()).map((t) => t.id).sort();
    const owned = (await attempts()).filter((a) => a.state === 'completed').map((a) => a.gateway_withdrawal_id);
    expect(owned.sort()).toEqual(ids);
    expect(new Set(owned).size).toBe(owned.length);
  }
  async function askAndStrike(amount: number): Promise<string> {
    await fund(ann, 'cashout', { amount }, /asks to cash out/);
    const [c] = await store.query<{ cashout_id: string }>(
      "SELECT cashout_id FROM fund_cashouts WHERE state = 'pending' ORDER BY requested_at DESC LIMIT 1",
    );
    return c!.cashout_id;
  }

  it('kill -9 while the withdraw_balance request is on its way: judged from the history, sent once after restart', async () => {
    const before = new Set((await listed()).map((t) => t.id));
    const cashout = await askAndStrike(100);
    desk.proxy!.hold('/v3/withdraw_balance');
    expect(await strikeFund(desk)).toMatch(/Struck/);
    await until('the withdrawal request at the proxy', () => desk.proxy!.heldFor('/v3/withdraw_balance') > 0, {
      timeoutMs: 20_000,
    });
    expect((await attempts()).at(-1)?.state).toBe('sending');
    await child!.kill9();
    // The dying process's request never reaches the gateway.
    desk.proxy!.drop();
    desk.proxy!.release();
    child = await respawnBot(desk, child);
    await until('the cash-out withdrawn after the restart', () => withdrawn(cashout), { timeoutMs: 60_000 });
    const added = (await listed()).filter((t) => !before.has(t.id));
    expect(added.map((t) => cents(t.stake))).toEqual([10_000]);
    const mine = (await attempts()).filter((a) => a.cashout_id === cashout);
    // The first attempt was judged never sent (no withdrawal in the history), the second completed with its own id.
    expect(mine.map((a) => a.state)).toEqual(['not_sent', 'completed']);
    await eachOwnedOnce();
  }, 120_000);

  it('a slow answer the client gave up on, another process beating meanwhile: its webhook ties the job, one withdrawal', async () => {
    const before = new Set((await listed()).map((t) => t.id));
    const cashout = await askAndStrike(50);
    desk.proxy!.holdAnswers('/v3/withdraw_balance');
    expect(await strikeFund(desk)).toMatch(/Struck/);
    await until('the withdrawal at the gateway, its answer held', () => desk.proxy!.heldAnswers > 0, {
      timeoutMs: 20_000,
    });
    // Another process on the same store runs the fund's withdrawals while the first one waits for its answer.
    const otherStore = await openStore(desk.env.STORE_URL as string);
    const otherGw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const other = new FundService({
      store: otherStore,
      gateway: otherGw,
      outbox: { create: async () => undefined, has: async () => true } as never,
      present: fundViews,
      logger: silentLogger,
      now: Date.now,
      callbackUrl: undefined,
      withdrawalWindowMs: 3_000,
    });
    try {
      const beats = (async () => {
        for (let i = 0; i < 8; i++) {
          await other.withdrawals();
          await new Promise((r) => setTimeout(r, 1_000));
        }
      })();
      // The answer comes after the client's 10 s timeout: the bot never reads its 202.
      await new Promise((r) => setTimeout(r, 12_000));
      desk.proxy!.release();
      await beats;
      let rows = '';
      await until(
        'the cash-out withdrawn',
        async () => {
          rows = JSON.stringify(await store.query('SELECT state, correlation_id, note FROM fund_withdrawals'));
          return withdrawn(cashout);
        },
        { timeoutMs: 30_000, seen: () => rows },
      );
    } finally {
      await otherGw.close();
      await otherStore.close();
    }
    const added = (await listed()).filter((t) => !before.has(t.id));
    expect(added.map((t) => cents(t.stake))).toEqual([5_000]);
    const mine = (await attempts()).filter((a) => a.cashout_id === cashout);
    // One attempt: its correlation id came with its own result webhook (the 202 was lost), never an amount match.
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ state: 'completed', gateway_withdrawal_id: added[0]?.id });
    expect(mine[0]?.correlation_id).toBeTruthy();
    expect(await store.query("SELECT 1 AS x FROM fund_withdrawals WHERE state = 'unresolved'")).toEqual([]);
    await eachOwnedOnce();
  }, 120_000);
});
