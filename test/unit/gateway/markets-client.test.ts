import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CardLimitError, ClientClosedError, GatewayClient, type QueuedInfo } from '../../../src/gateway/index.js';

// Fake timers with a mock dispatcher (real sockets and fake timers deadlock; see DEPENDENCIES.md).
const ORIGIN = 'http://gateway.test';
const card = (epk: string) => ({
  epk,
  bookie: 'bookie_a',
  site_event_id: null,
  bound: true,
  market_ref_betting_enabled: true,
  markets: [],
});

let agent: MockAgent;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  agent = new MockAgent();
  agent.disableNetConnect();
});
afterEach(async () => {
  vi.useRealTimers();
  await agent.close();
});

/** Drives fake time forward until every promise settled (or a bound is hit). */
async function drive(promises: Promise<unknown>[], stepMs = 500, maxMs = 10 * 60_000) {
  let settled = 0;
  for (const p of promises)
    p.then(
      () => settled++,
      () => settled++,
    );
  for (let t = 0; t <= maxMs && settled < promises.length; t += stepMs) await vi.advanceTimersByTimeAsync(stepMs);
  return Promise.allSettled(promises);
}

describe('GET /v3/markets through the client limiter', () => {
  it('keeps a burst of 300 to at most 120 per rolling minute with no 429 surfaced', async () => {
    const sentAt: number[] = [];
    let refused = 0;
    // The fake gateway enforces the real rule: more than 120 in a rolling minute gets a 429.
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/v3/markets'), method: 'GET' })
      .reply<object>((opts) => {
        const now = Date.now();
        if (sentAt.filter((t) => t > now - 60_000).length >= 120) {
          refused++;
          return {
            statusCode: 429,
            data: { detail: 'rate limit' },
            responseOptions: { headers: { 'retry-after': '5' } },
          };
        }
        sentAt.push(now);
        return { statusCode: 200, data: card(new URL(opts.path, ORIGIN).searchParams.get('epk') ?? '') };
      })
      .persist();
    const client = new GatewayClient({ baseUrl: ORIGIN, apiKey: 'k', dispatcher: agent });
    const calls = Array.from({ length: 300 }, (_, i) => client.markets.get({ epk: `e/${i}`, bookie: 'bookie_a' }));
    const results = await drive(calls);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(sentAt.length).toBe(300);
    expect(refused).toBe(0);
    const busiest = Math.max(...sentAt.map((t) => sentAt.filter((u) => u >= t && u < t + 60_000).length));
    expect(busiest).toBeLessThanOrEqual(120);
    await client.close();
  });

  it('pauses the whole bucket until Retry-After on a 429 and retries transparently', async () => {
    const sentAt: number[] = [];
    let first = true;
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/v3/markets'), method: 'GET' })
      .reply<object>(() => {
        sentAt.push(Date.now());
        if (first) {
          first = false;
          return {
            statusCode: 429,
            data: { detail: 'rate limit' },
            responseOptions: { headers: { 'retry-after': '7' } },
          };
        }
        return { statusCode: 200, data: card('e') };
      })
      .persist();
    const client = new GatewayClient({ baseUrl: ORIGIN, apiKey: 'k', dispatcher: agent });
    const start = Date.now();
    const firstCall = client.markets.get({ epk: 'e', bookie: 'bookie_a' });
    await vi.advanceTimersByTimeAsync(0);
    const others = [1, 2, 3].map(() => client.markets.get({ epk: 'e', bookie: 'bookie_a', tier: 'popular' }));
    const results = await drive([firstCall, ...others], 250);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    // One refused request, then nothing until 7 s later, then the retried one and the queued ones.
    expect(sentAt[0]).toBe(start);
    expect(sentAt.slice(1).every((t) => t - start >= 7_000)).toBe(true);
    expect(sentAt.length).toBe(5);
    await client.close();
  });

  it('serves a repeated query from the card cache, keyed by every query parameter', async () => {
    const { default: Keyv } = await import('keyv');
    let hits = 0;
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/v3/markets'), method: 'GET' })
      .reply<object>(() => {
        hits++;
        return { statusCode: 200, data: card('e') };
      })
      .persist();
    const client = new GatewayClient({ baseUrl: ORIGIN, apiKey: 'k', dispatcher: agent, marketCache: new Keyv() });
    await client.markets.get({ epk: 'e', bookie: 'bookie_a' });
    await client.markets.get({ epk: 'e', bookie: 'bookie_a' });
    expect(hits).toBe(1);
    await client.markets.get({ epk: 'e', bookie: 'bookie_a', tier: 'popular' });
    expect(hits).toBe(2);
    await client.close();
  });

  it('admits a card read by maxQueueMs: refused with retryAfterMs when the wait is longer, nothing sent', async () => {
    let hits = 0;
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/v3/markets'), method: 'GET' })
      .reply<object>(() => {
        hits++;
        return { statusCode: 200, data: card('e') };
      })
      .persist();
    const client = new GatewayClient({
      baseUrl: ORIGIN,
      apiKey: 'k',
      dispatcher: agent,
      marketRateLimit: { perMinute: 1 },
    });
    await client.markets.get({ epk: 'e', bookie: 'bookie_a' });
    await vi.advanceTimersByTimeAsync(15_000);
    const err = await client.markets.get({ epk: 'e', bookie: 'bookie_a' }, { maxQueueMs: 5_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(CardLimitError);
    expect((err as CardLimitError).retryAfterMs).toBeGreaterThan(40_000);
    expect(hits).toBe(1);
    await client.close();
  });

  it('keeps background card reads to their share: refused with retryAfterMs, nothing sent, members still served', async () => {
    let hits = 0;
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/v3/markets'), method: 'GET' })
      .reply<object>(() => {
        hits++;
        return { statusCode: 200, data: card('e') };
      })
      .persist();
    const client = new GatewayClient({
      baseUrl: ORIGIN,
      apiKey: 'k',
      dispatcher: agent,
      marketRateLimit: { perMinute: 8, backgroundShare: 0.25 },
    });
    const background = { lane: 'background', maxQueueMs: 0 } as const;
    await client.markets.get({ epk: 'e', bookie: 'bookie_a' }, background);
    await client.markets.get({ epk: 'e', bookie: 'bookie_a' }, background);
    const err = await client.markets.get({ epk: 'e', bookie: 'bookie_a' }, background).catch((e) => e);
    expect(err).toBeInstanceOf(CardLimitError);
    expect((err as CardLimitError).retryAfterMs).toBeGreaterThan(59_000);
    expect(hits).toBe(2);
    await client.markets.get({ epk: 'e', bookie: 'bookie_a' });
    expect(hits).toBe(3);
    await client.close();
  });

  it('tells onQueued when a card read waits and sends it when its slot frees', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/v3/markets'), method: 'GET' })
      .reply<object>(() => ({ statusCode: 200, data: card('e') }))
      .persist();
    const client = new GatewayClient({
      baseUrl: ORIGIN,
      apiKey: 'k',
      dispatcher: agent,
      marketRateLimit: { perMinute: 1 },
    });
    await client.markets.get({ epk: 'e', bookie: 'bookie_a' });
    const told: QueuedInfo[] = [];
    const waiting = client.markets.get(
      { epk: 'e', bookie: 'bookie_a' },
      { maxQueueMs: 90_000, onQueued: (i) => told.push(i) },
    );
    expect(told.length).toBe(1);
    expect(told[0]!.estimatedWaitMs).toBeGreaterThan(59_000);
    const [result] = await drive([waiting]);
    expect(result!.status).toBe('fulfilled');
    await client.close();
  });

  it('rejects a queued card read at once with ClientClosedError when the client closes', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/v3/markets'), method: 'GET' })
      .reply<object>(() => ({ statusCode: 200, data: card('e') }))
      .persist();
    const client = new GatewayClient({
      baseUrl: ORIGIN,
      apiKey: 'k',
      dispatcher: agent,
      marketRateLimit: { perMinute: 1 },
    });
    await client.markets.get({ epk: 'e', bookie: 'bookie_a' });
    const queued = client.markets.get({ epk: 'e', bookie: 'bookie_a' }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(0);
    await client.close();
    expect(await queued).toBeInstanceOf(ClientClosedError);
    expect(client.marketsLimiter.hasTimer).toBe(false);
  });
});
