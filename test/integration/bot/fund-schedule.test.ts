import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bot/config/logger.js';
import { FundService } from '../../../src/bot/fund/fund-service.js';
import { fundViews } from '../../../src/bot/fund/views/fund-presenter.js';
import type { MessageView } from '../../../src/bot/model/limits.js';
import { updateSettings } from '../../../src/bot/settings/guild-settings.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { GatewayClient } from '../../../src/gateway/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { SandboxControl } from '../../support/sandbox-control.js';

const GUILD = 'g-fund';
const at = (day: number, h: number, m: number) => Date.UTC(2026, 0, day, h, m);

/**
 * The leader's beat against the sandbox gateway over HTTP: a scheduled strike runs once per dealing day, a strike
 * that cannot be trusted posts why once and is tried again, and the monthly statement is posted once a month.
 */
describe('the fund beat', () => {
  let dir: string;
  let store: BotStore;
  let sandbox: RunningSandbox;
  let gateway: GatewayClient;
  let now = 0;
  const posts = new Map<string, { channelId: string; view: MessageView }>();
  let fund: FundService;
  let session = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fund-beat-'));
    store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
    sandbox = await startSandbox({ port: 0, quiet: true, control: true, seed: 1 });
    gateway = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key-alpha' });
    fund = new FundService({
      store,
      gateway,
      outbox: {
        has: async (key) => posts.has(key.replace(/^create:/, '')),
        create: async (key, channelId, view) => void posts.set(key, { channelId, view }),
      },
      present: fundViews,
      logger: createLogger({ level: 'error', write: () => undefined }),
      now: () => now,
      callbackUrl: undefined,
    });
    session = (await gateway.sessions.list()).find((s) => s.bookie === 'bookie_b' && s.active)?.session_id ?? '';
    const b = await gateway.balances.get({ session_id: session });
    await updateSettings(store, GUILD, (s) => ({ ...s, resultsChannelId: 'results', fundSchedule: 'daily 09:00' }));
    now = at(10, 8, 0);
    // The bank already in the account is the first member's opening contribution, recorded as the account joins.
    const cash = Math.round(b.balance * 100) - Math.round((b.bonus_balance ?? 0) * 100);
    const added = await fund.addAccount({ guildId: GUILD, sessionId: session, actor: 'admin', openingMemberId: 'ann' });
    expect(added.openingCents).toBe(cash);
  });
  afterAll(async () => {
    await gateway?.close();
    await store?.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const strikes = async () =>
    (await store.query('SELECT dealing_key FROM fund_strikes ORDER BY at')).map((r) => r.dealing_key);

  it('strikes once on the dealing day, from its time on', async () => {
    now = at(10, 8, 59);
    await fund.tick([GUILD]);
    expect(await strikes()).toEqual([]);
    now = at(10, 9, 1);
    await fund.tick([GUILD]);
    now = at(10, 9, 30);
    await fund.tick([GUILD]);
    expect(await strikes()).toEqual(['2026-01-10']);
    const struck = await fund.repo.lastStrike(GUILD);
    expect(posts.get(`fund-strike:${struck?.strikeId}`)?.channelId).toBe('results');
    expect((await fund.lastStrike(GUILD))?.units).toBeGreaterThan(0);
  });

  it('says once why a dealing day is not struck, and strikes it at a later check', async () => {
    await store.query(
      `INSERT INTO bet_records (placement_id, slip_id, guild_key, channel_id, user_id, session_id, bookie, day,
         stake_cents, payload, state, created_at, updated_at) VALUES ('p1', 's1', ?, 'c', 'u', ?, 'bookie_b', 'd', 500, '{}', 'unknown', 1, 1)`,
      GUILD,
      session,
    );
    now = at(11, 9, 5);
    await fund.tick([GUILD]);
    now = at(11, 9, 6);
    await fund.tick([GUILD]);
    const notice = posts.get(`fund-held:${GUILD}:2026-01-11`);
    expect(notice?.view.content).toMatch(/not struck yet: 1 bet is in flight or unresolved \(unknown\).*tried again/);
    expect(await strikes()).toEqual(['2026-01-10']);
    await store.query("UPDATE bet_records SET state = 'not_placed' WHERE placement_id = 'p1'");
    now = at(11, 9, 7);
    await fund.tick([GUILD]);
    expect(await strikes()).toEqual(['2026-01-10', '2026-01-11']);
  });

  it('posts no statement of a month the fund opened in the middle of', async () => {
    expect([...posts.keys()].filter((k) => k.startsWith(`fund-month:${GUILD}:`))).toEqual([]);
  });

  it("accrues the fee in January, crystallises it at February's first strike as owed to the manager, and pays it by withdrawal", async () => {
    const control = new SandboxControl(sandbox.url);
    await updateSettings(store, GUILD, (s) => ({ ...s, fundFeePercent: 20, fundFeeManagerId: 'mgr' }));
    // The bank makes $100 (credited straight to the account, accepted by the treasurer as the fund's gain: the cash
    // bridge names every move), seen after the next heartbeat.
    await control.deposit(session, 100);
    const job = await gateway.transactions.list({ session_id: session, days_back: 2, limit: 50 });
    const out = await job.wait();
    const deposit = out.status === 'completed' ? out.result.transactions?.find((t) => t.type === 'deposit') : undefined;
    expect(await fund.explain({ guildId: GUILD, txnId: String(deposit?.id), actor: 'admin', reason: 'a win' })).toBe(
      true,
    );
    await control.advance(31_000);
    now = at(12, 9, 1);
    await fund.tick([GUILD]);
    const january = await fund.repo.lastStrike(GUILD);
    expect(january?.dealingKey).toBe('2026-01-12');
    expect(january?.feeCents).toBe(2_000);
    expect(january?.inputs.fee).toMatchObject({ crystallisedCents: 0, accruedAfterCents: 2_000 });
    now = Date.UTC(2026, 1, 2, 9, 1);
    await fund.tick([GUILD]);
    const february = await fund.repo.lastStrike(GUILD);
    expect(february?.dealingKey).toBe('2026-02-02');
    expect(february?.navAfterCents).toBe(january?.navAfterCents);
    expect(february?.inputs.fee).toMatchObject({ crystallisedCents: 2_000, accruedAfterCents: 0 });
    // The tick that struck also started the fee's withdrawal; the beat follows it to the gateway's answer.
    const deadline = Date.now() + 20_000;
    let fee = (await fund.repo.cashouts(GUILD)).find((c) => c.ask.kind === 'fee');
    while (fee?.state !== 'withdrawn' && Date.now() < deadline) {
      await fund.withdrawals();
      await new Promise((r) => setTimeout(r, 100));
      fee = (await fund.repo.cashouts(GUILD)).find((c) => c.ask.kind === 'fee');
    }
    expect(fee).toMatchObject({ memberId: 'mgr', cents: 2_000, state: 'withdrawn' });
    expect((await fund.markPaid(GUILD, fee?.cashoutId as string, 'admin')).state).toBe('paid');
    // Paid out, the fee leaves NAV where the February strike put it.
    await control.advance(31_000);
    now = Date.UTC(2026, 1, 3, 9, 1);
    await fund.tick([GUILD]);
    expect((await fund.repo.lastStrike(GUILD))?.navAfterCents).toBe(february?.navAfterCents);
  });

  it('posts the monthly statement once a month, from the first month the fund was open at its start', async () => {
    await fund.tick([GUILD]);
    const monthly = [...posts.keys()].filter((k) => k.startsWith(`fund-month:${GUILD}:`));
    expect(monthly).toEqual([`fund-month:${GUILD}:2026-02`]);
    expect(textOf(posts.get(monthly[0] as string)?.view)).toMatch(/<@ann>: [\d,]+\.\d{6} units/);
  });
});

const textOf = (v: MessageView | undefined) => `${v?.content ?? ''} ${JSON.stringify(v?.embeds ?? [])}`;
