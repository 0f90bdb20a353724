// Figure 17: a fund strike over 100 members and 5,000 open bets, on SQLite on disk and on PostgreSQL, against the
// sandbox gateway over HTTP: the balance read, the checks, and the one transaction that values the fund, issues
// units for 5 contributions, redeems 2 cash-outs and writes every ledger entry (target: p95 < 1 s).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/bot/config/logger.js';
import { FundService } from '../../src/bot/fund/fund-service.js';
import { openStore } from '../../src/bot/store/index.js';
import { fundViews } from '../../src/bot/views/fund-presenter.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { createDatabase, startPgCluster } from '../../test/pg/cluster.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { seedFund } from '../lib/fund-seed.js';
import { SANDBOX_KEY } from '../lib/stack.js';
import { percentile } from '../lib/stats.js';

const MEMBERS = 100;
const OPEN_BETS = 5_000;
const STRIKES = 20;
const GUILD = 'bench-guild';

async function run(url: string, gatewayUrl: string, sessionId: string): Promise<number[]> {
  const store = await openStore(url);
  const gateway = new GatewayClient({ baseUrl: gatewayUrl, apiKey: SANDBOX_KEY });
  try {
    const now = Date.now();
    const { memberIds } = await seedFund(store, {
      guildKey: GUILD,
      members: MEMBERS,
      openBets: OPEN_BETS,
      sessionId,
      now,
    });
    const fund = new FundService({
      store,
      gateway,
      outbox: { has: async () => true, create: async () => undefined },
      present: fundViews,
      logger: createLogger({ level: 'error', write: () => undefined }),
      now: Date.now,
      callbackUrl: undefined,
    });
    const ms: number[] = [];
    for (let i = 0; i < STRIKES + 1; i++) {
      // Requests asked before the bets now open (so they are dealt), deposits already matched.
      const asked = now - 3 * 3_600_000 + i;
      for (let k = 0; k < 5; k++) {
        await store.query(
          `INSERT INTO fund_contributions (contribution_id, guild_key, member_id, amount_cents, session_id, state,
             deposit_id, recorded_by, created_at, updated_at) VALUES (?, ?, ?, 2500, ?, 'pending', ?, 'seed', ?, ?)`,
          `c-${i}-${k}`,
          GUILD,
          memberIds[(i * 5 + k) % MEMBERS],
          sessionId,
          `d-${i}-${k}`,
          asked,
          asked,
        );
      }
      for (let k = 0; k < 2; k++) {
        await store.query(
          `INSERT INTO fund_cashouts (cashout_id, guild_key, member_id, ask, state, requested_at, updated_at)
           VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
          `o-${i}-${k}`,
          GUILD,
          memberIds[(i * 7 + k + 50) % MEMBERS],
          JSON.stringify({ kind: 'amount', cents: 1_000 }),
          asked,
          asked,
        );
      }
      const t0 = performance.now();
      const r = await fund.strike(GUILD, { actor: null, dealingKey: `bench-${i}` });
      const took = performance.now() - t0;
      if (!r.ok) throw new Error(`strike ${i} refused: ${r.reason}`);
      if (i > 0) ms.push(took); // the first warms connections and the JIT
    }
    return ms;
  } finally {
    await gateway.close();
    await store.close();
  }
}

export async function fundStrike(): Promise<FigureResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-fund-'));
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', quiet: true });
  const cluster = await startPgCluster();
  try {
    const client = new GatewayClient({ baseUrl: sandbox.url, apiKey: SANDBOX_KEY });
    const sessionId = (await client.sessions.list()).find((s) => s.bookie === 'bookie_a' && s.active)?.session_id ?? '';
    await client.close();
    const sqlite = await run(`sqlite://${join(dir, 'bot.sqlite')}`, sandbox.url, sessionId);
    const pg = await run(await createDatabase(cluster.adminUrl, 'benchfund'), sandbox.url, sessionId);
    const note = (engine: string) =>
      `${STRIKES} strikes on ${engine}, each over ${MEMBERS} members and ${OPEN_BETS} placed unsettled bets, dealing 5 contributions and 2 cash-outs with their ledger entries; the balance read from the sandbox over HTTP`;
    return [
      figure({
        name: '17 fund strike p95 (100 members, 5,000 open bets, SQLite)',
        value: percentile(sqlite, 95),
        unit: 'ms',
        baseline: null,
        target: { on: 'value', op: '<', limit: 1_000 },
        note: note('SQLite on disk'),
      }),
      figure({
        name: '17 fund strike p95 (100 members, 5,000 open bets, PostgreSQL)',
        value: percentile(pg, 95),
        unit: 'ms',
        baseline: null,
        target: { on: 'value', op: '<', limit: 1_000 },
        note: note(`PostgreSQL ${cluster.version} (throwaway cluster)`),
      }),
    ];
  } finally {
    await cluster.stop();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
