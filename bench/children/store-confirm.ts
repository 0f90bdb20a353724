// One bot process's confirm path against the store, in its own process: on "prepare" it opens the store and
// writes its slips; on "go" it confirms them (the bet record's claim of the slip with the day's stake hold,
// then the job insert for the 202: the store work
// between a Confirm click and the 202 being on record) with `concurrency` at once, and reports.

import { BetRecordRepo } from '../../src/bot/betting/bet-records.js';
import { SlipRepo } from '../../src/bot/betting/slips.js';
import { JobRepo } from '../../src/bot/jobs/jobs-repo.js';
import type { SlipPayload } from '../../src/bot/model/slip-rules.js';
import { type BotStore, openStore } from '../../src/bot/store/index.js';

type Request =
  | { type: 'prepare'; url: string; prefix: string; ops: number; concurrency: number }
  | { type: 'go' }
  | { type: 'stop' };

const send = (msg: Record<string, unknown>) => process.send?.(msg);
let store: BotStore | undefined;
let plan: Extract<Request, { type: 'prepare' }> | undefined;

async function prepare(p: Extract<Request, { type: 'prepare' }>): Promise<void> {
  plan = p;
  store = await openStore(p.url);
  const slips = new SlipRepo(store);
  const now = Date.now();
  for (let i = 0; i < p.ops; i++) {
    await slips.create({
      slipId: `${p.prefix}-${i}`,
      guildId: 'g-bench',
      channelId: 'c-bench',
      messageId: null,
      userId: `${p.prefix}-u-${i % 64}`,
      // Only what a claim reads: the store's cost is the figure, not the slip.
      payload: {
        epk: 'e1',
        bookie: 'bookie_a',
        sessionId: 'sess-a-1',
        stakeCents: 500,
        price: 2.1,
      } as unknown as SlipPayload,
      createdAt: now,
      expiresAt: now + 3_600_000,
    });
  }
}

async function go(): Promise<{ ms: number; latencies: number[]; claimed: number }> {
  if (!store || !plan) throw new Error('prepare first');
  const { prefix, ops, concurrency } = plan;
  const records = new BetRecordRepo(store);
  const jobs = new JobRepo(store, `bench-${prefix}`);
  const latencies: number[] = [];
  let next = 0;
  let claimed = 0;
  const worker = async () => {
    for (let i = next++; i < ops; i = next++) {
      const t0 = performance.now();
      const userId = `${prefix}-u-${i % 64}`;
      const claim = await records.claim({
        placementId: `${prefix}-p-${i}`,
        slipId: `${prefix}-${i}`,
        userId,
        guildKey: 'g-bench',
        day: '2026-11-22',
        stakeCents: 500,
        dayLimitCents: 1_000_000_000,
        now: Date.now(),
      });
      if (claim.kind !== 'claimed') throw new Error(`slip ${prefix}-${i} was not claimed: ${claim.kind}`);
      const correlationId = `${prefix}-cid-${i}`;
      await jobs.insert(
        { correlationId, kind: 'bet', envelope: { correlation_id: correlationId, status: 'pending' }, context: {} },
        Date.now(),
      );
      latencies.push(performance.now() - t0);
      claimed++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ms: performance.now() - t0, latencies, claimed };
}

process.on('message', (msg: Request) => {
  const run = async () => {
    if (msg.type === 'prepare') {
      await prepare(msg);
      send({ type: 'prepared' });
    } else if (msg.type === 'go') {
      send({ type: 'done', ...(await go()) });
    } else {
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
