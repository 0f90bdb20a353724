// Migration 14 (decision 2015): bet_records.pnl, the gateway's dollars as REAL, becomes pnl_cents, whole cents. On both
// engines: every stored value converts as centsFromDollars read it before (halves included), and a copy of a store
// with bets the sandbox settled, its P&L in dollars as the previous release stored it, migrates to the gateway's
// cents; the day's reconciliation then finds nothing wrong and the ledger verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileDay } from '../../../src/bot/audit/daily-reconciliation.js';
import { BetRecordRepo } from '../../../src/bot/betting/bet-records.js';
import { SettlementWatcher } from '../../../src/bot/betting/settlement.js';
import { SlipRepo } from '../../../src/bot/betting/slips.js';
import { missingBetView, settlementView } from '../../../src/bot/betting/views/notice.js';
import { silentLogger } from '../../../src/bot/config/logger.js';
import { Ledger, verifyText } from '../../../src/bot/ledger/index.js';
import { dayIn } from '../../../src/bot/model/dates.js';
import { bettable } from '../../../src/bot/model/markets.js';
import { centsFromDollars } from '../../../src/bot/model/money.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import type { Outbox } from '../../../src/bot/outbox/index.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { GatewayClient } from '../../../src/gateway/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { ENGINES, type EngineName, freshStoreUrl } from '../../pg/engines.js';
import { API_KEY } from '../../support/harness.js';
import { SandboxControl } from '../../support/sandbox-control.js';

/** The last version with the dollars column. */
const BEFORE = 13;
const SESSION = '5e55a1fa-0000-4000-8000-00000000000a';
const GUILD = 'g1';

/** Dollar amounts a book could send, among them the ones whose cents sit at a half or just off it in binary. */
const DOLLARS = [
  0,
  8.5,
  -20.5,
  0.13,
  1375,
  -10,
  0.145,
  1.005,
  2.675,
  -0.125,
  -0.005,
  0.005,
  -2.5e-2,
  0.015,
  1e-7,
  -1e-7,
  12_345_678.91,
  -99_999.995,
  0.1 + 0.2,
  4.35,
  -4.35,
];

/** The columns of a table as the store has it (each engine keeps its own catalogue). */
async function columnsOf(store: BotStore, engine: EngineName, table: string): Promise<string[]> {
  const rows =
    engine === 'sqlite'
      ? await store.query<{ name: string }>('SELECT name FROM pragma_table_info(?)', table)
      : await store.query<{ name: string }>(
          'SELECT column_name AS name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position',
          table,
        );
  return rows.map((r) => r.name);
}

async function insertRow(store: BotStore, table: string, row: Record<string, unknown>): Promise<void> {
  const cols = Object.keys(row);
  await store.query(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    ...cols.map((c) => row[c]),
  );
}

const record = (i: number, pnl: number | null) => ({
  placement_id: `p${i}`,
  slip_id: `s${i}`,
  guild_key: GUILD,
  channel_id: 'c',
  user_id: 'u',
  session_id: SESSION,
  bookie: 'bookie_a',
  day: '2026-11-28',
  stake_cents: 1_000,
  payload: '{}',
  state: pnl === null ? 'placed' : 'settled',
  settled_status: pnl === null ? null : 'won',
  pnl,
  created_at: 1,
  updated_at: 1,
});

let sandbox: RunningSandbox;
let gateway: GatewayClient;
let control: SandboxControl;
/** The desk's clock is the sandbox's, pinned to a morning: the day reconciled holds every bet, whatever the hour. */
const now = () => sandbox.sb.clock.now().getTime();

