// Figure 4: signed deliveries per second through the bot's webhook receiver (verify + dedupe + persist
// in sqlite on disk + 2xx) against a bare node:http server answering 200, same load loop, same process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/bot/config/logger.js';
import { OnceRepo } from '../../src/bot/repos/once.js';
import { startReceiver } from '../../src/bot/results/receiver.js';
import { openStore } from '../../src/bot/store/index.js';
import { interleave } from '../lib/ab.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { type LoadResult, runLoad } from '../lib/load.js';
import { bareOkServer } from '../lib/servers.js';
import { percentile } from '../lib/stats.js';
import { signedDeliveries } from '../lib/webhook-bodies.js';

const API_KEY = 'bench-webhook-key';
const PER_BURST = 1_500;
const CONCURRENCY = 16;
const PATH = '/webhooks/gateway';

export async function webhookReceiver(): Promise<FigureResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-receiver-'));
  const store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
  let handedOn = 0;
  const receiver = await startReceiver({
    port: 0,
    maxBodyBytes: 64 * 1024,
    toleranceMs: 5 * 60_000,
    apiKey: API_KEY,
    once: new OnceRepo(store),
    onDelivery: async () => {
      handedOn++;
    },
    logger: silentLogger,
  });
  const bare = await bareOkServer();
  const runs: { receiver: LoadResult[]; bare: LoadResult[] } = { receiver: [], bare: [] };
  const burst = async (side: 'receiver' | 'bare', url: string) => {
    const result = await runLoad({
      url,
      path: PATH,
      requests: signedDeliveries(PER_BURST, API_KEY),
      concurrency: CONCURRENCY,
    });
    const ok = result.statuses[200] ?? 0;
    if (ok !== PER_BURST) throw new Error(`${side} answered ${JSON.stringify(result.statuses)} instead of all 200`);
    runs[side].push(result);
    return result.perSecond;
  };
  try {
    const ab = await interleave(
      { repeats: 7, warmup: 2 },
      () => burst('receiver', receiver.url),
      () => burst('bare', bare.url),
    );
    const measured = runs.receiver.slice(2).flatMap((r) => r.latencies);
    const persisted = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_deliveries');
    const p99 = percentile(measured, 99);
    const p50 = percentile(measured, 50);
    const deliveries = runs.receiver.length * PER_BURST;
    return [
      figure({
        name: '4 webhook receiver throughput',
        value: ab.medianA,
        unit: 'deliveries/s',
        baseline: ab.medianB,
        target: { on: 'ratio', op: '>=', limit: 0.5 },
        note: `bot receiver (HMAC verify, dedupe + persist in sqlite WAL on disk, 200) vs bare node:http 200; ${CONCURRENCY} concurrent connections, medians of 7 interleaved bursts of ${PER_BURST}; ${persisted[0]?.n}/${deliveries} rows persisted, ${handedOn} handed on`,
      }),
      figure({
        name: '4 webhook receiver p99 time to 2xx',
        value: p99,
        unit: 'ms',
        baseline: 10_000,
        target: { on: 'value', op: '<', limit: 10_000 },
        note: `p50 ${p50.toFixed(1)} ms over ${measured.length} deliveries at ${CONCURRENCY} concurrent; baseline is the gateway's 10 s delivery deadline`,
      }),
    ];
  } finally {
    await Promise.all([receiver.close(), bare.close()]);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
