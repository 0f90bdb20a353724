// Figure 1: a ~300-selection card through GatewayClient (request checks, limiter, zod on) against raw undici
// request + JSON.parse, and against fetch + JSON.parse, of the same bytes from the same local server.
import { Agent, request } from 'undici';
import { GatewayClient } from '../../src/gateway/index.js';
import { interleaveAll, msPerOp } from '../lib/ab.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { marketCard } from '../lib/fixtures.js';
import { staticJsonServer } from '../lib/servers.js';

const EPK = 'basketball/us/nba/lakers_v_celtics/2026-11-22';

export async function clientOverhead(): Promise<FigureResult[]> {
  const card = marketCard(300);
  const server = await staticJsonServer(card);
  // Same pool settings on both sides; the client's limiter is set out of the way (no waiting in it).
  const clientAgent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  const rawAgent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  const client = new GatewayClient({
    baseUrl: server.url,
    apiKey: 'bench-key',
    dispatcher: clientAgent,
    marketRateLimit: { perMinute: 10_000_000 },
  });
  const rawUrl = `${server.url}/v3/markets?epk=${encodeURIComponent(EPK)}&bookie=bookie_a`;
  const headers = { 'x-api-key': 'bench-key', accept: 'application/json' };
  try {
    const viaClient = await client.markets.get({ epk: EPK, bookie: 'bookie_a' });
    const selections = viaClient.markets.reduce((n, m) => n + m.selections.length, 0);
    const perBatch = 100;
    const runs = await interleaveAll({ repeats: 21, warmup: 3 }, [
      () => msPerOp(perBatch, () => client.markets.get({ epk: EPK, bookie: 'bookie_a' })),
      () =>
        msPerOp(perBatch, async () => {
          const res = await request(rawUrl, { dispatcher: rawAgent, headers });
          return JSON.parse(await res.body.text());
        }),
      () =>
        msPerOp(perBatch, async () => {
          const res = await fetch(rawUrl, { headers });
          return JSON.parse(await res.text());
        }),
    ]);
    const [viaClientMs, undiciMs, fetchMs] = runs.medians as [number, number, number];
    const what = `${selections} selections, ${Buffer.byteLength(JSON.stringify(card))} bytes; client.markets.get (zod on, no cache)`;
    const how = `medians of 21 interleaved repeats x ${perBatch} sequential GETs`;
    return [
      figure({
        name: '1 client overhead (300-selection card)',
        value: viaClientMs,
        unit: 'ms/card',
        baseline: undiciMs,
        target: { on: 'ratio', op: '<=', limit: 1.05 },
        note: `${what} vs undici request + JSON.parse; ${how}`,
      }),
      figure({
        name: '1 client vs fetch (300-selection card)',
        value: viaClientMs,
        unit: 'ms/card',
        baseline: fetchMs,
        target: { on: 'ratio', op: '<=', limit: 0.85 },
        note: `${what} vs fetch + JSON.parse; ${how}`,
      }),
    ];
  } finally {
    await client.close();
    await Promise.all([clientAgent.close(), rawAgent.close(), server.close()]);
  }
}