/** Two selections of each of two prematch events at bookie_a: each event settles one bet won, the other lost. */
async function picks(): Promise<Array<{ epk: string; sport: string; ref: string; odds: number; label: string }>> {
  const page = await gateway.events.list({ status: 'prematch', limit: 50 });
  const out: Array<{ epk: string; sport: string; ref: string; odds: number; label: string }> = [];
  for (const e of page.data.filter((x) => (x.books ?? []).includes('bookie_a'))) {
    const card = await gateway.markets.get({ epk: e.event_id, bookie: 'bookie_a' });
    const market = card.markets.find((m) => bettable(m).length >= 2);
    if (!market) continue;
    for (const s of bettable(market).slice(0, 2)) {
      out.push({
        epk: e.event_id,
        sport: e.sport,
        ref: s.market_ref,
        odds: s.odds,
        label: String(s.selection ?? s.market_ref),
      });
    }
    if (out.length >= 4) return out;
  }
  throw new Error('the sandbox lists too few bettable events at bookie_a');
}

/** Bets placed at the sandbox and settled there, each through the desk's bet record and settlement watcher. */
async function settleRealBets(store: BotStore): Promise<number> {
  const slips = new SlipRepo(store);
  const records = new BetRecordRepo(store);
  const all = await picks();
  const place = async (p: (typeof all)[number], i: number) => {
    // Stakes with odd cents, so the book's P&L has cents of its own.
    const stakeCents = 737 + i * 111;
    const payload = {
      epk: p.epk,
      sport: p.sport,
      eventName: p.epk,
      bookie: 'bookie_a',
      sessionId: SESSION,
      marketKey: 'm',
      marketLabel: 'Market',
      selectionLabel: p.label,
      marketRef: p.ref,
      stakeCents,
      shownOdds: p.odds,
    } as SlipPayload;
    const slip = { slipId: `s${i}`, guildId: GUILD, channelId: 'c', messageId: null, userId: 'u', payload };
    await slips.create({ ...slip, createdAt: now(), expiresAt: now() + 60_000 });
    const claimed = await records.claim({
      placementId: `p${i}`,
      slipId: `s${i}`,
      userId: 'u',
      guildKey: GUILD,
      day: dayIn(now(), 'UTC'),
      stakeCents,
      dayLimitCents: 1_000_000,
      now: now(),
    });
    if (claimed.kind !== 'claimed') throw new Error(`claim ${i}: ${claimed.kind}`);
    const handle = await gateway.bets.place({
      session_id: SESSION,
      category: 'sports',
      sport: p.sport,
      epk: p.epk,
      market_ref: p.ref,
      stake: stakeCents / 100,
      target_odds: 1.01,
    });
    const outcome = await handle.wait();
    const result = outcome.status === 'completed' ? outcome.result.bet_result : undefined;
    if (!result?.bet_id) throw new Error(`bet ${i} was not placed: ${JSON.stringify(outcome)}`);
    await records.markPlaced(`p${i}`, { betId: result.bet_id, odds: result.odds ?? p.odds }, now());
  };
  await Promise.all(all.map(place));
  for (const epk of new Set(all.map((p) => p.epk))) await control.settle(epk);
  const outbox = { create: async () => undefined } as unknown as Outbox;
  const watcher = new SettlementWatcher({
    gateway,
    store,
    records,
    outbox,
    logger: silentLogger,
    now,
    intervalMs: 60_000,
    callbackUrl: undefined,
    present: { settled: settlementView, missing: missingBetView },
  });
  expect(await watcher.tick()).toBe(all.length);
  return all.length;
}

