// Figure 4: signed deliveries per second through the bot's webhook receiver (verify + dedupe + persist
// in sqlite on disk + 2xx) against the floor a correct receiver cannot beat (node:http that verifies the HMAC over
// the raw body and makes one durable insert per delivery into SQLite with the same settings), and, as
// information, a bare node:http server answering 200; same load loop, same process, rounds in rotating order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/bot/config/logger.js';
import { OnceRepo } from '../../src/bot/receiver/once.js';
import { startReceiver } from '../../src/bot/receiver/receiver.js';
import { openStore } from '../../src/bot/store/index.js';
import { verifyWebhookSignature } from '../../src/gateway/index.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { type LoadResult, runLoad } from '../lib/load.js';
import { bareOkServer, type LocalServer, listen, readBody } from '../lib/servers.js';
import { median, medianRatio, percentile } from '../lib/stats.js';
import { signedDeliveries } from '../lib/webhook-bodies.js';

const API_KEY = 'bench-webhook-key';
const PER_BURST = 1_500;
const CONCURRENCY = 16;
const PATH = '/webhooks/gateway';
const ROUNDS = 7;
const WARMUP = 2;

/**
 * The honest floor: read the raw body, verify its HMAC, one durable insert per delivery (the same table, SQLite
 * WAL with synchronous=NORMAL as the bot opens it), 200. No dedupe answer, no shape check, no batching.
 */
async function floorServer(store: Awaited<ReturnType<typeof openStore>>): Promise<LocalServer> {
  const bytes = Buffer.from('{"ok":true}');
  return listen(async (req, res) => {
    const raw = await readBody(req);
    if (!verifyWebhookSignature(raw, req.headers['bet-signature'], API_KEY)) {
      res.writeHead(401);
      res.end();
      return;
    }
    await store.query(
      'INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      String(req.headers['bet-correlation-id']),
      raw.toString('utf8'),
      Date.now(),
    );
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
    res.end(bytes);
  });
}

type Side = 'receiver' | 'floor' | 'bare';

export async function webhookReceiver(): Promise<FigureResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-receiver-'));
  const store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
  const floorStore = await openStore(`sqlite://${join(dir, 'floor.sqlite')}`);
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
  const floor = await floorServer(floorStore);
  const runs: Record<Side, LoadResult[]> = { receiver: [], floor: [], bare: [] };
  const burst = async (side: Side, url: string) => {
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
    const urls: Record<Side, string> = { receiver: receiver.url, floor: floor.url, bare: bare.url };
    const sides: Side[] = ['receiver', 'floor', 'bare'];
    const rate: Record<Side, number[]> = { receiver: [], floor: [], bare: [] };
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(i + k) % sides.length] as Side;
        const perSecond = await burst(side, urls[side]);
        if (i >= WARMUP) rate[side].push(perSecond);
      }
    }
    const measured = runs.receiver.slice(WARMUP).flatMap((r) => r.latencies);
    const persisted = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_deliveries');
    const p99 = percentile(measured, 99);
    const p50 = percentile(measured, 50);
    const deliveries = runs.receiver.length * PER_BURST;
    return [
      figure({
        name: '4 webhook receiver vs its honest floor',
        value: median(rate.receiver),
        unit: 'deliveries/s',
        baseline: median(rate.floor),
        ratio: medianRatio(rate.receiver, rate.floor),
        target: { on: 'ratio', op: '>=', limit: 0.8 },
        note: `bot receiver (HMAC verify, stale and shape checks, dedupe, persist in sqlite WAL on disk, 200) vs the floor: node:http that verifies the HMAC over the raw body and makes one durable insert per delivery into SQLite with the same settings; ${CONCURRENCY} concurrent connections, median of ${ROUNDS} per-round ratios of bursts of ${PER_BURST} (rounds in rotating order after ${WARMUP} warm-ups); ${persisted[0]?.n}/${deliveries} rows persisted, ${handedOn} handed on`,
      }),
      figure({
        name: '4 webhook receiver vs bare node:http (information)',
        value: median(rate.receiver),
        unit: 'deliveries/s',
        baseline: median(rate.bare),
        ratio: medianRatio(rate.receiver, rate.bare),
        target: { on: 'ratio', op: '>=', limit: 0 },
        note: `the same rounds against node:http that reads the body and answers 200 without verifying or storing anything: what no receiver that stores a delivery can reach; shown for information`,
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
    await Promise.all([receiver.close(), bare.close(), floor.close()]);
    await store.close();
    await floorStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
