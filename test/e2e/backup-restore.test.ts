// The restore drill (issue 48, decision 1980): an online backup taken while a burst of 50 bets is being confirmed and
// settled, restored into a second desk on the same gateway and local Discord. The second desk checks the restored
// store before it takes bets and says so in #results; then its ledger verifies, every bet the gateway holds is known
// to it exactly once, nothing was placed twice, and the fund stands where it stood at the backup, moved on by exactly
// the gateway's later records. Runs on SQLite and (E2E_STORE=postgres) on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/bot/main.js';
import { updateSettings } from '../../src/bot/settings/guild-settings.js';
import { backupStore, restoreStore } from '../../src/bot/store/backup.js';
import { type BotStore, openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { createDatabase } from '../pg/cluster.js';
import { type BettableSelection, betSlip, newTrail, press } from '../support/flows.js';
import { cents, deskCommand, type FundFlows, fundFlows, strikeFund } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

const BETS = 50;
/** Bets on the first two events: confirmed and settled while the backup is taken. */
const EARLY_EVENTS = 2;

describe('an online backup taken during a burst of bets, restored into a second desk', () => {
  let desk: Desk;
  let gw: GatewayClient;
  let flows: FundFlows;
  let session = '';
  let dir: string;
  let second: RunningApp | undefined;
  let restored: BotStore | undefined;

  beforeAll(async () => {
    desk = await startDesk({
      // The second desk is npm start's app on the machine's clock: both desks and the sandbox keep to that one.
      sandboxClock: false,
      env: {
        // Settlements read each second, so each desk catches up with the events the test settles at once.
        SETTLEMENT_INTERVAL_SECONDS: '1',
        // The late half of the burst is confirmed after the backup: its slips must still be open then.
        SLIP_EXPIRY_SECONDS: '600',
        // The first desk pays the cash-out only when the test says (after the backup); the second desk's fund beat
        // runs each second (FUND_CHECK_SECONDS=1 below), so it would pay it again if the check did not record it.
        FUND_CHECK_SECONDS: '3600',
      },
    });
    dir = mkdtempSync(join(tmpdir(), 'desk-restore-'));
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    session = (await gw.sessions.list()).find((s) => s.bookie === 'bookie_a' && s.active)?.session_id ?? '';
    expect(session).not.toBe('');
    flows = fundFlows(desk, gw, session);
    // The server's admin has picked #results (what /settings results-channel saves).
    await updateSettings(desk.bot.store, desk.ld.guildId, (x) => ({
      ...x,
      resultsChannelId: desk.ld.channelIds.results,
    }));
  }, 90_000);
  afterAll(async () => {
    await restored?.close();
    await second?.stop();
    await gw?.close();
    await desk?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The gateway's bets on the test's events: what it holds, by its own records. */
  async function gatewayBets(epks: readonly string[]) {
    const all = (await desk.control.state()).bets;
    return all.filter((b) => epks.some((e) => JSON.stringify(b.bet).includes(e)));
  }

  it('the second desk checks it before betting; ledger intact, every bet known once, the fund moved on exactly', async () => {
    const { admin, bettor } = desk.ld.users;
    expect(await flows.openWithNav(100_000)).toMatch(/Struck/);
    const q = (store: BotStore) => (sql: string) => store.query<Record<string, number>>(sql);
    const lastStrike = async (store: BotStore) =>
      (await q(store)('SELECT nav_after_cents, units_after FROM fund_strikes ORDER BY at DESC LIMIT 1'))[0];
    expect((await lastStrike(desk.bot.store))?.nav_after_cents).toBe(100_000);
    // The admin cashes out $40, redeemed at the next strike: the backup holds it owed, with no withdrawal yet.
    await deskCommand(desk, admin, 'fund', 'cashout', { amount: 40 }, /It is redeemed at the next strike/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const atBackup = await lastStrike(desk.bot.store);
    expect(atBackup?.nav_after_cents).toBe(100_000 - 4_000);

    // 50 slips on five events, made before the burst (the late ones are confirmed after the backup: the copy holds
    // their slips, not their bets).
    const markets: Array<[BettableSelection, BettableSelection]> = [];
    for (let i = 0; i < 5; i++) markets.push(await flows.market());
    const sels = markets.flat();
    const epks = markets.map(([a]) => a.epk);
    const early = new Set(epks.slice(0, EARLY_EVENTS));
    const slips: Array<{ slip: LocalMessage; epk: string }> = [];
    // Ten at a time, each of the ten with its own stake ($2.01 to $2.10: the member's slips are told apart by it).
    for (let batch = 0; batch < BETS; batch += 10) {
      const made = await Promise.all(
        Array.from({ length: 10 }, async (_, k) => {
          const i = batch + k;
          // The early events' slips first: bets 0–19 on them, 20–49 on the other three.
          const sel = (i < 20 ? sels[i % 4] : sels[4 + (i % 6)]) as BettableSelection;
          const stake = 2 + (k + 1) / 100;
          const { slip } = await betSlip(desk, newTrail(), { user: bettor, sel, stake, timeoutMs: 30_000 });
          return { slip, epk: sel.epk };
        }),
      );
      slips.push(...made);
    }
    const confirm = (s: { slip: LocalMessage }) => press(desk, newTrail(), bettor, s.slip, /^Confirm$/);

    // The burst: 30 Confirms at once; the early events settle as soon as their bets are in, and the backup is taken
    // then, while the rest are still being placed and the settlements applied.
    const firstWave = Promise.all(slips.slice(0, 30).map(confirm));
    await until("the early events' 20 bets at the gateway", async () => (await gatewayBets([...early])).length === 20, {
      timeoutMs: 30_000,
    });
    for (const epk of early) await desk.control.settle(epk);
    const file = join(dir, process.env.E2E_STORE === 'postgres' ? 'desk.dump' : 'desk.sqlite');
    const backup = await backupStore(desk.env.STORE_URL as string, file);
    await firstWave;
    // The late 20 are confirmed after the backup: the copy holds their open slips only. The cash-out is withdrawn;
    // the bookmaker holds the withdrawal pending until the test resolves it (after the restore).
    await Promise.all(slips.slice(30).map(confirm));
    await desk.control.withdrawalMode('pending');
    await (desk.bot as unknown as { context: { fund: { withdrawals(): Promise<void> } } }).context.fund.withdrawals();
    const withdrawals = async () => (await flows.history()).filter((t) => t.type === 'withdrawal');
    await until('the withdrawal at the gateway', async () => (await withdrawals()).length === 1, { timeoutMs: 20_000 });
    await until('every bet at the gateway', async () => (await gatewayBets(epks)).length === BETS, {
      timeoutMs: 30_000,
    });
    for (const epk of epks.filter((e) => !early.has(e))) await desk.control.settle(epk);
    await until(
      'the first desk to settle every bet',
      async () =>
        (await desk.bot.store.query("SELECT 1 AS x FROM bet_records WHERE state <> 'settled'")).length === 0 &&
        (await desk.bot.store.query('SELECT 1 AS x FROM bet_records')).length === BETS,
      { timeoutMs: 30_000 },
    );
    const atGateway = await gatewayBets(epks);
    expect(atGateway.every((b) => b.settled_at !== null)).toBe(true);
    const laterPnl = atGateway.reduce((s, b) => s + cents(b.pnl), 0);
    // The backup is a moment inside the burst: some bets in it, not all.
    const inBackup = Object.values(backup.bets).reduce((a, b) => a + b, 0);
    expect(inBackup).toBeGreaterThanOrEqual(20);
    expect(inBackup).toBeLessThanOrEqual(30);

    // The first desk goes (the machine is lost); its backup is restored where the second desk's store is.
    await desk.stopBot();
    const url =
      process.env.E2E_STORE === 'postgres'
        ? await createDatabase(process.env.PG_ADMIN_URL as string, 'restored')
        : `sqlite://${join(dir, 'restored.sqlite')}`;
    const put = await restoreStore(file, url);
    expect(put.head).toEqual(backup.head);
    second = await startApp({ env: { ...desk.env, STORE_URL: url, FUND_CHECK_SECONDS: '1' }, print: () => {} });
    await desk.ld.waitForBot(15_000);

    // Before it took anything, it said what it found in #results.
    const post = await until(
      'the restore report in #results',
      () => desk.ld.messages(desk.ld.channelIds.results).find((m) => /Restored from a backup/.test(textOf(m))),
      { timeoutMs: 30_000 },
    );
    const report = textOf(post);
    expect(report).toMatch(/The ledger is intact/);
    expect(report).toMatch(/Nothing unaccounted for/);
    expect(report).toContain(
      'Withdrawals the backup had no attempt for, recorded for the cash-outs they were made for: 1.',
    );
    // The backup's records with a bet id were known; those still being sent were adopted by the reconciler's rule; every
    // other bet (the late 20, and any early one claimed after the snapshot) through the slip the backup held open.
    const n = (state: string) => backup.bets[state] ?? 0;
    expect(report).toContain(
      `${BETS} bets at the gateway from shortly before the backup on: ${n('placed') + n('settled')} already in the backup, ${
        n('sending') + n('submitted') + n('unknown')
      } adopted into their bet records, ${BETS - inBackup} into the slips members confirmed after the backup.`,
    );

    restored = await openStore(url);
    const store = restored;
    await until(
      'the second desk to settle every bet',
      async () => (await store.query("SELECT 1 AS x FROM bet_records WHERE state <> 'settled'")).length === 0,
      { timeoutMs: 30_000 },
    );
    // Every bet the gateway holds is known exactly once, and the gateway holds no bet more: nothing placed twice.
    const known = await store.query<{ bet_id: string; n: number }>(
      'SELECT bet_id, COUNT(*) AS n FROM bet_records WHERE bet_id IS NOT NULL GROUP BY bet_id ORDER BY bet_id',
    );
    expect(known.map((r) => Number(r.n)).every((n) => n === 1)).toBe(true);
    expect(known.map((r) => r.bet_id).sort()).toEqual(atGateway.map((b) => b.bet.bet_id).sort());
    expect(await gatewayBets(epks)).toHaveLength(BETS);
    // The cash-out's withdrawal, still pending at the bookmaker, is the restored attempt's; the fund's beat (each
    // second) follows it by its id instead of withdrawing again, and completes it once the bookmaker does.
    const [withdrawal] = await withdrawals();
    const attempts = () =>
      store.query<{ gateway_withdrawal_id: string; state: string; amount_cents: number }>(
        'SELECT gateway_withdrawal_id, state, amount_cents FROM fund_withdrawals',
      );
    const cashouts = async () =>
      (await store.query<{ state: string }>('SELECT state FROM fund_cashouts')).map((c) => c.state);
    expect((await attempts()).map((a) => [a.gateway_withdrawal_id, a.state, Number(a.amount_cents)])).toEqual([
      [withdrawal?.id, 'unknown', 4_000],
    ]);
    expect(await cashouts()).toEqual(['withdrawing']);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await withdrawals()).toHaveLength(1);
    const resolved = await fetch(`${desk.sandbox.url}/_sandbox/withdrawals/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ withdrawal_id: withdrawal?.id, status: 'completed' }),
    });
    expect(resolved.status).toBe(200);
    await until('the restored attempt to complete', async () => (await cashouts())[0] === 'withdrawn', {
      timeoutMs: 20_000,
    });
    expect((await attempts()).map((a) => a.state)).toEqual(['completed']);
    expect(await withdrawals()).toHaveLength(1);
    // Each bet's P&L is the gateway's, in cents.
    const pnl = await store.query<{ bet_id: string; pnl_cents: number }>('SELECT bet_id, pnl_cents FROM bet_records');
    const byId = new Map(atGateway.map((b) => [b.bet.bet_id, cents(b.pnl)]));
    for (const r of pnl) expect(r.pnl_cents, r.bet_id).toBe(byId.get(r.bet_id));

    // /ledger verify on the second desk.
    expect(await deskCommand(desk, admin, 'ledger', 'verify', {}, /ledger is/)).toMatch(/The ledger is intact/);
    // The fund as at the backup (its last strike), then moved on by exactly the gateway's records since.
    expect(await lastStrike(store)).toEqual(atBackup);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const now = await lastStrike(store);
    expect(Number(now?.units_after)).toBe(Number(atBackup?.units_after));
    // The withdrawal moved cash out for a cash-out already owed at the backup: NAV moves by the bets alone.
    expect(Number(now?.nav_after_cents)).toBe(Number(atBackup?.nav_after_cents) + laterPnl);
  }, 180_000);
});
