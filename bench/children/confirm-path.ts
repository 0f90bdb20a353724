// One bot process's whole confirm path, in its own process (which the parent puts in its own CPU allowance): the
// slip claim with the day's and the exposure caps' hold and its ledger entry, place_bet at the sandbox over HTTP,
// the 202 stored as a job row, the record's move to submitted with its ledger entry, and the receipt's edit queued
// in the outbox (sent to a poster that answers at once: Discord is not what is measured). The same repositories
// and services the bot runs; only the price check and Discord's interaction are left out. On "lead" (or with
// `leader`), the process also competes for the settlement lease and, while it holds it, runs the settlement watcher
// and the reconciler on their beats, as the leader of a deployment does. It takes any number of runs ("go") after
// one "prepare", so the parent can warm it up untimed and measure it warm.
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { type BetRecord, BetRecordRepo } from '../../src/bot/betting/bet-records.js';
import { BetResults } from '../../src/bot/betting/bet-results.js';
import { Reconciler } from '../../src/bot/betting/reconciler.js';
import { SettlementWatcher } from '../../src/bot/betting/settlement.js';
import { submitRecord } from '../../src/bot/betting/slip-kinds.js';
import { betViews } from '../../src/bot/betting/views/bet-presenter.js';
import { missingBetView, settlementView } from '../../src/bot/betting/views/notice.js';
import { createLogger } from '../../src/bot/config/logger.js';
import { JobRepo } from '../../src/bot/jobs/jobs-repo.js';
import { deskMetrics } from '../../src/bot/ops/metrics.js';
import { Outbox } from '../../src/bot/outbox/outbox.js';
import { type BotStore, type LeaderRun, openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';

interface Prepare {
  type: 'prepare';
  url: string;
  gatewayUrl: string;
  apiKey: string;
  prefix: string;
  concurrency: number;
  /** Defaults of a "go" that names none (one run per process, as bench/confirm-statements.ts sends). */
  slips?: number;
  seconds?: number;
  /** Join the lease race at once (as "lead" does). */
  leader?: boolean;
}
/**
 * A run: `seconds` measured after `leadIn` unmeasured ones, on slips below `upTo`. A child takes any number of runs
 * one after another (an untimed warm-up first), each continuing from the slip the one before stopped at.
 */
interface Go {
  type: 'go';
  seconds: number;
  leadIn: number;
  upTo: number;
}
/** "lead" joins the lease race and answers whether this process won it; "unlead" leaves it (the lease freed). */
type Request = Prepare | (Partial<Go> & { type: 'go' }) | { type: 'lead' } | { type: 'unlead' } | { type: 'stop' };

/**
 * Milliseconds the main thread has waited, runnable, for a CPU (the second field of /proc/self/schedstat): both the
 * time its cpu group was throttled (its allowance spent) and the time other work of the machine held the CPUs.
 * 0 without /proc.
 */
function runQueueWaitMs(): number {
  try {
    return Number(readFileSync('/proc/self/schedstat', 'utf8').split(' ')[1] ?? 0) / 1e6;
  } catch {
    return 0;
  }
}

const send = (msg: Record<string, unknown>) => process.send?.(msg);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const logger = createLogger({ level: 'error' });
/** The statement count the run reports: the store below times each statement here. */
const METRICS = deskMetrics();
let store: BotStore | undefined;
let gateway: GatewayClient | undefined;
let lease: LeaderRun | undefined;

/** The services of one bot process's confirm path, built once on "prepare" and shared by every run after. */
interface Path {
  r: Prepare;
  records: BetRecordRepo;
  jobs: JobRepo;
  results: BetResults;
  gw: GatewayClient;
  outbox: Outbox;
  /** The next slip index to confirm: runs continue where the one before stopped, so none claims a slip twice. */
  next: number;
}
let path: Path | undefined;

/** Opens the store and the gateway client, builds the services and (with `leader`) joins the lease race. */
async function prepare(r: Prepare): Promise<void> {
  store = await openStore(r.url, { metrics: METRICS });
  gateway = new GatewayClient({ baseUrl: r.gatewayUrl, apiKey: r.apiKey });
  const s = store;
  const gw = gateway;
  const now = Date.now;
  const records = new BetRecordRepo(s);
  const outbox = new Outbox({
    store: s,
    poster: { edit: async () => undefined, post: async () => 'posted' },
    logger,
    now,
    owner: `bench-${r.prefix}`,
  });
  const results = new BetResults({ records, outbox, present: betViews, logger, now });
  path = { r, records, jobs: new JobRepo(s, `bench-${r.prefix}`), results, gw, next: 0, outbox };
  if (r.leader) lead(path);
}

/** Joins the race for the settlement lease; while this process holds it, it runs the leader-only work. */
function lead(p: Path): void {
  if (!store || lease) return;
  lease = leaderWork(store, p.gw, p.records, p.outbox, p.results);
}

/** The leader-only work: the settlement watcher and the reconciler on 1 s beats while this process holds the lease. */
function leaderWork(
  s: BotStore,
  gw: GatewayClient,
  records: BetRecordRepo,
  outbox: Outbox,
  results: BetResults,
): LeaderRun {
  const now = Date.now;
  const reconciler = new Reconciler({
    gateway: gw,
    records,
    logger,
    now,
    safeWindowMs: 600_000,
    intervalMs: 1_000,
    callbackUrl: undefined,
    show: (record) => results.show(record),
    resend: async (record) => record,
  });
  const settlement = new SettlementWatcher({
    gateway: gw,
    store: s,
    records,
    outbox,
    logger,
    now,
    intervalMs: 1_000,
    callbackUrl: undefined,
    present: { settled: settlementView, missing: missingBetView },
  });
  return s.runAsLeader('settlement', () => {
    const timers = [
      setInterval(() => void settlement.tick().catch(() => undefined), 1_000),
      setInterval(() => void reconciler.run().catch(() => undefined), 1_000),
    ];
    return () => {
      for (const t of timers) clearInterval(t);
    };
  });
}

/** Wall time spent in each step of the confirm path, summed over the confirms (where a confirm's time goes). */
type Spans = { claim: number; placeBet: number; job: number; submitted: number; receipt: number };

/** Claims slip `i` with its holds and ledger entry; a slip that cannot be claimed ends the run (a setup fault). */
async function claimSlip(p: Path, i: number) {
  const { r } = p;
  const claim = await p.records.claim({
    placementId: `${r.prefix}-p-${i}`,
    slipId: `${r.prefix}-${i}`,
    userId: `${r.prefix}-u-${i % 64}`,
    guildKey: 'g-bench',
    day: '2026-11-26',
    stakeCents: 100,
    dayLimitCents: 1_000_000_000,
    now: Date.now(),
  });
  if (claim.kind !== 'claimed') throw new Error(`slip ${r.prefix}-${i} was not claimed: ${claim.kind}`);
  return claim.record;
}

/** The rest of a claimed slip's confirm; adds each step's wall time since `from` to `spans`. */
async function confirmClaimed(p: Path, record: BetRecord, spans: Spans, from: number): Promise<void> {
  const now = Date.now;
  let at = from;
  const since = (step: keyof Spans): void => {
    const t = performance.now();
    spans[step] += t - at;
    at = t;
  };
  const handle = await submitRecord(p.gw, record, 1.01, undefined);
  since('placeBet');
  await p.jobs.insert(
    {
      correlationId: handle.correlationId,
      kind: 'bet',
      guildId: 'g-bench',
      channelId: record.channelId,
      messageId: record.messageId,
      userId: record.userId,
      sessionId: record.sessionId,
      envelope: handle.envelope as unknown as Record<string, unknown>,
      context: {},
    },
    now(),
  );
  since('job');
  const moved = await p.records.markSubmitted(
    record.placementId,
    { correlationId: handle.correlationId, timeoutAt: null, odds: 2 },
    now(),
  );
  since('submitted');
  if (moved) await p.results.show(moved);
  since('receipt');
}

/** What a run reports: counts, costs and steps of the confirms that finished inside its measured window. */
interface Window {
  at: number;
  cpuMs: number;
  runWaitMs: number;
  statements: number;
}

/** The process's CPU, run-queue wait and store-call count at this moment. */
function snapshot(): Window {
  const c = process.cpuUsage();
  return {
    at: performance.now(),
    cpuMs: (c.user + c.system) / 1000,
    runWaitMs: runQueueWaitMs(),
    statements: METRICS.statementSeconds.count(),
  };
}

/**
 * Confirms slips, r.concurrency at once, from the next unconfirmed slip up to `upTo`, for `leadIn` + `seconds`, and
 * measures only the `seconds` after the lead-in: a confirm counts when it finishes inside that window, and none is
 * started after it (the ones in flight finish uncounted). The lead-in takes what a run's first moments cost and a
 * steady process does not pay (pool connections the pool closed while idle, sixteen confirms starting in step).
 */
async function run(p: Path, go: Go) {
  const spans: Spans = { claim: 0, placeBet: 0, job: 0, submitted: 0, receipt: 0 };
  const latencies: number[] = [];
  let failed = 0;
  let gcMs = 0;
  let from: Window | undefined;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (from) gcMs += e.duration;
  });
  gc.observe({ entryTypes: ['gc'] });
  const t0 = performance.now();
  const until = t0 + (go.leadIn + go.seconds) * 1000;
  const opens = setTimeout(() => {
    from = snapshot();
  }, go.leadIn * 1000);
  let exhausted = false;
  const worker = async () => {
    while (performance.now() < until) {
      if (p.next >= go.upTo) {
        exhausted = true;
        return;
      }
      const i = p.next++;
      const started = performance.now();
      const own: Spans = { claim: 0, placeBet: 0, job: 0, submitted: 0, receipt: 0 };
      const record = await claimSlip(p, i);
      const claimed = performance.now();
      own.claim = claimed - started;
      try {
        await confirmClaimed(p, record, own, claimed);
      } catch {
        if (from && performance.now() <= until) failed++;
        continue;
      }
      const ended = performance.now();
      if (!from || ended > until) continue;
      latencies.push(ended - started);
      for (const k of Object.keys(spans) as Array<keyof Spans>) spans[k] += own[k];
    }
  };
  const ends = new Promise<Window>((resolve) => setTimeout(() => resolve(snapshot()), until - performance.now()));
  await Promise.all(Array.from({ length: p.r.concurrency }, worker));
  clearTimeout(opens);
  const to = await ends;
  gc.disconnect();
  const start = from ?? to;
  return {
    ms: until - start.at,
    placed: latencies.length,
    failed,
    latencies,
    cpuMs: to.cpuMs - start.cpuMs,
    statements: to.statements - start.statements,
    spans,
    runWaitMs: to.runWaitMs - start.runWaitMs,
    gcMs,
    next: p.next,
    exhausted,
    leading: lease?.isLeader ?? false,
  };
}

process.on('message', (msg: Request) => {
  const handle = async () => {
    if (msg.type === 'prepare') {
      await prepare(msg);
      send({ type: 'prepared' });
    } else if (msg.type === 'go') {
      if (!path) throw new Error('prepare first');
      const go: Go = {
        type: 'go',
        seconds: msg.seconds ?? path.r.seconds ?? 5,
        leadIn: msg.leadIn ?? 0,
        upTo: msg.upTo ?? path.r.slips ?? 0,
      };
      send({ type: 'done', ...(await run(path, go)) });
    } else if (msg.type === 'lead') {
      if (!path) throw new Error('prepare first');
      lead(path);
      // The race is one lock attempt per process: the winner knows within its first beat.
      for (let waited = 0; !lease?.isLeader && waited < 1500; waited += 50) await sleep(50);
      send({ type: 'leading', leading: lease?.isLeader ?? false });
    } else if (msg.type === 'unlead') {
      await lease?.stop();
      lease = undefined;
      send({ type: 'unled' });
    } else {
      await lease?.stop();
      await gateway?.close();
      await store?.close();
      process.exit(0);
    }
  };
  handle().catch((err) => {
    send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  });
});
send({ type: 'ready' });
