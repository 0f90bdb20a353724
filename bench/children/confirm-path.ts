// One bot process's whole confirm path, in its own process (which the parent puts in its own CPU allowance): the
// slip claim with the day's and the exposure caps' hold and its ledger entry, place_bet at the sandbox over HTTP,
// the 202 stored as a job row, the record's move to submitted with its ledger entry, and the receipt's edit queued
// in the outbox (sent to a poster that answers at once: Discord is not what is measured). The same repositories
// and services the bot runs; only the price check and Discord's interaction are left out. With `leader`, the
// process also competes for the settlement lease and, while it holds it, runs the settlement watcher and the
// reconciler on their beats, as the leader of a deployment does.
import { readFileSync } from 'node:fs';
import { BetRecordRepo } from '../../src/bot/betting/bet-records.js';
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
import { type BotStore, openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';

type Request =
  | {
      type: 'prepare';
      url: string;
      gatewayUrl: string;
      apiKey: string;
      prefix: string;
      slips: number;
      concurrency: number;
      seconds: number;
      leader: boolean;
    }
  | { type: 'go' }
  | { type: 'stop' };

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
const logger = createLogger({ level: 'error' });
/** The statement count the run reports: the store below times each statement here. */
const METRICS = deskMetrics();
let store: BotStore | undefined;
let gateway: GatewayClient | undefined;
const stops: Array<() => unknown> = [];

let ready: (() => ReturnType<typeof run>) | undefined;

/** Opens the store and the gateway client and builds the services; the run starts on "go". */
async function prepare(r: Extract<Request, { type: 'prepare' }>): Promise<void> {
  store = await openStore(r.url, { metrics: METRICS });
  gateway = new GatewayClient({ baseUrl: r.gatewayUrl, apiKey: r.apiKey });
  ready = () => run(r);
}

async function run(r: Extract<Request, { type: 'prepare' }>) {
  if (!store) throw new Error('prepare first');
  const s = store;
  const gw = gateway;
  if (!gw) throw new Error('prepare first');
  const now = Date.now;
  const records = new BetRecordRepo(s);
  const jobs = new JobRepo(s, `bench-${r.prefix}`);
  const outbox = new Outbox({
    store: s,
    poster: { edit: async () => undefined, post: async () => 'posted' },
    logger,
    now,
    owner: `bench-${r.prefix}`,
  });
  const results = new BetResults({ records, outbox, present: betViews, logger, now });
  if (r.leader) {
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
    const lease = s.runAsLeader('settlement', () => {
      const timers = [
        setInterval(() => void settlement.tick().catch(() => undefined), 1_000),
        setInterval(() => void reconciler.run().catch(() => undefined), 1_000),
      ];
      return () => {
        for (const t of timers) clearInterval(t);
      };
    });
    stops.push(() => lease.stop());
  }
  const latencies: number[] = [];
  let next = 0;
  let placed = 0;
  let failed = 0;
  const cpu0 = process.cpuUsage();
  const runWait0 = runQueueWaitMs();
  const statements0 = METRICS.statementSeconds.count();
  const t0 = performance.now();
  const until = t0 + r.seconds * 1000;
  // Wall time spent in each step of the confirm path, summed over the confirms (where a confirm's time goes).
  const spans = { claim: 0, placeBet: 0, job: 0, submitted: 0, receipt: 0 };
  const since = (step: keyof typeof spans, from: number): number => {
    const at = performance.now();
    spans[step] += at - from;
    return at;
  };
  const worker = async () => {
    for (let i = next++; i < r.slips && performance.now() < until; i = next++) {
      const started = performance.now();
      const claim = await records.claim({
        placementId: `${r.prefix}-p-${i}`,
        slipId: `${r.prefix}-${i}`,
        userId: `${r.prefix}-u-${i % 64}`,
        guildKey: 'g-bench',
        day: '2026-11-26',
        stakeCents: 100,
        dayLimitCents: 1_000_000_000,
        now: now(),
      });
      if (claim.kind !== 'claimed') throw new Error(`slip ${r.prefix}-${i} was not claimed: ${claim.kind}`);
      let at = since('claim', started);
      try {
        const handle = await submitRecord(gw, claim.record, 1.01, undefined);
        at = since('placeBet', at);
        await jobs.insert(
          {
            correlationId: handle.correlationId,
            kind: 'bet',
            guildId: 'g-bench',
            channelId: claim.record.channelId,
            messageId: claim.record.messageId,
            userId: claim.record.userId,
            sessionId: claim.record.sessionId,
            envelope: handle.envelope as unknown as Record<string, unknown>,
            context: {},
          },
          now(),
        );
        at = since('job', at);
        const moved = await records.markSubmitted(
          claim.record.placementId,
          { correlationId: handle.correlationId, timeoutAt: null, odds: 2 },
          now(),
        );
        at = since('submitted', at);
        if (moved) await results.show(moved);
        since('receipt', at);
        placed++;
        latencies.push(performance.now() - started);
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: r.concurrency }, worker));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const runWaitMs = runQueueWaitMs() - runWait0;
  const statements = METRICS.statementSeconds.count() - statements0;
  return { ms, placed, failed, latencies, cpuMs: (cpu.user + cpu.system) / 1000, statements, spans, runWaitMs };
}

process.on('message', (msg: Request) => {
  const run = async () => {
    if (msg.type === 'prepare') {
      await prepare(msg);
      send({ type: 'prepared' });
    } else if (msg.type === 'go') {
      if (!ready) throw new Error('prepare first');
      send({ type: 'done', ...(await ready()) });
    } else {
      for (const s of stops) await s();
      await gateway?.close();
      await store?.close();
      process.exit(0);
    }
  };
  run().catch((err) => {
    send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  });
});
send({ type: 'ready' });
