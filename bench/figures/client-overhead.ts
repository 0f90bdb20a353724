// Figure 1: a ~300-selection card through GatewayClient (request checks, limiter, zod on) against raw undici
// request + JSON.parse, and against fetch + JSON.parse, of the same bytes from the same local server.
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request } from 'undici';
import { GatewayClient } from '../../src/gateway/index.js';
import { msPerOp, pairedRounds } from '../lib/ab.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { marketCard } from '../lib/fixtures.js';
import { staticJsonServer } from '../lib/servers.js';
import { median, medianRatio } from '../lib/stats.js';

const EPK = 'basketball/us/nba/lakers_v_celtics/2026-11-22';
/** Sequential GETs per sample: short, so the samples of one round see the same machine load. */
const PER_BATCH = 50;
/** Rounds of client vs undici (each runs both sides, in alternating order), after a warm-up cycle. */
const ROUNDS = 48;
/** Rounds of client vs fetch (the looser target needs fewer). */
const FETCH_ROUNDS = 24;

/** The request headers that make two requests the same request (connection handling aside). */
function requestHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(h).sort()) {
    if (name === 'host' || name === 'connection') continue;
    out[name] = String(h[name]);
  }
  return out;
}

export async function clientOverhead(): Promise<FigureResult[]> {
  const card = marketCard(300);
  let seen: IncomingHttpHeaders = {};
  const server = await staticJsonServer(card, (req) => {
    seen = req.headers;
  });
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
  try {
    const first = await client.markets.get({ epk: EPK, bookie: 'bookie_a' });
    const selections = first.markets.reduce((n, m) => n + m.selections.length, 0);
    // The baselines send exactly the headers the client sent (key, accept, user-agent): the same request.
    const headers = requestHeaders(seen);
    const viaUndici = await request(rawUrl, { dispatcher: rawAgent, headers });
    await viaUndici.body.text();
    if (JSON.stringify(requestHeaders(seen)) !== JSON.stringify(headers)) {
      throw new Error('the undici baseline does not send the same request headers as the client');
    }
    const viaClient = () => msPerOp(PER_BATCH, () => client.markets.get({ epk: EPK, bookie: 'bookie_a' }));
    // Two paired runs, one per baseline: fetch (web streams, far more garbage) never shares a run with the
    // client-vs-undici comparison, so its garbage is not collected during the batches that comparison times.
    const [viaClientMs, undiciMs] = await pairedRounds({ rounds: ROUNDS }, [
      viaClient,
      () =>
        msPerOp(PER_BATCH, async () => {
          const res = await request(rawUrl, { dispatcher: rawAgent, headers });
          return JSON.parse(await res.body.text());
        }),
    ]);
    const [vsFetchClientMs, fetchMs] = await pairedRounds({ rounds: FETCH_ROUNDS }, [
      viaClient,
      () =>
        msPerOp(PER_BATCH, async () => {
          const res = await fetch(rawUrl, { headers });
          return JSON.parse(await res.text());
        }),
    ]);
    const what = `${selections} selections, ${Buffer.byteLength(JSON.stringify(card))} bytes; client.markets.get (zod on, no cache)`;
    const how = (rounds: number) =>
      `ratio = median of ${rounds} per-round ratios (each round: ${PER_BATCH} sequential GETs per side, order alternating); ms = median per side`;
    return [
      figure({
        name: '1 client overhead (300-selection card)',
        value: median(viaClientMs!),
        unit: 'ms/card',
        baseline: median(undiciMs!),
        ratio: medianRatio(viaClientMs!, undiciMs!),
        target: { on: 'ratio', op: '<=', limit: 1.05 },
        note: `${what} vs undici request + JSON.parse with the same headers and pool settings; ${how(ROUNDS)}`,
      }),
      figure({
        name: '1 client vs fetch (300-selection card)',
        value: median(vsFetchClientMs!),
        unit: 'ms/card',
        baseline: median(fetchMs!),
        ratio: medianRatio(vsFetchClientMs!, fetchMs!),
        target: { on: 'ratio', op: '<=', limit: 0.85 },
        note: `${what} vs fetch + JSON.parse (global dispatcher) with the same headers, in a run of its own; ${how(FETCH_ROUNDS)}`,
      }),
    ];
  } finally {
    await client.close();
    await Promise.all([clientAgent.close(), rawAgent.close(), server.close()]);
  }
}
