// Figure 11: the confirm path's store work (the bet record's slip claim with the day's stake hold, then the job insert) in operations per
// second, on PostgreSQL vs SQLite from one bot process, and on PostgreSQL from two processes vs one; plus the
// p99 of that work per confirm (Confirm → 202 on record, less the gateway's own answer time) on each.
// Every side runs in child processes of the same shape, interleaved, medians over repeats.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, startPgCluster } from '../../test/pg/cluster.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { median, percentile } from '../lib/stats.js';

const CHILD = fileURLToPath(new URL('../children/store-confirm.ts', import.meta.url));
const OPS = 1_500;
const CONCURRENCY = 8;
const REPEATS = 3;

interface Done {
  ms: number;
  latencies: number[];
  claimed: number;
}

function next<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: { type: string; message?: string }) => {
      if (msg.type === 'error') reject(new Error(`store bench child: ${msg.message}`));
      else if (msg.type === type) resolve(msg as T);
      else return;
      child.off('message', onMessage);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`store bench child exited (${code}) before "${type}"`)));
  });
}

let run = 0;

/** Busy and total CPU time over every core of the machine, from the kernel's counters. */
function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const c of cpus()) {
    const t = c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle;
    total += t;
    busy += t - c.times.idle;
  }
  return { busy, total };
}

/** `processes` children on one store, each confirming OPS slips with CONCURRENCY at once; ops/s over all. */
async function confirmRun(
  url: string,
  processes: number,
): Promise<{ perSecond: number; latencies: number[]; busy: number }> {
  // tsx's loader is in this process's execArgv; the children inherit it.
  const children = Array.from({ length: processes }, () =>
    fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  try {
    await Promise.all(children.map((c) => next(c, 'ready')));
    run++;
    await Promise.all(
      children.map((c, i) => {
        c.send({ type: 'prepare', url, prefix: `r${run}p${i}`, ops: OPS, concurrency: CONCURRENCY });
        return next(c, 'prepared');
      }),
    );
    const before = cpuTimes();
    const done = await Promise.all(
      children.map((c) => {
        const d = next<Done>(c, 'done');
        c.send({ type: 'go' });
        return d;
      }),
    );
    const after = cpuTimes();
    const total = done.reduce((n, d) => n + d.claimed, 0);
    const ms = Math.max(...done.map((d) => d.ms));
    const busy = (after.busy - before.busy) / Math.max(1, after.total - before.total);
    return { perSecond: (total / ms) * 1000, latencies: done.flatMap((d) => d.latencies), busy };
  } finally {
    for (const c of children) {
      if (c.exitCode === null) c.send({ type: 'stop' });
    }
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  }
}

export async function storeConfirm(): Promise<FigureResult[]> {
  const cluster = await startPgCluster();
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
  try {
    const pgUrl = await createDatabase(cluster.adminUrl, 'bench');
    const sqliteUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
    const sides = {
      sqlite: () => confirmRun(sqliteUrl, 1),
      pg1: () => confirmRun(pgUrl, 1),
      pg2: () => confirmRun(pgUrl, 2),
    };
    const samples: Record<keyof typeof sides, { perSecond: number[]; latencies: number[]; busy: number[] }> = {
      sqlite: { perSecond: [], latencies: [], busy: [] },
      pg1: { perSecond: [], latencies: [], busy: [] },
      pg2: { perSecond: [], latencies: [], busy: [] },
    };
    const order: Array<keyof typeof sides> = ['sqlite', 'pg1', 'pg2'];
    // One warm-up round, then REPEATS rounds, the order rotating so no side always runs first.
    for (let i = 0; i <= REPEATS; i++) {
      for (let k = 0; k < order.length; k++) {
        const side = order[(i + k) % order.length] as keyof typeof sides;
        const r = await sides[side]();
        if (i === 0) continue;
        samples[side].perSecond.push(r.perSecond);
        samples[side].latencies.push(...r.latencies);
        samples[side].busy.push(r.busy);
      }
    }
    const ops = (s: keyof typeof sides) => median(samples[s].perSecond);
    const p99 = (s: keyof typeof sides) => percentile(samples[s].latencies, 99);
    const busy = (s: keyof typeof sides) => `${Math.round(median(samples[s].busy) * 100)}%`;
    const shape = `${OPS} confirms per process, ${CONCURRENCY} at once, median of ${REPEATS} interleaved rounds after a warm-up; each the bet record's claim of the slip with the day's stake hold (one INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING) and the job insert, on the real repositories`;
    return [
      figure({
        name: '11 confirm-path store ops: PostgreSQL vs SQLite (1 process)',
        value: ops('pg1'),
        unit: 'confirms/s',
        baseline: ops('sqlite'),
        target: { on: 'ratio', op: '>=', limit: 0.5 },
        note: `PostgreSQL ${cluster.version} on loopback (throwaway cluster, fsync off as for tests) vs SQLite WAL on disk; ${shape}`,
      }),
      figure({
        name: '11 confirm-path store ops: PostgreSQL 2 processes vs 1 (information)',
        value: ops('pg2'),
        unit: 'confirms/s',
        baseline: ops('pg1'),
        target: { on: 'ratio', op: '>=', limit: 0 },
        note: `shown for information: both processes, the database and the load share this machine's cores, so this reads the machine's CPU, not the design; figure 22 measures scale-out with each process in its own CPU allowance (decision 1762); two bot processes on one database vs one, the server on the same ${availableParallelism()} cores; the machine's CPU was ${busy('pg1')} busy during the one-process runs and ${busy('pg2')} during the two-process runs (load average ${loadavg()[0]?.toFixed(1)} at the end): a second process only adds throughput where the first leaves cores idle; ${shape}`,
      }),
      ...(['sqlite', 'pg1', 'pg2'] as const).map((s) =>
        figure({
          name: `11 confirm → 202 stored p99 (${{ sqlite: 'SQLite', pg1: 'PostgreSQL, 1 process', pg2: 'PostgreSQL, 2 processes' }[s]})`,
          value: p99(s),
          unit: 'ms',
          baseline: 3_000,
          target: { on: 'value', op: '<', limit: 3_000 },
          note: `store work per confirm, p50 ${percentile(samples[s].latencies, 50).toFixed(1)} ms over ${samples[s].latencies.length} confirms; baseline is Discord's 3 s acknowledgement window`,
        }),
      ),
    ];
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