describe.each(ENGINES)('bet P&L in cents (migration 14) on %s', (engine) => {
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      control: true,
      seed: 1,
      quiet: true,
      speed: 10,
      start: new Date('2026-11-28T09:00:00Z'),
    });
    gateway = new GatewayClient({ baseUrl: sandbox.url, apiKey: API_KEY, poller: { intervalMs: 50, now } });
    control = new SandboxControl(sandbox.url);
  });
  afterAll(async () => {
    await gateway?.close();
    await sandbox?.close();
  });

  it('converts every stored dollar P&L to the cents centsFromDollars read from it, and drops the dollars', async () => {
    const { url, cleanup } = await freshStoreUrl(engine);
    try {
      const old = await openStore(url, { migrateTo: BEFORE });
      for (const [i, pnl] of [...DOLLARS, null].entries()) await insertRow(old, 'bet_records', record(i, pnl));
      await old.close();
      const store = await openStore(url);
      try {
        const rows = await store.query<{ placement_id: string; pnl_cents: number | null }>(
          'SELECT placement_id, pnl_cents FROM bet_records ORDER BY created_at, placement_id',
        );
        const got = new Map(rows.map((r) => [r.placement_id, r.pnl_cents === null ? null : Number(r.pnl_cents)]));
        // + 0 makes Math.round's -0 the 0 a store gives back.
        const want = new Map([...DOLLARS, null].map((d, i) => [`p${i}`, d === null ? null : centsFromDollars(d) + 0]));
        expect(got).toEqual(want);
        expect(await columnsOf(store, engine, 'bet_records')).not.toContain('pnl');
      } finally {
        await store.close();
      }
    } finally {
      cleanup();
    }
  });

  it("migrates a copy of a store with settled bets to the gateway's cents; the day reconciles and the ledger verifies", async () => {
    const live = await freshStoreUrl(engine, { migrated: true });
    const copy = await freshStoreUrl(engine);
    const store = await openStore(live.url);
    try {
      const bets = await settleRealBets(store);
      const atGateway = new Map((await control.state()).bets.map((b) => [b.bet.bet_id, b]));
      expect(atGateway.size).toBe(bets);
      // The copy, as the previous release kept it: the same rows, each bet's P&L the gateway's dollars as it came.
      const old = await openStore(copy.url, { migrateTo: BEFORE });
      for (const table of ['slips', 'bet_records', 'ledger']) {
        const cols = await columnsOf(old, engine, table);
        for (const row of await store.query<Record<string, unknown>>(`SELECT * FROM ${table}`)) {
          const kept = Object.fromEntries(cols.filter((c) => c in row).map((c) => [c, row[c]]));
          if (table === 'bet_records') kept.pnl = atGateway.get(String(row.bet_id))?.pnl;
          await insertRow(old, table, kept);
        }
      }
      const dollars = await old.query<{ bet_id: string; pnl: number }>('SELECT bet_id, pnl FROM bet_records');
      expect(dollars.filter((r) => typeof r.pnl === 'number')).toHaveLength(bets);
      await old.close();

      const migrated = await openStore(copy.url);
      try {
        const rows = await migrated.query<{ placement_id: string; bet_id: string; pnl_cents: number }>(
          'SELECT placement_id, bet_id, pnl_cents FROM bet_records ORDER BY placement_id',
        );
        expect(rows.map((r) => [r.bet_id, Number(r.pnl_cents)])).toEqual(
          rows.map((r) => [r.bet_id, centsFromDollars(atGateway.get(r.bet_id)?.pnl ?? Number.NaN)]),
        );
        // Each the amount its settlement entry recorded when the bet settled, and the live store's own.
        const settlements = await new Ledger(migrated).allOfKinds(['settlement']);
        expect(new Map(rows.map((r) => [r.placement_id, Number(r.pnl_cents)]))).toEqual(
          new Map(settlements.map((e) => [e.ref, e.amountCents])),
        );
        const liveRows = await store.query<{ placement_id: string; pnl_cents: number }>(
          'SELECT placement_id, pnl_cents FROM bet_records ORDER BY placement_id',
        );
        expect(rows.map((r) => Number(r.pnl_cents))).toEqual(liveRows.map((r) => Number(r.pnl_cents)));
        expect(new Set(rows.map((r) => Math.sign(Number(r.pnl_cents))))).toEqual(new Set([1, -1]));

        const day = dayIn(now(), 'UTC');
        expect(day).toBe('2026-11-28');
        const report = await reconcileDay({
          store: migrated,
          gateway,
          callbackUrl: undefined,
          guildKey: GUILD,
          day,
          timezone: 'UTC',
          now: now(),
        });
        expect(report.mismatches).toEqual([]);
        expect(report.sessions.find((s) => s.sessionId === SESSION)).toMatchObject({ unread: false, matched: bets });
        expect(verifyText(await new Ledger(migrated).verify())).toMatch(/^The ledger is intact/);
      } finally {
        await migrated.close();
      }
    } finally {
      await store.close();
      live.cleanup();
      copy.cleanup();
    }
  }, 60_000);
});
