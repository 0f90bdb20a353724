// Figure 22: scale-out as separate machines would show it. Each bot process runs in its own CPU allowance (a
// cgroup v1 cpu group with a CFS quota), the database, the sandbox gateway and this driver outside them, and each
// runs the whole confirm path (bench/children/confirm-path.ts). 2 processes vs 1 and 4 vs 1 at the same allowance
// each, paired rounds (median of per-round ratios), with PostgreSQL's CPU and its lock waits reported beside them;
// then the same with the leader-only work (settlement watcher, reconciler) running in whichever process leads.
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SlipRepo } from '../../src/bot/betting/slips.js';
import { openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { createDatabase, startPgCluster } from '../../test/pg/cluster.js';
import { type BetPick, betPicks } from '../lib/bet-picks.js';
import { type FigureResult, figure, notMeasured, type Target } from '../lib/figure.js';
import { median, medianRatio, percentile } from '../lib/stats.js';

const CHILD = fileURLToPath(new URL('../children/confirm-path.ts', import.meta.url));
const CGROUP_CPU = '/sys/fs/cgroup/cpu';
/** Each bot process's allowance: this share of one core (CFS quota over a 100 ms period). */
const CPU_SHARE = 0.2;
const PERIOD_US = 100_000;
const SECONDS = 5;
const SLIPS = 800;
const CONCURRENCY = 16;
const ROUNDS = 2;
const API_KEY = 'sandbox-key-alpha';

export const SCALE_ROWS: { name: string; unit: string; target: Target }[] = [
  {
    name: '22 whole confirm path, 2 processes vs 1 (own CPU allowance each)',
    unit: 'confirms/s',
    target: { on: 'ratio', op: '>=', limit: 1.8 },
  },
  {
    name: '22 whole confirm path, 4 processes vs 1 (own CPU allowance each)',
    unit: 'confirms/s',
    target: { on: 'ratio', op: '>=', limit: 3.2 },
  },
  {
    name: '22 … with leader-only work, 2 processes vs 1',
    unit: 'confirms/s',
    target: { on: 'ratio', op: '>=', limit: 1.8 },
  },
  {
    name: '22 … with leader-only work, 4 processes vs 1',
    unit: 'confirms/s',
    target: { on: 'ratio', op: '>=', limit: 3.2 },
  },
];

/** Why cpu groups cannot be made here, or null when they can. */
export function cgroupMissing(): string | null {
  if (!existsSync(join(CGROUP_CPU, 'cgroup.procs'))) return `no cgroup v1 cpu controller at ${CGROUP_CPU}`;
  const probe = join(CGROUP_CPU, `bench-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    writeFileSync(join(probe, 'cpu.cfs_quota_us'), String(CPU_SHARE * PERIOD_US));
    rmdirSync(probe);
    return null;
  } catch (err) {
    return `cannot create a cpu group under ${CGROUP_CPU} (${(err as Error).message}); run as root on a cgroup v1 machine`;
  }
}

/** The confirm-path child's next message of `type`; rejects on its error message or its exit. */
export function next<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: { type: string; message?: string }) => {
      if (msg.type === 'error') reject(new Error(`confirm-path child: ${msg.message}`));
      else if (msg.type === type) resolve(msg as T);
      else return;
      child.off('message', onMessage);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`confirm-path child exited (${code}) before "${type}"`)));
  });
}

/** CPU seconds used so far by the PostgreSQL server listening on `port` and all its backends. */
export function pgCpuSeconds(port: number): number {
  const stats = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), cmd }];
      } catch {
        return [];
      }
    });
  const master = stats.find((s) => s.cmd.includes('postgres') && s.cmd.includes(`-p\u0000${port}`));
  if (!master) return 0;
  const ticks = stats.filter((s) => s.pid === master.pid || s.ppid === master.pid).reduce((a, s) => a + s.ticks, 0);
  return ticks / 100;
}

/**
 * CPU seconds the whole machine has spent busy so far (user, nice, system, irq, softirq, steal in /proc/stat), 0
 * without /proc: less what the run's own processes used, it is the CPU other work took during a run.
 */
export function machineBusySeconds(): number {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    return [0, 1, 2, 5, 6, 7].reduce((n, i) => n + (cpu[i] ?? 0), 0) / 100;
  } catch {
    return 0;
  }
}

interface Run {
  perSecond: number;
  latencies: number[];
  failed: number;
  cpuMsPerConfirm: number;
  /** Store calls (statements and transactions) per confirm, as the desk's metrics count them. */
  statementsPerConfirm: number;
  /** Growth of the database per confirm, bytes. */
  bytesPerConfirm: number;
  dbCpu: number;
  lockWaits: number[];
  /** Sessions waiting on the ledger chain's lock, per sample. */
  chainWaits: number[];
  /** Wall ms per confirm in each step of the confirm path, summed over the processes. */
  spans: Record<string, number>;
  /** Share of CFS periods in which a bot process's group was throttled (its allowance spent), 0–1. */
  throttled: number;
  /** CPU of this driver process (the sandbox gateway and the samplers), in cores. */
  driverCpu: number;
  /**
   * CPU of everything else on the machine during the run, in cores: the machine's busy time less the bot processes',
   * the database's and this driver's. Per-confirm CPU (the bot's and the database's) reads higher when this is high.
   */
  otherCpu: number;
  /** Ms per confirm the bot processes' main threads waited, runnable, for a CPU (throttled or held off). */
  runWaitPerConfirm: number;
  /** Ms per confirm the bot processes' groups were throttled (their allowance spent). */
  throttledPerConfirm: number;
}

interface Done {
  ms: number;
  placed: number;
  failed: number;
  latencies: number[];
  cpuMs: number;
  statements: number;
  spans: Record<string, number>;
  runWaitMs: number;
}

/** The ledger chain lock's advisory key as pg_locks shows it (key space 0x53440002, then hashtext of the key). */
const CHAIN_LOCK_WAITS = `SELECT COUNT(*) FILTER (WHERE NOT granted) AS n,
  COUNT(*) FILTER (WHERE NOT granted AND locktype = 'advisory' AND classid = ${0x5344_0002}
    AND objid::bigint = (hashtext('ledger:append')::bigint + 4294967296) % 4294967296) AS chain
  FROM pg_locks`;

/** nr_periods, nr_throttled and throttled_time (ns) of a cpu group. */
function throttling(group: string): { periods: number; throttled: number; ns: number } {
  const stat = readFileSync(join(group, 'cpu.stat'), 'utf8');
  const field = (k: string) => Number(new RegExp(`^${k} (\\d+)`, 'm').exec(stat)?.[1] ?? 0);
  return { periods: field('nr_periods'), throttled: field('nr_throttled'), ns: field('throttled_time') };
}

/** The selection every confirm-path slip bets on, and a session on its book. */
export async function benchPick(sandboxUrl: string, apiKey: string) {
  const [pick] = await betPicks(sandboxUrl, apiKey, 1);
  if (!pick) throw new Error('the sandbox offered no bettable selection');
  const client = new GatewayClient({ baseUrl: sandboxUrl, apiKey });
  const session = (await client.sessions.list()).find((s) => s.bookie === pick.bookie);
  await client.close();
  if (!session) throw new Error(`no sandbox session on ${pick.bookie}`);
  return { pick, session };
}

/** One slip of the confirm-path runs: a one-dollar single on the picked selection, open for an hour. */
export function benchSlip(slipId: string, userId: string, pick: BetPick, sessionId: string, now: number) {
  return {
    slipId,
    guildId: 'g-bench',
    channelId: 'c-bench',
    messageId: `m-${slipId}`,
    userId,
    payload: {
      kind: 'sports' as const,
      epk: pick.epk,
      sport: 'basketball',
      eventName: 'Bench event',
      bookie: pick.bookie,
      sessionId,
      marketKey: pick.market,
      marketLabel: pick.market,
      selectionLabel: 'Bench selection',
      marketRef: pick.marketRef,
      stakeCents: 100,
      shownOdds: 2,
    },
    createdAt: now,
    expiresAt: now + 3_600_000,
  };
}

export async function scaleOut(): Promise<FigureResult[]> {
  const missing = cgroupMissing();
  if (missing) {
    return SCALE_ROWS.map((r) => ({
      ...notMeasured(r.name, r.unit, r.target, missing),
      note: `not measurable here: ${missing}`,
    }));
  }
  const cluster = await startPgCluster();
  const port = Number(new URL(cluster.adminUrl).port);
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', quiet: true, seed: 1 });
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  const groups: string[] = [];
  try {
    const url = await createDatabase(cluster.adminUrl, 'scale');
    const dbName = url.slice(url.lastIndexOf('/') + 1);
    const { pick, session } = await benchPick(sandbox.url, API_KEY);
    const store = await openStore(url);
    const slips = new SlipRepo(store);
    let runNo = 0;

    const once = async (processes: number, leader: boolean): Promise<Run> => {
      runNo++;
      const prefixes = Array.from({ length: processes }, (_, i) => `r${runNo}p${i}`);
      const now = Date.now();
      for (const prefix of prefixes) {
        for (let i = 0; i < SLIPS; i += 50) {
          await Promise.all(
            Array.from({ length: Math.min(50, SLIPS - i) }, (_, k) =>
              slips.create(
                benchSlip(`${prefix}-${i + k}`, `${prefix}-u-${(i + k) % 64}`, pick, session.session_id, now),
              ),
            ),
          );
        }
      }
      const children = prefixes.map((prefix) => {
        const child = fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        const group = join(CGROUP_CPU, `bench-scale-${process.pid}-${prefix}`);
        mkdirSync(group);
        groups.push(group);
        writeFileSync(join(group, 'cpu.cfs_period_us'), String(PERIOD_US));
        writeFileSync(join(group, 'cpu.cfs_quota_us'), String(Math.round(CPU_SHARE * PERIOD_US)));
        writeFileSync(join(group, 'cgroup.procs'), String(child.pid));
        return { child, prefix, group };
      });
      try {
        await Promise.all(children.map(({ child }) => next(child, 'ready')));
        await Promise.all(
          children.map(({ child, prefix }) => {
            child.send({
              type: 'prepare',
              url,
              gatewayUrl: sandbox.url,
              apiKey: API_KEY,
              prefix,
              slips: SLIPS,
              concurrency: CONCURRENCY,
              seconds: SECONDS,
              leader,
            });
            return next(child, 'prepared');
          }),
        );
        const lockWaits: number[] = [];
        const chainWaits: number[] = [];
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            const { rows } = await admin.query<{ n: string; chain: string }>(CHAIN_LOCK_WAITS);
            lockWaits.push(Number(rows[0]?.n ?? 0));
            chainWaits.push(Number(rows[0]?.chain ?? 0));
            await new Promise((r) => setTimeout(r, 50));
          }
        })();
        const size = async () =>
          Number((await admin.query<{ b: string }>(`SELECT pg_database_size('${dbName}') AS b`)).rows[0]?.b ?? 0);
        const bytes0 = await size();
        const db0 = pgCpuSeconds(port);
        const busy0 = machineBusySeconds();
        const driver0 = process.cpuUsage();
        const throttle0 = children.map(({ group }) => throttling(group));
        const done = await Promise.all(
          children.map(({ child }) => {
            const d = next<Done>(child, 'done');
            child.send({ type: 'go' });
            return d;
          }),
        );
        const dbCpu = pgCpuSeconds(port) - db0;
        const busy = machineBusySeconds() - busy0;
        const driver = process.cpuUsage(driver0);
        const throttle = children.map(({ group }, i) => {
          const t = throttling(group);
          const t0 = throttle0[i] ?? { periods: 0, throttled: 0, ns: 0 };
          return { periods: t.periods - t0.periods, throttled: t.throttled - t0.throttled, ns: t.ns - t0.ns };
        });
        const bytes = (await size()) - bytes0;
        sampling = false;
        await sampler;
        const placed = done.reduce((n, d) => n + d.placed, 0);
        const ms = Math.max(...done.map((d) => d.ms));
        return {
          perSecond: (placed / ms) * 1000,
          latencies: done.flatMap((d) => d.latencies),
          failed: done.reduce((n, d) => n + d.failed, 0),
          cpuMsPerConfirm: done.reduce((n, d) => n + d.cpuMs, 0) / Math.max(1, placed),
          statementsPerConfirm: done.reduce((n, d) => n + d.statements, 0) / Math.max(1, placed),
          bytesPerConfirm: bytes / Math.max(1, placed),
          dbCpu: dbCpu / (ms / 1000),
          lockWaits,
          chainWaits,
          spans: Object.fromEntries(
            Object.keys(done[0]?.spans ?? {}).map((k) => [
              k,
              done.reduce((n, d) => n + (d.spans[k] ?? 0), 0) / Math.max(1, placed),
            ]),
          ),
          throttled:
            throttle.reduce((n, t) => n + t.throttled, 0) /
            Math.max(
              1,
              throttle.reduce((n, t) => n + t.periods, 0),
            ),
          driverCpu: (driver.user + driver.system) / 1000 / ms,
          otherCpu: Math.max(
            0,
            (busy - dbCpu - (driver.user + driver.system) / 1e6 - done.reduce((n, d) => n + d.cpuMs, 0) / 1000) /
              (ms / 1000),
          ),
          runWaitPerConfirm: done.reduce((n, d) => n + d.runWaitMs, 0) / Math.max(1, placed),
          throttledPerConfirm: throttle.reduce((n, t) => n + t.ns / 1e6, 0) / Math.max(1, placed),
        };
      } finally {
        for (const { child } of children) if (child.exitCode === null) child.send({ type: 'stop' });
        await Promise.all(
          children.map(({ child }) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null)),
        );
        for (const g of groups.splice(0)) rmdirSync(g);
      }
    };

    const sides = [1, 2, 4] as const;
    const out: Record<string, Run[]> = {};
    for (const leader of [false, true]) {
      // A warm-up round, then ROUNDS rounds; within a round the sides rotate so none always runs first.
      for (let round = 0; round <= ROUNDS; round++) {
        for (let k = 0; k < sides.length; k++) {
          const n = sides[(round + k) % sides.length] as number;
          const r = await once(n, leader);
          if (round === 0) continue;
          const key = `${n}${leader ? 'L' : ''}`;
          out[key] ??= [];
          out[key].push(r);
        }
      }
    }
    await store.close();
    const rate = (k: string) => (out[k] ?? []).map((r) => r.perSecond);
    const detail = (k: string) => {
      const runs = out[k] ?? [];
      const lat = runs.flatMap((r) => r.latencies);
      const waits = runs.flatMap((r) => r.lockWaits);
      const chain = runs.flatMap((r) => r.chainWaits);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
      const steps = Object.keys(runs[0]?.spans ?? {})
        .map((s) => `${s} ${median(runs.map((r) => r.spans[s] ?? 0)).toFixed(0)}`)
        .join(', ');
      return `${k.replace('L', '')} process(es): ${median(rate(k)).toFixed(0)} confirms/s, p50 ${percentile(lat, 50).toFixed(0)} ms, p99 ${percentile(lat, 99).toFixed(0)} ms, bot CPU ${median(runs.map((r) => r.cpuMsPerConfirm)).toFixed(1)} ms/confirm, ${median(runs.map((r) => r.statementsPerConfirm)).toFixed(1)} store calls/confirm, database +${(median(runs.map((r) => r.bytesPerConfirm)) / 1024).toFixed(1)} KiB/confirm, database CPU ${median(runs.map((r) => r.dbCpu)).toFixed(2)} cores, lock waits mean ${mean(waits).toFixed(2)} (max ${Math.max(0, ...waits)}), of them on the ledger chain mean ${mean(chain).toFixed(2)} (max ${Math.max(0, ...chain)}), ms per confirm by step: ${steps}, throttled in ${(median(runs.map((r) => r.throttled)) * 100).toFixed(0)} % of CPU periods, main threads waited runnable for a CPU ${median(runs.map((r) => r.runWaitPerConfirm)).toFixed(0)} ms/confirm of which their groups were throttled ${median(runs.map((r) => r.throttledPerConfirm)).toFixed(0)} ms (the rest: the machine's other work held the CPUs), driver and sandbox CPU ${median(runs.map((r) => r.driverCpu)).toFixed(2)} cores, other work on the machine ${median(runs.map((r) => r.otherCpu)).toFixed(2)} cores, ${runs.reduce((n, r) => n + r.failed, 0)} sends failed`;
    };
    const confined = `each bot process in its own cgroup v1 cpu group (cpu.cfs_quota_us ${Math.round(CPU_SHARE * PERIOD_US)} of ${PERIOD_US}: ${CPU_SHARE} CPU); PostgreSQL ${cluster.version}, the sandbox gateway and the driver outside them; ${SECONDS} s runs, ${CONCURRENCY} confirms at once per process, whole confirm path (claim with hold and ledger entry, place_bet at the sandbox over HTTP, job row, move to submitted with its entry, receipt edit queued and sent to a no-op poster); each confirm's two ledger entries are staged in their moves' transactions and chained just after, a group at a time under the one chain lock (ledger:append, decision 1763); lock waits count sessions waiting on any lock (sampled every 50 ms), those on the chain lock apart; ms per confirm by step is wall time summed over the confirms; throttled: share of CFS periods in which a process spent its allowance (cpu.stat); median of ${ROUNDS} per-round ratios after a warm-up`;
    const row = (i: number, n: number, leader: boolean): FigureResult => {
      const spec = SCALE_ROWS[i]!;
      const k = `${n}${leader ? 'L' : ''}`;
      const one = `1${leader ? 'L' : ''}`;
      return figure({
        name: spec.name,
        value: median(rate(k)),
        unit: spec.unit,
        baseline: median(rate(one)),
        ratio: medianRatio(rate(k), rate(one)),
        target: spec.target,
        note: `${detail(k)}; ${detail(one)}; ${leader ? 'settlement watcher and reconciler on 1 s beats in the leading process; ' : ''}${confined}`,
      });
    };
    return [row(0, 2, false), row(1, 4, false), row(2, 2, true), row(3, 4, true)];
  } finally {
    for (const g of groups) if (existsSync(g)) rmdirSync(g);
    await admin.end();
    await sandbox.close();
    await cluster.stop();
  }
}
