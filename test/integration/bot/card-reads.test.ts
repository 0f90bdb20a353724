import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Catalog } from '../../../src/bot/catalog.js';
import { upcomingWindow } from '../../../src/bot/choices.js';
import { type BotStore, openStore } from '../../../src/bot/store.js';
import type { Event } from '../../../src/gateway/index.js';
import { GatewayClient } from '../../../src/gateway/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { API_KEY } from './desk.js';

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

  it("answers at once with the wait when the minute's card reads are used up", async () => {
    const client = clientWith({});
    const get = vi.spyOn(client.markets, 'get');
    const catalog = new Catalog(client, store, { cardsPerMinute: 2 });
    await catalog.loadCard((events[0] as Event).event_id, 'bookie_a');
    await catalog.loadCard((events[1] as Event).event_id, 'bookie_a');
    await expect(catalog.loadCard((events[2] as Event).event_id, 'bookie_a')).rejects.toThrow(
      /The gateway's card limit is reached; try again in about (5\d|60) s\./,
    );
    expect(get).toHaveBeenCalledTimes(2);
    // A cached card still answers.
    await expect(catalog.loadCard((events[0] as Event).event_id, 'bookie_a')).resolves.toBeDefined();
  });

  it("counts against the client's own limit, and lets a read queue for up to a quarter of its window", async () => {
    const client = clientWith({ marketRateLimit: { perMinute: 2, windowMs: 2_000 } });
    const get = vi.spyOn(client.markets, 'get');
    const catalog = new Catalog(client, store);
    for (const e of events.slice(0, 2)) await catalog.loadCard(e.event_id, 'bookie_a');
    // The third read would wait close to the 2 s window, more than its 0.5 s allowance: answered at once.
    await expect(catalog.loadCard((events[2] as Event).event_id, 'bookie_a')).rejects.toThrow(/card limit is reached/);
    expect(get).toHaveBeenCalledTimes(2);
    // Once the window has all but passed, a read waits its turn instead of being refused.
    await new Promise((r) => setTimeout(r, 1_700));
    await expect(catalog.loadCard((events[2] as Event).event_id, 'bookie_a')).resolves.toBeDefined();
    expect(get).toHaveBeenCalledTimes(3);
  });

  it("answers with the limit instead of hanging when the client's limiter holds the read", async () => {
    // A limiter this process's count does not know about (as when another process shares the key).
    const client = clientWith({ marketRateLimit: { perMinute: 1, windowMs: 3_000 } });
    // This process's own count allows the read; only the client's limiter knows better.
    const catalog = new Catalog(client, store, { cardMaxWaitMs: 300, cardsPerMinute: 120, cardWindowMs: 60_000 });
    await catalog.loadCard((events[0] as Event).event_id, 'bookie_a');
    await expect(catalog.loadCard((events[1] as Event).event_id, 'bookie_a')).rejects.toThrow(
      /card limit is reached; try again in about \d+ s/,
    );
    expect(client.marketsLimiter.queued).toBe(1);
  });
});
