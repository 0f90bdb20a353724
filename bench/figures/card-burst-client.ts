// Figure 8 at the client: 300 market cards for distinct events inside one (compressed) minute through the
// client's limiter against the sandbox's 120/min limit, then the same cards again (a user paging a card).
// The sandbox runs at speed 20 and the client's limiter window is set to the same 3 real seconds: the gateway's
// minute is compressed for both sides alike and nothing else is faked.
import Keyv from 'keyv';
import { GatewayClient, RateLimitError } from '../../src/gateway/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { countingProxy } from '../lib/counting-proxy.js';
import { type FigureResult, figure } from '../lib/figure.js';

const SPEED = 20;
const CARDS = 300;

export async function cardBurstClient(): Promise<FigureResult[]> {
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', quiet: true, speed: SPEED, seed: 1 });
  const proxy = await countingProxy(sandbox.url);
  const clock = sandbox.sb.clock;
  const client = new GatewayClient({
    baseUrl: proxy.url,
    apiKey: 'sandbox-key-alpha',
    marketCache: new Keyv(),
    marketCacheTtlMs: 60_000,
    // The gateway's minute is 60 / SPEED real seconds; Retry-After stays in real seconds on both sides.
    marketRateLimit: { perMinute: 120, windowMs: clock.toRealMs(60_000) },
  });
  try {
    const day = (n: number) => new Date(clock.nowMs() + n * 86_400_000).toISOString().slice(0, 10);
    const events = (await client.events.all({ since: day(-7), until: day(7), limit: 500 })).filter(
      (e) => (e.books ?? []).length > 0,
    );
    if (events.length < CARDS) throw new Error(`the sandbox lists ${events.length} events with books; need ${CARDS}`);
    const picks = events.slice(0, CARDS).map((e) => ({ epk: e.event_id, bookie: e.books![0]! }));
    proxy.reset();
    const shown = { ok: 0, rateLimited: 0, otherErrors: 0 };
    const read = async (q: { epk: string; bookie: string }) => {
      try {
        await client.markets.get(q);
        shown.ok++;
      } catch (err) {
        if (err instanceof RateLimitError) shown.rateLimited++;
        else shown.otherErrors++;
      }
    };
    const t0 = clock.nowMs();
    await Promise.all(picks.map(read));
    const firstPassSandboxS = (clock.nowMs() - t0) / 1000;
    const upstreamFirst = proxy.count('/v3/markets');
    const refused = proxy.count('/v3/markets', 429);
    await Promise.all(picks.map(read));
    const upstreamSecond = proxy.count('/v3/markets') - upstreamFirst;
    return [
      figure({
        name: '8 card burst: 429s shown (client)',
        value: shown.rateLimited,
        unit: 'errors',
        baseline: null,
        target: { on: 'value', op: '==', limit: 0 },
        note: `${CARDS} cards for distinct events, all at once, through the client's 120/min limiter, minute compressed to ${60 / SPEED} s on both sides (sandbox speed ${SPEED}): ${shown.ok}/${CARDS * 2} reads answered, ${shown.otherErrors} other errors; 429s from the gateway ${refused}; first pass took ${firstPassSandboxS.toFixed(0)} sandbox s; a second read of the same ${CARDS} cards sent ${upstreamSecond} requests upstream (card cache)`,
      }),
    ];
  } finally {
    await client.close();
    await proxy.close();
    await sandbox.close();
  }
}
