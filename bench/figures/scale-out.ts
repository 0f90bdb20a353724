// Figure 22: scale-out as separate machines would show it. Each bot process runs in its own CPU allowance (a
// cgroup v1 cpu group with a CFS quota), the database, the sandbox gateway and this driver outside them, and each
// runs the whole confirm path (bench/children/confirm-path.ts). 2 processes vs 1 and 4 vs 1 at the same allowance
// each, paired rounds (median of per-round ratios), with PostgreSQL's CPU and its lock waits reported beside them;
// and the same with the leader-only work (settlement watcher, reconciler) running in whichever process leads.
// The processes are a pool of long-lived, warmed-up ones, as a deployment's are: a freshly forked process spends
// its first seconds at 0.2 CPU compiling the path (two to three times the CPU per confirm), and a figure that
// divided by one cold process's 5 s read whatever V8 had reached by then.
// Every side runs with POOL groups busy: its bot processes and, for each one it lacks, a stand-in spinning at the
// same allowance (decision 2132). On two shared cores a process's CPU per confirm rises with how busy the cores
// are; without the stand-ins one process ran on idle cores and four on full ones, and the ratio read the machine.
// The allowance is at most CPU_SHARE, and less where four processes at it, with the database and the driver their
// confirms keep busy, would not fit in the machine's cores (decision 2144): a calibration run of four processes at
// CALIBRATION_SHARE after the warm-up gives the costs per confirm, and every group is then set to what fits.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SlipRepo } from '../../src/bot/betting/slips.js';
import { openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { createDatabase, startPgCluster } from '../../test/pg/cluster.js';
import {
  allowanceFor,
  CALIBRATION_SHARE,
  CORES_USED,
  type Costs,
  CPU_SHARE,
  checkedAllowance,
} from '../lib/allowance.js';
import { type BetPick, betPicks } from '../lib/bet-picks.js';
import { type FigureResult, figure, notMeasured, type Target } from '../lib/figure.js';
import { cpuSecondsOf, machineBusySeconds } from '../lib/proc.js';
import { median, medianRatio, percentile } from '../lib/stats.js';

const CHILD = fileURLToPath(new URL('../children/confirm-path.ts', import.meta.url));
const CGROUP_CPU = '/sys/fs/cgroup/cpu';
const PERIOD_US = 100_000;
/** Measured seconds of each run, after LEAD_IN unmeasured ones. */
const SECONDS = 8;
const LEAD_IN = 1;
/**
 * The pool's untimed warm-up. A freshly forked process confirms at 10–15 ms of CPU each while V8 compiles the path
 * and 3.5–5.5 ms once it has (about 300 confirms in, 8–10 s at 0.2 CPU): a cold process's first 5 s read anywhere
 * from 13 to 23 confirms/s, a warm one's 40–55.
 */
const WARM_SECONDS = 15;
/** The warm-up once the pool has joined the lease race (the leader-only work's code). */
const LEAD_WARM_SECONDS = 4;
const POOL = 4;
/** Slips made ready per process per second of a run: above any rate one process reaches at its allowance. */
const SLIPS_PER_SECOND = 150;
const CONCURRENCY = 16;
const ROUNDS = 7;
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
      child.off('exit', onExit);
    };
    // A pool's process answers many requests: each one's listeners go once it is answered.
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`confirm-path child exited (${code}) before "${type}"`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * CPU seconds used so far by the PostgreSQL server listening on `port` and all its backends, those that have exited
 * included (the server's reaped children's time, cutime and cstime): a pool closes idle connections, and their
 * backends' CPU must not drop out of a difference of two readings.
 */
export function pgCpuSeconds(port: number): number {
  const stats = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        const ticks = Number(fields[11]) + Number(fields[12]);
        return [
          { pid: Number(pid), ppid: Number(fields[1]), ticks, reaped: Number(fields[13]) + Number(fields[14]), cmd },
        ];
      } catch {
        return [];
      }
    });
  const master = stats.find((s) => s.cmd.includes('postgres') && s.cmd.includes(`-p\u0000${port}`));
  if (!master) return 0;
  const ticks = stats.filter((s) => s.pid === master.pid || s.ppid === master.pid).reduce((a, s) => a + s.ticks, 0);
  return (ticks + master.reaped) / 100;
}

