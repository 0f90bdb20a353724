// Figure 17: a fund strike over 100 members and 5,000 open bets, on SQLite on disk and on PostgreSQL, against the
// sandbox gateway over HTTP: the balance read, the account's history (a gateway job, its result by webhook to the
// bot's receiver as the desk runs it), the checks, and the one transaction that values the fund, issues units for 5
// contributions, redeems 2 cash-outs and writes every ledger entry. The history job waits on the bookmaker's
// simulated work (the sandbox's 300-1500 ms), which no desk can shorten: the target (p95 < 1 s) is on the strike
// less that wait (each strike's longest history job, submit to result), and the whole strike is shown beside it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/bot/config/logger.js';
import { FundService } from '../../src/bot/fund/fund-service.js';
import { fundViews } from '../../src/bot/fund/views/fund-presenter.js';
import type { GatewayPort } from '../../src/bot/gateway-port.js';
import { OnceRepo } from '../../src/bot/receiver/once.js';
import { startReceiver, WEBHOOK_PATH } from '../../src/bot/receiver/receiver.js';
import { openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { createDatabase, startPgCluster } from '../../test/pg/cluster.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { seedFund } from '../lib/fund-seed.js';
import { SANDBOX_KEY } from '../lib/stack.js';
import { percentile } from '../lib/stats.js';

const OWN = { on: 'value', op: '<', limit: 1_000 } as const;
const WHOLE = { on: 'value', op: '<', limit: 2_500 } as const;
/** The rows, in order: the strike less the bookmaker's work on each engine, then the whole strike. */
export const STRIKE_ROWS = [
  ...['SQLite', 'PostgreSQL'].map((engine) => ({
    name: `17 fund strike p95 less the bookmaker's work (100 members, 5,000 open bets, ${engine})`,
    unit: 'ms',
    target: OWN,
  })),
  ...['SQLite', 'PostgreSQL'].map((engine) => ({
    name: `17 fund strike p95 whole, with the history job (${engine})`,
    unit: 'ms',
    target: WHOLE,
  })),
];

const MEMBERS = 100;
const OPEN_BETS = 5_000;
const STRIKES = 20;
const GUILD = 'bench-guild';

interface Strikes {
  /** Each strike, whole. */
  whole: number[];
  /** Each strike less its longest history job (submit to result): the desk's own time. */
  own: number[];
  /** Each strike's longest history job. */
  jobs: number[];
}

/**
 * The gateway as the fund service sees it, timing each history job from its submit to its result (the account
 * reads run at once, so a strike waits for its longest).
 */
function timedHistory(gateway: GatewayClient, jobMs: number[]): GatewayPort {
  const transactions = {
    list: async (...args: Parameters<GatewayClient['transactions']['list']>) => {
      const t0 = performance.now();
      const handle = await gateway.transactions.list(...args);
      return {
        ...handle,
        wait: async (...w: Parameters<typeof handle.wait>) => {
          const outcome = await handle.wait(...w);
          jobMs.push(performance.now() - t0);
          return outcome;
        },
      };
    },
  } as GatewayClient['transactions'];
  return new Proxy(gateway, {
    get: (target, key) => (key === 'transactions' ? transactions : Reflect.get(target, key, target)),
  });
}

async function run(url: string, gatewayUrl: string, sessionId: string): Promise<Strikes> {
  const store = await openStore(url);
  const gateway = new GatewayClient({ baseUrl: gatewayUrl, apiKey: SANDBOX_KEY });
  // The desk's receiver: job results arrive by webhook, as in production (polling stays the fallback).
  const receiver = await startReceiver({
    port: 0,
    maxBodyBytes: 64 * 1024,
    toleranceMs: 5 * 60_000,
    apiKey: SANDBOX_KEY,
    once: new OnceRepo(store),
    onDelivery: async (body) => {
      gateway.jobs.resolveFromWebhook(body);
    },
    logger: createLogger({ level: 'error', write: () => undefined }),
  });
  try {
    const now = Date.now();
    const { memberIds } = await seedFund(store, {
      guildKey: GUILD,
      members: MEMBERS,
      openBets: OPEN_BETS,
      sessionId,
      now,
    });
    const jobMs: number[] = [];
    const fund = new FundService({
      store,
      gateway: timedHistory(gateway, jobMs),
      outbox: { has: async () => true, create: async () => undefined },
      present: fundViews,
      logger: createLogger({ level: 'error', write: () => undefined }),
      now: Date.now,
      callbackUrl: `${receiver.url}${WEBHOOK_PATH}`,
    });
    const out: Strikes = { whole: [], own: [], jobs: [] };
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
      jobMs.length = 0;
      const t0 = performance.now();
      const r = await fund.strike(GUILD, { actor: null, dealingKey: `bench-${i}` });
      const took = performance.now() - t0;
      if (!r.ok) throw new Error(`strike ${i} refused: ${r.reason}`);
      if (jobMs.length === 0)
        throw new Error(`strike ${i} read no account history: the figure would not be the strike's`);
      if (i === 0) continue; // the first warms connections and the JIT
      const job = Math.max(...jobMs);
      out.whole.push(took);
      out.jobs.push(job);
      out.own.push(took - job);
    }
    return out;
  } finally {
    await receiver.close();
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
    const note = (engine: string, r: Strikes) =>
      `${STRIKES} strikes on ${engine}, each over ${MEMBERS} members and ${OPEN_BETS} placed unsettled bets, dealing 5 contributions and 2 cash-outs with their ledger entries; the balance and the account's history read from the sandbox over HTTP, the history job's result by webhook to the bot's receiver; each strike less its history job (submit to result: p50 ${Math.round(percentile(r.jobs, 50))} ms, p95 ${Math.round(percentile(r.jobs, 95))} ms, the sandbox's simulated bookmaker work)`;
    const whole = (engine: string) =>
      `the same ${STRIKES} strikes on ${engine} whole, with the history job's wait; target: the 1 s budget over the longest bookmaker work the sandbox simulates (1.5 s)`;
    return [
      figure({
        ...STRIKE_ROWS[0]!,
        value: percentile(sqlite.own, 95),
        baseline: null,
        note: note('SQLite on disk', sqlite),
      }),
      figure({
        ...STRIKE_ROWS[1]!,
        value: percentile(pg.own, 95),
        baseline: null,
        note: note(`PostgreSQL ${cluster.version} (throwaway cluster)`, pg),
      }),
      figure({
        ...STRIKE_ROWS[2]!,
        value: percentile(sqlite.whole, 95),
        baseline: null,
        note: whole('SQLite on disk'),
      }),
      figure({
        ...STRIKE_ROWS[3]!,
        value: percentile(pg.whole, 95),
        baseline: null,
        note: whole('PostgreSQL'),
      }),
    ];
  } finally {
    await cluster.stop();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
