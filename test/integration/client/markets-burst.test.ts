import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src/gateway/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

// The gateway's minute compressed to 6 real seconds for both the sandbox and the client's limiter. Not further:
// an answer slower than the whole window (a loaded machine, 120 cards at once) would let its unsettled grant
// expire client-side before the gateway counted it, which a real minute never sees (at 3 s a machine running
// other suites beside this one saw 429s).
const SPEED = 10;
const CARDS = 300;

/** Forwards every request to the sandbox and counts the statuses it answered, as the gateway saw them. */
async function countingProxy(target: string) {
  const agent = new Agent({ connections: 128 });
  const statuses = new Map<number, number>();
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    request(`${target}${req.url ?? '/'}`, { dispatcher: agent, headers })
      .then(async (up) => {
        const body = Buffer.from(await up.body.arrayBuffer());
        statuses.set(up.statusCode, (statuses.get(up.statusCode) ?? 0) + 1);
        const out: Record<string, string> = { 'content-type': 'application/json' };
        const retryAfter = up.headers['retry-after'];
        if (typeof retryAfter === 'string') out['retry-after'] = retryAfter;
        res.writeHead(up.statusCode, out).end(body);
      })
      .catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    statuses,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await agent.close();
    },
  };
}

let sandbox: RunningSandbox;
let proxy: Awaited<ReturnType<typeof countingProxy>>;
let client: GatewayClient;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', quiet: true, speed: SPEED, seed: 1 });
  proxy = await countingProxy(sandbox.url);
  client = new GatewayClient({
    baseUrl: proxy.url,
    apiKey: 'sandbox-key-alpha',
    marketRateLimit: { perMinute: 120, windowMs: sandbox.sb.clock.toRealMs(60_000) },
  });
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
  await sandbox?.close();
});

describe('market card limiter against the sandbox (minute compressed to 6 s)', () => {
  it('sends a burst of 300 cards without a single 429 at the gateway', async () => {
    const clock = sandbox.sb.clock;
    const day = (n: number) => new Date(clock.nowMs() + n * 86_400_000).toISOString().slice(0, 10);
    const events = (await client.events.all({ since: day(-7), until: day(7), limit: 500 })).filter(
      (e) => (e.books ?? []).length > 0,
    );
    expect(events.length).toBeGreaterThanOrEqual(CARDS);
    proxy.statuses.clear();
    const cards = await Promise.all(
      events.slice(0, CARDS).map((e) => client.markets.get({ epk: e.event_id, bookie: e.books![0]! })),
    );
    expect(cards).toHaveLength(CARDS);
    expect(proxy.statuses.get(429) ?? 0).toBe(0);
    expect(proxy.statuses.get(200)).toBe(CARDS);
  }, 60_000);
});