interface Run {
  perSecond: number;
  /** CPU the stand-ins for the side's missing processes spun in the window, in cores. */
  fillerCpu: number;
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
  /** Ms per confirm V8 spent collecting garbage in the bot processes. */
  gcPerConfirm: number;
  /** Autovacuum workers at work, per sample. */
  autovacuum: number[];
  /** Checkpoints PostgreSQL began in the window (null where pg_stat_bgwriter does not count them). */
  checkpoints: number | null;
  /** The whole machine's busy CPU in the window, in cores (of availableParallelism()). */
  machineCores: number;
  /** p99 of this driver's event-loop delay in the window, ms: how long a request to the sandbox waited its turn. */
  driverLoopP99: number;
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
  gcMs: number;
  next: number;
  exhausted: boolean;
  leading: boolean;
}

/** The ledger chain lock's advisory key as pg_locks shows it (key space 0x53440002, then hashtext of the key). */
const CHAIN_LOCK_WAITS = `SELECT COUNT(*) FILTER (WHERE NOT granted) AS n,
  COUNT(*) FILTER (WHERE NOT granted AND locktype = 'advisory' AND classid = ${0x5344_0002}
    AND objid::bigint = (hashtext('ledger:append')::bigint + 4294967296) % 4294967296) AS chain,
  (SELECT COUNT(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker') AS av
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

/** What the figure's runs share: the database, the slips' maker, the sandbox and the bet every slip makes. */
interface Bench {
  admin: pg.Client;
  port: number;
  url: string;
  dbName: string;
  slips: SlipRepo;
  sandboxUrl: string;
  pick: BetPick;
  sessionId: string;
  /** Stand-ins for the processes a side lacks (POOL - 1 of them). */
  fillers: ChildProcess[];
  /** Every cpu group the figure made: the pool's and the stand-ins'. */
  groups: string[];
  /** Runs a statement on the figure's database (its own store's connection). */
  sql: (statement: string) => Promise<unknown>;
}

/** Makes the cpu group `group` at CPU_SHARE (noted in `groups` for removal) and moves process `pid` into it. */
function confine(pid: number | undefined, group: string, groups: string[]): void {
  mkdirSync(group);
  groups.push(group);
  writeFileSync(join(group, 'cpu.cfs_period_us'), String(PERIOD_US));
  allow(group, CPU_SHARE);
  writeFileSync(join(group, 'cgroup.procs'), String(pid));
}

/** Sets cpu group `group`'s allowance to `share` of one core. */
function allow(group: string, share: number): void {
  writeFileSync(join(group, 'cpu.cfs_quota_us'), String(Math.round(share * PERIOD_US)));
}

/**
 * Starts `count` stand-ins for the bot processes a side lacks: each a process spinning in a cpu group of its own at
 * the same allowance, stopped (SIGSTOP) except during the runs of a side smaller than the pool.
 */
function startFillers(count: number, groups: string[]): ChildProcess[] {
  return Array.from({ length: count }, (_, i) => {
    const child = spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' });
    child.kill('SIGSTOP');
    confine(child.pid, join(CGROUP_CPU, `bench-scale-${process.pid}-fill${i}`), groups);
    return child;
  });
}

async function stopFillers(fillers: ChildProcess[]): Promise<void> {
  await Promise.all(
    fillers.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return null;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      return gone;
    }),
  );
}

/** One bot process of the pool, in its own cpu group; `made` slips exist for it, `next` is the first unconfirmed. */
interface Member {
  child: ChildProcess;
  prefix: string;
  group: string;
  next: number;
  made: number;
  leading: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Forks the pool's processes, puts each in a cpu group of its own once it has loaded its code (loading the bench's
 * TypeScript under 0.2 CPU takes about 11 s and is no part of the confirm path), and has each open its store.
 */
async function startPool(b: Bench, groups: string[]): Promise<Member[]> {
  const pool = Array.from({ length: POOL }, (_, i) => {
    const child = fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const prefix = `p${i}`;
    const group = join(CGROUP_CPU, `bench-scale-${process.pid}-${prefix}`);
    return { child, prefix, group, next: 0, made: 0, leading: false };
  });
  await Promise.all(pool.map(({ child }) => next(child, 'ready')));
  for (const { child, group } of pool) confine(child.pid, group, groups);
  await Promise.all(
    pool.map(({ child, prefix }) => {
      child.send({
        type: 'prepare',
        url: b.url,
        gatewayUrl: b.sandboxUrl,
        apiKey: API_KEY,
        prefix,
        concurrency: CONCURRENCY,
      });
      return next(child, 'prepared');
    }),
  );
  return pool;
}

/** Makes enough slips for each member to confirm for `seconds` at more than any rate seen at this allowance. */
async function topUp(b: Bench, members: Member[], seconds: number): Promise<void> {
  const now = Date.now();
  for (const m of members) {
    const need = m.next + Math.ceil(seconds * SLIPS_PER_SECOND) + CONCURRENCY;
    while (m.made < need) {
      const from = m.made;
      const count = Math.min(50, need - from);
      await Promise.all(
        Array.from({ length: count }, (_, k) => {
          const i = from + k;
          return b.slips.create(benchSlip(`${m.prefix}-${i}`, `${m.prefix}-u-${i % 64}`, b.pick, b.sessionId, now));
        }),
      );
      m.made = from + count;
    }
  }
}

/** Starts one run on each member (`leadIn` + `seconds`); resolves with their reports once every one is done. */
function go(members: Member[], seconds: number, leadIn: number): Promise<Done[]> {
  return Promise.all(
    members.map(async (m) => {
      const done = next<Done>(m.child, 'done');
      m.child.send({ type: 'go', seconds, leadIn, upTo: m.made });
      const d = await done;
      m.next = d.next;
      m.leading = d.leading;
      if (d.exhausted) throw new Error(`process ${m.prefix} ran out of slips (${m.made}); raise SLIPS_PER_SECOND`);
      return d;
    }),
  );
}

/** The pool's untimed warm-up: every member confirms for `seconds`; returns the pool's rate in it. */
async function warm(b: Bench, pool: Member[], seconds: number): Promise<number> {
  await topUp(b, pool, seconds);
  const done = await go(pool, seconds, 0);
  return (done.reduce((n, d) => n + d.placed, 0) / Math.max(...done.map((d) => d.ms))) * 1000;
}

/** The members of a run of `n` processes: in turn round the pool, or with leader-only work the leader and others in turn. */
function membersOf(pool: Member[], n: number, turn: number, leader: boolean): Member[] {
  if (!leader) return Array.from({ length: n }, (_, j) => pool[(turn * n + j) % pool.length] as Member);
  const head = pool.find((m) => m.leading);
  if (!head) throw new Error('no process of the pool holds the settlement lease');
  const rest = pool.filter((m) => m !== head);
  return [head, ...Array.from({ length: n - 1 }, (_, j) => rest[(turn + j) % rest.length] as Member)];
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
  let pool: Member[] = [];
  try {
    const url = await createDatabase(cluster.adminUrl, 'scale');
    const { pick, session } = await benchPick(sandbox.url, API_KEY);
    const store = await openStore(url);
    const b: Bench = {
      admin,
      port,
      url,
      dbName: url.slice(url.lastIndexOf('/') + 1),
      slips: new SlipRepo(store),
      sandboxUrl: sandbox.url,
      pick,
      sessionId: session.session_id,
      fillers: [],
      groups,
      sql: (statement) => store.query(statement),
    };
    try {
      pool = await startPool(b, groups);
      b.fillers = startFillers(POOL - 1, groups);
      const runs = await rounds(b, pool);
      return report(runs, cluster.version);
    } finally {
      await stopFillers(b.fillers);
      await stopPool(pool);
      await store.close();
    }
  } finally {
    for (const g of groups) if (existsSync(g)) rmdirSync(g);
    await admin.end();
    await sandbox.close();
    await cluster.stop();
  }
}

async function stopPool(pool: Member[]): Promise<void> {
  for (const { child } of pool) if (child.exitCode === null) child.send({ type: 'stop' });
  await Promise.all(
    pool.map(({ child }) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null)),
  );
}

/** Runs of every side in both modes, keyed "1", "2", "4", "1L"…, with the warm-ups' rates. */
interface Rounds {
  runs: Record<string, Run[]>;
  warmRates: number[];
  /** The allowance every group ran the rounds at, and the calibration run it was chosen from. */
  share: number;
  calibration: { run: Run; costs: Costs; first: number; check: { run: Run; costs: Costs } };
}

/** The costs per confirm of a run of `processes` (decision 2144). */
function costsOf(run: Run, processes: number): Costs {
  return {
    cores: availableParallelism(),
    processes,
    botMs: run.cpuMsPerConfirm,
    sharedMs: ((run.dbCpu + run.driverCpu) / Math.max(1e-9, run.perSecond)) * 1000,
    otherCores: run.otherCpu,
  };
}

/** Has the pool join the lease race (`on`) or leave it; on joining, the race's winner is the pool's leader. */
async function setLeading(pool: Member[], on: boolean): Promise<void> {
  const answers = await Promise.all(
    pool.map(({ child }) => {
      child.send({ type: on ? 'lead' : 'unlead' });
      return next<{ leading?: boolean }>(child, on ? 'leading' : 'unled');
    }),
  );
  pool.forEach((m, i) => {
    m.leading = answers[i]?.leading ?? false;
  });
  if (on && !pool.some((m) => m.leading)) throw new Error('no process of the pool won the settlement lease');
}

/**
 * The pool warms up untimed, then ROUNDS rounds. Each round runs every side (1, 2, 4 processes) without and with
 * the leader-only work, the modes alternating which goes first and the sides' order turning each round, so no side
 * or mode always runs first or on a fuller database and sandbox (the sandbox slows as its bets pile up).
 */
async function rounds(b: Bench, pool: Member[]): Promise<Rounds> {
  const sides = [1, 2, 4] as const;
  const runs: Record<string, Run[]> = {};
  const warmRates = [await warm(b, pool, WARM_SECONDS)];
  // The database as a deployment's is after its first minute: autovacuum (which visits every 60 s) has vacuumed and
  // analyzed the tables the warm-up filled. Before that first visit PostgreSQL plans the outbox's due-rows query
  // from no statistics: a bitmap scan of every dead "pending" version, 3–7 ms a pass against 0.1 after it
  // (pg_stat_statements and EXPLAIN ANALYZE, 2026-11-29), which charged whichever runs came before that visit.
  await b.sql('VACUUM ANALYZE');
  // The allowance four processes fit at, from a run of the whole pool on cores left free (decision 2144).
  for (const group of b.groups) allow(group, CALIBRATION_SHARE);
  const run = await measure(b, pool);
  const costs = costsOf(run, POOL);
  const first = allowanceFor(costs);
  // Checked at the allowance itself: the shared work a confirm costs grows with the rate.
  for (const group of b.groups) allow(group, first);
  const checkRun = await measure(b, pool);
  const check = { run: checkRun, costs: costsOf(checkRun, POOL) };
  const share = checkedAllowance(first, check.costs);
  for (const group of b.groups) allow(group, share);
  const turns = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const leader of round % 2 === 0 ? [false, true] : [true, false]) {
      if (leader) await setLeading(pool, true);
      if (leader && warmRates.length === 1) warmRates.push(await warm(b, pool, LEAD_WARM_SECONDS));
      for (let k = 0; k < sides.length; k++) {
        const n = sides[(round + k) % sides.length] as number;
        const key = `${n}${leader ? 'L' : ''}`;
        const turn = turns.get(key) ?? 0;
        turns.set(key, turn + 1);
        runs[key] ??= [];
        runs[key].push(await measure(b, membersOf(pool, n, turn, leader)));
      }
      if (leader) await setLeading(pool, false);
    }
  }
  return { runs, warmRates, share, calibration: { run, costs, first, check } };
}

/** The driver's readings at a moment: the database's CPU and size, the machine's, its own, the groups' throttling. */
async function readings(b: Bench, members: Member[]) {
  const q = (sql: string) => b.admin.query<{ v: string }>(sql).then((r) => Number(r.rows[0]?.v ?? 0));
  return {
    at: performance.now(),
    db: pgCpuSeconds(b.port),
    busy: machineBusySeconds(),
    driver: process.cpuUsage(),
    throttle: members.map(({ group }) => throttling(group)),
    bytes: await q(`SELECT pg_database_size('${b.dbName}') AS v`),
    checkpoints: await q('SELECT checkpoints_timed + checkpoints_req AS v FROM pg_stat_bgwriter').catch(() => null),
  };
}

/**
 * One measured run on `members`: each confirms for LEAD_IN + SECONDS and counts the confirms that finish in its last
 * SECONDS; the driver reads the database, the machine and the groups over the same window, and samples lock waits.
 */
async function measure(b: Bench, members: Member[]): Promise<Run> {
  await topUp(b, members, LEAD_IN + SECONDS);
  const fillers = b.fillers.slice(0, POOL - members.length);
  for (const child of fillers) child.kill('SIGCONT');
  const running = go(members, SECONDS, LEAD_IN);
  running.catch(() => undefined);
  await sleep(LEAD_IN * 1000);
  const fill0 = fillers.reduce((n, f) => n + cpuSecondsOf(f.pid), 0);
  const r0 = await readings(b, members);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const lockWaits: number[] = [];
  const chainWaits: number[] = [];
  const autovacuum: number[] = [];
  const until = r0.at + SECONDS * 1000;
  const sampler = (async () => {
    while (performance.now() < until) {
      const { rows } = await b.admin.query<{ n: string; chain: string; av: string }>(CHAIN_LOCK_WAITS);
      lockWaits.push(Number(rows[0]?.n ?? 0));
      chainWaits.push(Number(rows[0]?.chain ?? 0));
      autovacuum.push(Number(rows[0]?.av ?? 0));
      await sleep(50);
    }
  })();
  await sleep(until - performance.now());
  const r1 = await readings(b, members);
  const fillCpu = fillers.reduce((n, f) => n + cpuSecondsOf(f.pid), 0) - fill0;
  loop.disable();
  await sampler;
  const done = await running.finally(() => {
    for (const child of fillers) child.kill('SIGSTOP');
  });
  const seconds = (r1.at - r0.at) / 1000;
  const dbCpu = r1.db - r0.db;
  const driver = process.cpuUsage(r0.driver);
  const driverCpu = (driver.user + driver.system) / 1e6;
  const throttle = members.map((_, i) => {
    const t = r1.throttle[i] ?? { periods: 0, throttled: 0, ns: 0 };
    const t0 = r0.throttle[i] ?? { periods: 0, throttled: 0, ns: 0 };
    return { periods: t.periods - t0.periods, throttled: t.throttled - t0.throttled, ns: t.ns - t0.ns };
  });
  const sum = (f: (d: Done) => number) => done.reduce((n, d) => n + f(d), 0);
  const placed = sum((d) => d.placed);
  const per = (x: number) => x / Math.max(1, placed);
  return {
    perSecond: (placed / Math.max(...done.map((d) => d.ms))) * 1000,
    fillerCpu: fillCpu / seconds,
    latencies: done.flatMap((d) => d.latencies),
    failed: sum((d) => d.failed),
    cpuMsPerConfirm: per(sum((d) => d.cpuMs)),
    statementsPerConfirm: per(sum((d) => d.statements)),
    bytesPerConfirm: per(r1.bytes - r0.bytes),
    dbCpu: dbCpu / seconds,
    lockWaits,
    chainWaits,
    spans: Object.fromEntries(Object.keys(done[0]?.spans ?? {}).map((k) => [k, per(sum((d) => d.spans[k] ?? 0))])),
    throttled:
      throttle.reduce((n, t) => n + t.throttled, 0) /
      Math.max(
        1,
        throttle.reduce((n, t) => n + t.periods, 0),
      ),
    driverCpu: driverCpu / seconds,
    otherCpu: Math.max(0, (r1.busy - r0.busy - dbCpu - driverCpu - fillCpu - sum((d) => d.cpuMs) / 1000) / seconds),
    runWaitPerConfirm: per(sum((d) => d.runWaitMs)),
    throttledPerConfirm: per(throttle.reduce((n, t) => n + t.ns / 1e6, 0)),
    gcPerConfirm: per(sum((d) => d.gcMs)),
    autovacuum,
    checkpoints: r0.checkpoints === null || r1.checkpoints === null ? null : r1.checkpoints - r0.checkpoints,
    machineCores: (r1.busy - r0.busy) / seconds,
    driverLoopP99: loop.percentile(99) / 1e6,
  };
}

/** One side's runs in words: its median rate and each run's, latency, costs, lock waits, steps and the machine. */
function detail(runs: Run[], processes: number): string {
  const rates = runs.map((r) => r.perSecond);
  const lat = runs.flatMap((r) => r.latencies);
  const waits = runs.flatMap((r) => r.lockWaits);
  const chain = runs.flatMap((r) => r.chainWaits);
  const av = runs.flatMap((r) => r.autovacuum);
  const checkpoints = runs.map((r) => r.checkpoints).filter((c) => c !== null);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const med = (f: (r: Run) => number, digits: number) => median(runs.map(f)).toFixed(digits);
  const steps = Object.keys(runs[0]?.spans ?? {})
    .map((s) => `${s} ${med((r) => r.spans[s] ?? 0, 0)}`)
    .join(', ');
  return [
    `${processes} process(es): ${median(rates).toFixed(1)} confirms/s (runs ${rates.map((x) => x.toFixed(1)).join(', ')})`,
    `p50 ${percentile(lat, 50).toFixed(0)} ms, p99 ${percentile(lat, 99).toFixed(0)} ms`,
    `bot CPU ${med((r) => r.cpuMsPerConfirm, 1)} ms/confirm (of it V8's collections ${med((r) => r.gcPerConfirm, 2)} ms)`,
    `${med((r) => r.statementsPerConfirm, 1)} store calls/confirm`,
    `database +${(median(runs.map((r) => r.bytesPerConfirm)) / 1024).toFixed(1)} KiB/confirm`,
    `database CPU ${med((r) => r.dbCpu, 2)} cores`,
    `lock waits mean ${mean(waits).toFixed(2)} (max ${Math.max(0, ...waits)}), of them on the ledger chain mean ${mean(chain).toFixed(2)} (max ${Math.max(0, ...chain)})`,
    `ms per confirm by step: ${steps}`,
    `throttled in ${(median(runs.map((r) => r.throttled)) * 100).toFixed(0)} % of CPU periods`,
    `main threads waited runnable for a CPU ${med((r) => r.runWaitPerConfirm, 0)} ms/confirm of which their groups were throttled ${med((r) => r.throttledPerConfirm, 0)} ms (the rest: the machine's other work held the CPUs)`,
    `stand-ins for the ${POOL - processes} missing process(es) ${med((r) => r.fillerCpu, 2)} cores`,
    `driver and sandbox CPU ${med((r) => r.driverCpu, 2)} cores (its event loop's delay p99 ${med((r) => r.driverLoopP99, 0)} ms), other work on the machine ${med((r) => r.otherCpu, 2)} cores, the machine busy ${med((r) => r.machineCores, 2)} of ${availableParallelism()} cores`,
    `autovacuum at work in ${((av.filter((n) => n > 0).length / Math.max(1, av.length)) * 100).toFixed(0)} % of samples, ${checkpoints.length ? checkpoints.reduce((a, c) => a + c, 0) : '?'} checkpoints in the windows`,
    `${runs.reduce((n, r) => n + r.failed, 0)} sends failed`,
  ].join(', ');
}

