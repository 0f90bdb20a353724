// Diagnosis, not a figure: where figure 22's per-confirm database and bot CPU go. Starts a throwaway cluster with
// pg_stat_statements, runs the confirm-path child (bench/children/confirm-path.ts) as one bot process in its own
// 0.2-core cpu group (as figure 22 does; without cgroup v1 it runs unconfined) for ROUNDS runs of SECONDS seconds,
// and prints each run's rate and costs per confirm (with the machine's other work, which inflates both), then the
// last run's statements per confirm ordered by execution time. `npx tsx bench/confirm-statements.ts`; ROUNDS=3,
// SECONDS=5 by default.
import { fork } from 'node:child_process';
import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SlipRepo } from '../src/bot/betting/slips.js';
import { openStore } from '../src/bot/store/index.js';
import { startSandbox } from '../src/sandbox/index.js';
import { createDatabase, startPgCluster } from '../test/pg/cluster.js';
import { benchPick, benchSlip, cgroupMissing, next, pgCpuSeconds } from './figures/scale-out.js';
import { machineBusySeconds } from './lib/proc.js';

const CHILD = fileURLToPath(new URL('./children/confirm-path.ts', import.meta.url));
const SECONDS = Number(process.env.SECONDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SLIPS = 800;
const API_KEY = 'sandbox-key-alpha';

interface Msg {
  type: string;
  message?: string;
  ms: number;
  placed: number;
  failed: number;
  cpuMs: number;
  statements: number;
  spans: Record<string, number>;
}

const confine = cgroupMissing() === null;
const cluster = await startPgCluster({ settings: { shared_preload_libraries: 'pg_stat_statements' } });
const port = Number(new URL(cluster.adminUrl).port);
const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', quiet: true, seed: 1 });
try {
  const url = await createDatabase(cluster.adminUrl, 'stmts');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query('CREATE EXTENSION pg_stat_statements');
  const { pick, session } = await benchPick(sandbox.url, API_KEY);
  const store = await openStore(url);
  const slips = new SlipRepo(store);
  for (let round = 1; round <= ROUNDS; round++) {
    const prefix = `r${round}p0`;
    const now = Date.now();
    for (let i = 0; i < SLIPS; i++) {
      await slips.create(benchSlip(`${prefix}-${i}`, `${prefix}-u-${i % 64}`, pick, session.session_id, now));
    }
    const child = fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const group = confine ? `/sys/fs/cgroup/cpu/bench-stmts-${process.pid}-${round}` : undefined;
    if (group) {
      mkdirSync(group);
      writeFileSync(join(group, 'cpu.cfs_period_us'), '100000');
      writeFileSync(join(group, 'cpu.cfs_quota_us'), '20000');
      writeFileSync(join(group, 'cgroup.procs'), String(child.pid));
    }
    try {
      await next<Msg>(child, 'ready');
      child.send({
        type: 'prepare',
        url,
        gatewayUrl: sandbox.url,
        apiKey: API_KEY,
        prefix,
        slips: SLIPS,
        concurrency: 16,
        seconds: SECONDS,
        leader: false,
      });
      await next<Msg>(child, 'prepared');
      await db.query('SELECT pg_stat_statements_reset()');
      const db0 = pgCpuSeconds(port);
      const busy0 = machineBusySeconds();
      const self0 = process.cpuUsage();
      const done = next<Msg>(child, 'done');
      child.send({ type: 'go' });
      const d = await done;
      const dbCpu = pgCpuSeconds(port) - db0;
      const self = process.cpuUsage(self0);
      const other = machineBusySeconds() - busy0 - dbCpu - d.cpuMs / 1000 - (self.user + self.system) / 1e6;
      const n = Math.max(1, d.placed);
      const steps = Object.entries(d.spans)
        .map(([k, v]) => `${k} ${(v / n).toFixed(0)}`)
        .join(', ');
      console.log(
        `run ${round}: ${((d.placed / d.ms) * 1000).toFixed(1)} confirms/s, bot CPU ${(d.cpuMs / n).toFixed(1)} ms/confirm, ` +
          `database CPU ${((dbCpu * 1000) / n).toFixed(1)} ms/confirm (${(dbCpu / (d.ms / 1000)).toFixed(2)} cores), ` +
          `${(d.statements / n).toFixed(1)} store calls/confirm, other work ${Math.max(0, other / (d.ms / 1000)).toFixed(2)} cores, ` +
          `ms per confirm by step: ${steps}, ${d.failed} failed`,
      );
      if (round === ROUNDS) {
        const { rows } = await db.query<{ calls: string; rows: string; ms: number; hit: string; q: string }>(
          `SELECT calls, rows, total_exec_time AS ms, shared_blks_hit + shared_blks_read AS hit,
             left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS q
           FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
           ORDER BY total_exec_time DESC LIMIT 25`,
        );
        console.log(`per confirm (${d.placed} confirms): calls, rows, exec ms, buffers, statement`);
        for (const r of rows) {
          const per = (v: number | string, digits: number) => (Number(v) / n).toFixed(digits).padStart(7);
          console.log(`${per(r.calls, 2)} ${per(r.rows, 2)} ${per(r.ms, 3)} ${per(r.hit, 0)}  ${r.q}`);
        }
      }
    } finally {
      if (child.exitCode === null) {
        child.send({ type: 'stop' });
        await new Promise((r) => child.once('exit', r));
      }
      if (group) rmdirSync(group);
    }
  }
  await store.close();
  await db.end();
} finally {
  await sandbox.close();
  await cluster.stop();
}
