import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cardQueuedMessage } from '../../../src/bot/catalog/card-ref.js';
import { Catalog, cardLimitMessage } from '../../../src/bot/catalog/catalog.js';
import { upcomingWindow } from '../../../src/bot/catalog/handlers/choices.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import type { Event, QueuedInfo } from '../../../src/gateway/index.js';
import { GatewayClient } from '../../../src/gateway/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { API_KEY } from '../../support/bot-desk.js';

let sandbox: RunningSandbox;
let dir: string;
let store: BotStore;
let events: Event[];
const clients: GatewayClient[] = [];

const clientWith = (opts: ConstructorParameters<typeof GatewayClient>[0] extends infer O ? Partial<O> : never) => {
  const c = new GatewayClient({ baseUrl: sandbox.url, apiKey: API_KEY, ...opts });
  clients.push(c);
  return c;
};

const agents: Agent[] = [];
/** A client that counts the card reads it actually sends (a refused read never reaches the wire). */
const countingClient = (opts: Parameters<typeof clientWith>[0]) => {
  const sent = { cards: 0 };
  const agent = new Agent();
  agents.push(agent);
  const dispatcher = agent.compose((dispatch) => (o, handler) => {
    if (String(o.path).startsWith('/v3/markets')) sent.cards++;
    return dispatch(o, handler);
  });
  return { client: clientWith({ ...opts, dispatcher }), sent };
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', control: true, seed: 1, quiet: true });
  dir = mkdtempSync(join(tmpdir(), 'bot-cards-'));
  store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
  const catalog = new Catalog(clientWith({}), store);
  events = (await catalog.loadEvents(upcomingWindow(Date.now()))).filter((e) => (e.books ?? []).includes('bookie_a'));
  expect(events.length).toBeGreaterThan(3);
});
afterEach(async () => {
  // Cards are cached per store: each test reads the gateway afresh.
  await store.query("DELETE FROM keyv WHERE key LIKE 'bot:cache:card:%'");
});
afterAll(async () => {
  for (const c of clients) await c.close();
  for (const a of agents) await a.close();
  await store?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('card reads', () => {
  it('refuses a book the event does not have, naming its books, without a card read', async () => {
    const client = clientWith({});
    const get = vi.spyOn(client.markets, 'get');
    const catalog = new Catalog(client, store);
    const e = events[0] as Event;
    await expect(catalog.loadCard(e.event_id, 'bookie_nope')).rejects.toThrow(
      /bookie_nope has no card for .*Its books: .*bookie_a.*Pick one of those/,
    );
    expect(get).not.toHaveBeenCalled();
  });

  it('asks the book itself once the listing that named the event’s books is over a minute old', async () => {
    const client = clientWith({});
    const get = vi.spyOn(client.markets, 'get');
    const e = events.find((ev) => !(ev.books ?? []).includes('bookie_b'));
    if (!e) throw new Error('every listed event has bookie_b');
    // The same cached listing, read by a desk whose clock is now 61 s on: books list an event as it nears.
    const later = new Catalog(client, store, { now: () => Date.now() + 61_000 });
    await later.loadCard(e.event_id, 'bookie_b').catch(() => undefined);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("answers at once with the wait when the minute's card reads are used up", async () => {
    const { client, sent } = countingClient({ marketRateLimit: { perMinute: 2 } });
    const catalog = new Catalog(client, store);
    await catalog.loadCard((events[0] as Event).event_id, 'bookie_a');
    await catalog.loadCard((events[1] as Event).event_id, 'bookie_a');
    await expect(catalog.loadCard((events[2] as Event).event_id, 'bookie_a')).rejects.toThrow(
      /The gateway's card limit is reached; try again in about (5\d|60) s\./,
    );
    expect(sent.cards).toBe(2);
    // A cached card still answers.
    await expect(catalog.loadCard((events[0] as Event).event_id, 'bookie_a')).resolves.toBeDefined();
  });

  it("counts against the client's own limit, and lets a read queue for up to a quarter of its window", async () => {
    const { client, sent } = countingClient({ marketRateLimit: { perMinute: 2, windowMs: 2_000 } });
    const catalog = new Catalog(client, store);
    for (const e of events.slice(0, 2)) await catalog.loadCard(e.event_id, 'bookie_a');
    // The third read would wait close to the 2 s window, more than its 0.5 s allowance: answered at once.
    await expect(catalog.loadCard((events[2] as Event).event_id, 'bookie_a')).rejects.toThrow(/card limit is reached/);
    expect(sent.cards).toBe(2);
    // Once the window has all but passed, a read waits its turn instead of being refused.
    await new Promise((r) => setTimeout(r, 1_700));
    await expect(catalog.loadCard((events[2] as Event).event_id, 'bookie_a')).resolves.toBeDefined();
    expect(sent.cards).toBe(3);
  });

  it('answers with the limit instead of hanging, leaving no read queued in the client', async () => {
    const client = clientWith({ marketRateLimit: { perMinute: 1, windowMs: 3_000 } });
    const catalog = new Catalog(client, store, { cardMaxWaitMs: 300 });
    await catalog.loadCard((events[0] as Event).event_id, 'bookie_a');
    await expect(catalog.loadCard((events[1] as Event).event_id, 'bookie_a')).rejects.toThrow(
      /card limit is reached; try again in about \d+ s/,
    );
    expect(client.marketsLimiter.queued).toBe(0);
  });
});

describe('a /markets card read over the card limit', () => {
  it('tells the member how long it queues, once, then serves the card', async () => {
    const client = clientWith({ marketRateLimit: { perMinute: 1, windowMs: 1_000 } });
    const catalog = new Catalog(client, store);
    await catalog.loadCard((events[0] as Event).event_id, 'bookie_a');
    const told: QueuedInfo[] = [];
    const card = await catalog.loadCard(
      (events[1] as Event).event_id,
      'bookie_a',
      {},
      {
        maxQueueMs: 5_000,
        onQueued: (info) => told.push(info),
      },
    );
    expect(card.epk).toBe((events[1] as Event).event_id);
    expect(told).toHaveLength(1);
    expect(told[0]?.estimatedWaitMs).toBeGreaterThan(0);
    expect(told[0]?.estimatedWaitMs).toBeLessThanOrEqual(1_000);
  });

  it('gives up with the limit message when the wait is beyond its patience, without queueing', async () => {
    const client = clientWith({ marketRateLimit: { perMinute: 1 } });
    const catalog = new Catalog(client, store);
    await catalog.loadCard((events[0] as Event).event_id, 'bookie_a');
    const told: QueuedInfo[] = [];
    const read = catalog.loadCard(
      (events[1] as Event).event_id,
      'bookie_a',
      {},
      {
        maxQueueMs: 5_000,
        onQueued: (info) => told.push(info),
      },
    );
    await expect(read).rejects.toThrow(/card limit is reached; try again in about (5\d|60) s/);
    expect(told).toEqual([]);
  });

  it("words the interim reply with the client's own limit", () => {
    expect(cardQueuedMessage(40_000, { perMinute: 120, windowMs: 60_000 })).toBe(
      "Queued behind the gateway's limit of 120 cards a minute: your card arrives in about 40 s.",
    );
    expect(cardQueuedMessage(10, { perMinute: 2, windowMs: 2_000 })).toMatch(
      /limit of 2 cards per 2 s: .*about 1 s\.$/,
    );
  });

  it('says to try again in whole seconds, at least one', () => {
    expect(cardLimitMessage(41_200)).toBe("The gateway's card limit is reached; try again in about 42 s.");
    expect(cardLimitMessage(10)).toMatch(/about 1 s\.$/);
  });
});

describe("the catalog's memory in front of the store's cache (decision 2135)", () => {
  it('answers a card read again within its span from memory, with no read of the store', async () => {
    const catalog = new Catalog(clientWith({}), store);
    const e = events[0] as Event;
    const first = await catalog.loadCard(e.event_id, 'bookie_a');
    const reads = [vi.spyOn(store.kv, 'getRaw'), vi.spyOn(store.kv, 'get')];
    try {
      expect(await catalog.loadCard(e.event_id, 'bookie_a')).toBe(first);
      expect(await catalog.peekCard(e.event_id, 'bookie_a')).toBe(first);
      for (const read of reads) expect(read).not.toHaveBeenCalled();
    } finally {
      for (const read of reads) read.mockRestore();
    }
  });

  it("serves another process's newer copy once its span has passed, and a copy of its own at once", async () => {
    let now = 0;
    const here = new Catalog(clientWith({}), store, { memoryClock: () => now });
    const there = new Catalog(clientWith({}), store);
    const e = events[1] as Event;
    const mine = await here.loadCard(e.event_id, 'bookie_a');
    // Another process's watch reads the card afresh and caches it in the shared store.
    const theirs = await there.refreshCard(e.event_id, 'bookie_a');
    now += 1_999;
    expect(await here.loadCard(e.event_id, 'bookie_a')).toBe(mine);
    now += 1;
    const after = await here.loadCard(e.event_id, 'bookie_a');
    expect(after).not.toBe(mine);
    expect(after).toEqual(theirs);
    // This process's own fresh read replaces its memory at once.
    const refreshed = await here.refreshCard(e.event_id, 'bookie_a');
    expect(await here.loadCard(e.event_id, 'bookie_a')).toBe(refreshed);
  });
});