/** The four rows: each side against one process, as the median of the per-round ratios. */
function report({ runs, warmRates, share, calibration }: Rounds, version: string): FigureResult[] {
  const rate = (k: string) => (runs[k] ?? []).map((r) => r.perSecond);
  const { run: cal, costs, first, check } = calibration;
  const confined = [
    `each bot process in its own cgroup v1 cpu group (cpu.cfs_quota_us ${Math.round(share * PERIOD_US)} of ${PERIOD_US}: ${share} CPU) from when it has loaded its code`,
    `the allowance is what ${POOL} processes fit at in ${CORES_USED * 100} % of the machine's cores, at most ${CPU_SHARE} CPU (decision 2144): a calibration run of ${POOL} processes at ${CALIBRATION_SHARE} CPU after the warm-up made ${cal.perSecond.toFixed(1)} confirms/s with the machine busy ${cal.machineCores.toFixed(2)} of ${costs.cores} cores, at ${costs.botMs.toFixed(1)} ms of a bot process's CPU and ${costs.sharedMs.toFixed(1)} ms of the database's, the sandbox's and the driver's a confirm (the database ${cal.dbCpu.toFixed(2)} cores), other work ${costs.otherCores.toFixed(2)} cores, so ${first} CPU; checked by a run at ${first}: ${check.run.perSecond.toFixed(1)} confirms/s, the machine busy ${check.run.machineCores.toFixed(2)}, at ${check.costs.botMs.toFixed(1)} and ${check.costs.sharedMs.toFixed(1)} ms a confirm, which fit ${allowanceFor(check.costs)}: the lower of the two`,
    `PostgreSQL ${version}, the sandbox gateway and the driver outside them`,
    `every side with ${POOL} groups busy: its processes and, for each it lacks, a stand-in spinning at the same allowance (decision 2132)`,
    `a pool of ${POOL} long-lived processes warmed up untimed (${WARM_SECONDS} s, ${warmRates[0]?.toFixed(0)} confirms/s over the pool, then VACUUM ANALYZE as autovacuum's first visit; ${LEAD_WARM_SECONDS} s more the first time it joins the lease race, ${warmRates[1]?.toFixed(0)} confirms/s), each run drawn from it: one process in turn round the pool, with leader-only work the race's winner and others in turn; the pool joins the race before each round's runs with leader-only work and leaves it after`,
    `each run ${LEAD_IN} s unmeasured then ${SECONDS} s measured (a confirm counts when it finishes inside the window), ${CONCURRENCY} confirms at once per process`,
    "whole confirm path (claim with hold and ledger entry, place_bet at the sandbox over HTTP, job row, move to submitted with its entry, receipt edit queued and sent to a no-op poster); each confirm's two ledger entries are staged in their moves' transactions and chained 20 ms after without the confirm waiting, a group at a time under the one chain lock (ledger:append, decisions 1763 and 2131)",
    'lock waits count sessions waiting on any lock (sampled every 50 ms), those on the chain lock apart; ms per confirm by step is wall time summed over the confirms; throttled: share of CFS periods in which a process spent its allowance (cpu.stat)',
    `median of ${ROUNDS} per-round ratios, the sides' order turning each round and the two modes taking turns to go first`,
  ].join('; ');
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
      note: `${detail(runs[k] ?? [], n)}; ${detail(runs[one] ?? [], 1)}; ${leader ? 'settlement watcher and reconciler on 1 s beats in the leading process; ' : ''}${confined}`,
    });
  };
  return [row(0, 2, false), row(1, 4, false), row(2, 2, true), row(3, 4, true)];
}
