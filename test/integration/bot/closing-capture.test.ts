import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClosingCapture, type OpenSportsBet } from '../../../src/bot/analytics/closing.js';
import type { BookClose } from '../../../src/bot/analytics/facts.js';
import { upcomingWindow } from '../../../src/bot/catalog/handlers/choices.js';
import { GatewayClient, type LimiterClock } from '../../../src/gateway/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

const MIN = 60_000;
let sandbox: RunningSandbox;
let client: GatewayClient;
/** Clients of single tests (each with its own card limiter on the test's clock). */
const clients: GatewayClient[] = [];
/** Cards (epk, bookie) with at least three bettable selections, and their refs and card prices. */
const cards: Array<{ epk: string; bookie: string; refs: Array<{ ref: string; odds: number }> }> = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seed: 1, quiet: true });
  client = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key-alpha' });
  const page = await client.events.list({ ...upcomingWindow(Date.now()), status: 'prematch', limit: 50 });
  for (const e of page.data) {
    for (const bookie of (e.books ?? []).slice(0, 1)) {
      const card = await client.markets.get({ epk: e.event_id, bookie });
      const refs = card.markets.flatMap((m) =>
        m.selections.flatMap((s) =>
          s.market_ref && typeof s.odds === 'number' ? [{ ref: s.market_ref, odds: s.odds }] : [],
        ),
      );
      if (refs.length >= 3) cards.push({ epk: e.event_id, bookie, refs });
    }
    if (cards.length >= 5) break;
  }
  expect(cards.length).toBe(5);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await client?.close();
  await sandbox?.close();
});

const OFF = Date.UTC(2030, 0, 1, 12);

function betsOn(card: (typeof cards)[number], n: number, startsAt = OFF): OpenSportsBet[] {
  return card.refs.slice(0, n).map((r, i) => ({
    betId: `${card.epk}#${i}`,
    sessionId: 's',
    epk: card.epk,
    bookie: card.bookie,
    marketRef: r.ref,
    startsAt,
  }));
}

/** The test's clock for a client's card limiter: its timers fire as the test moves the time on. */
function testClock(now: () => number): LimiterClock & { fire(): void } {
  const timers = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  return {
    now,
    setTimeout: (fn, ms) => {
      timers.set(next, { at: now() + ms, fn });
      return next++;
    },
    clearTimeout: (h) => void timers.delete(h as number),
    fire() {
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= now()).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) return;
        timers.delete(due[0]);
        due[1].fn();
      }
    },
  };
}

function harness(bets: OpenSportsBet[], opts: { perMinute?: number } = {}) {
  let now = OFF - 31 * MIN;
  const clock = testClock(() => now);
  // The capture's share is the limiter's background lane (a quarter of perMinute), on the test's clock.
  const gateway = new GatewayClient({
    baseUrl: sandbox.url,
    apiKey: 'sandbox-key-alpha',
    marketRateLimit: { perMinute: opts.perMinute ?? 120, clock },
  });
  clients.push(gateway);
  const reads: string[] = [];
  const closes: Array<{ betId: string; odds: number; market: BookClose | null; at: number }> = [];
  const capture = new ClosingCapture({
    bets: { openSportsBets: async () => bets },
    cards: {
      get: async (query, options) => {
        const card = await gateway.markets.get(query, options);
        reads.push(`${query.bookie}|${query.epk}`);
        return card;
      },
    },
    recordClose: (betId, odds, market, at) => {
      closes.push({ betId, odds, market, at });
    },
    now: () => now,
    leadsMs: [30 * MIN, 5 * MIN, MIN],
  });
  return {
    capture,
    gateway,
    reads,
    closes,
    at: (t: number) => {
      now = t;
      clock.fire();
    },
  };
}

describe('closing line capture against the sandbox', () => {
  it('reads nothing before the first lead time', async () => {
    const h = harness(betsOn(cards[0]!, 3));
    expect((await h.capture.tick()).read).toBe(0);
  });

  it('reads a card once for every bet on it (three bets, one read) and records each bet’s card price', async () => {
    const h = harness([...betsOn(cards[0]!, 3), ...betsOn(cards[1]!, 1)]);
    h.at(OFF - 30 * MIN);
    const r = await h.capture.tick();
    expect(r.read).toBe(2);
    expect(h.reads).toHaveLength(2);
    expect(h.closes).toHaveLength(4);
    const first = cards[0]!.refs[0]!;
    expect(h.closes.find((c) => c.betId === `${cards[0]!.epk}#0`)?.odds).toBe(first.odds);
  });

  it('reads each card once per slot, again at the next slot, and never after the off', async () => {
    const h = harness(betsOn(cards[0]!, 2));
    h.at(OFF - 30 * MIN);
    await h.capture.tick();
    h.at(OFF - 29 * MIN);
    expect((await h.capture.tick()).read).toBe(0);
    h.at(OFF - 50_000);
    expect((await h.capture.tick()).read).toBe(1);
    h.at(OFF);
    expect((await h.capture.tick()).read).toBe(0);
    // The last close handed over for each bet is the one read before the off.
    const last = h.closes.filter((c) => c.betId === `${cards[0]!.epk}#0`).at(-1);
    expect(last?.at).toBe(OFF - 50_000);
  });

  it('hands over the close with its market, the bet’s own price among the market’s prices', async () => {
    const h = harness(betsOn(cards[2]!, 1));
    h.at(OFF - MIN);
    await h.capture.tick();
    const c = h.closes[0];
    expect(c?.market?.prices).toContain(c?.odds);
  });

  it('uses at most its share of the card limit in a window and reads the rest in the next one', async () => {
    // perMinute 8 × the limiter's background share 0.25: two reads a minute for capture, six left for members.
    const h = harness(
      cards.flatMap((c) => betsOn(c, 1)),
      { perMinute: 8 },
    );
    h.at(OFF - 30 * MIN);
    const first = await h.capture.tick();
    expect([first.read, first.deferred]).toEqual([2, 3]);
    h.at(OFF - 30 * MIN + 30_000);
    expect((await h.capture.tick()).read).toBe(0);
    h.at(OFF - 29 * MIN + 1);
    expect((await h.capture.tick()).read).toBe(2);
  });

  it('stands aside while members’ card reads are queued, and reads once they are served', async () => {
    const h = harness(betsOn(cards[3]!, 1), { perMinute: 8 });
    h.at(OFF - 5 * MIN);
    const member = { epk: cards[0]!.epk, bookie: cards[0]!.bookie };
    for (let i = 0; i < 8; i++) await h.gateway.markets.get(member);
    const queued = [1, 2, 3].map(() => h.gateway.markets.get(member));
    expect(h.gateway.marketsLimiter.queued).toBe(3);
    expect(await h.capture.tick()).toMatchObject({ read: 0, deferred: 1 });
    // A window later the members' reads are served first; then capture reads.
    h.at(OFF - 4 * MIN);
    await Promise.all(queued);
    expect((await h.capture.tick()).read).toBe(1);
  });

  it('retries a card whose read failed on the next tick', async () => {
    let fail = true;
    const bets = betsOn(cards[4]!, 1);
    const closes: string[] = [];
    const capture = new ClosingCapture({
      bets: { openSportsBets: async () => bets },
      cards: {
        get: async (query, options) => {
          if (fail) throw new Error('503 from the gateway');
          return client.markets.get(query, options);
        },
      },
      recordClose: (betId) => {
        closes.push(betId);
      },
      now: () => OFF - MIN,
      leadsMs: [MIN],
    });
    expect((await capture.tick()).failed).toBe(1);
    fail = false;
    expect((await capture.tick()).recorded).toBe(1);
    expect(closes).toEqual([bets[0]?.betId]);
  });
});
