import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../../../src/sandbox/core/router.js';
import { createSandboxServer } from '../../../src/sandbox/core/server.js';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { watchControlRoutes } from '../../../src/sandbox/routes/watch-control.js';
import { isBettable } from '../../../src/sandbox/world/card-view.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import { boot, get, post, worldOf } from './world-helpers.js';

// The watch controls on a server of their own (the platform mounts them with its /_sandbox routes).
let sb: RunningSandbox;
let world: SimWorld;
let control: Server;
let controlUrl: string;
beforeAll(async () => {
  sb = await boot();
  world = worldOf(sb);
  control = createSandboxServer(sb.sb, new Router(watchControlRoutes));
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    control?.close(() => resolve());
    control?.closeAllConnections();
  });
  await sb?.close();
});

const BOOKS = ['bookie_a', 'bookie_b', 'bookie_c'] as const;

/** A prematch event every book lists and links, and a head-to-head selection every book's card shows. */
function target() {
  for (const ev of world.allEvents()) {
    if (ev.isOutright || ev.startMs < world.nowMs() + 86_400_000) continue;
    if (!BOOKS.every((b) => world.link(ev, b).linked)) continue;
    const markets = BOOKS.map((b) => world.card(ev, b).find((m) => m.market === 'head_to_head'));
    const slug = markets[0]?.selections.find((s) =>
      markets.every((m) => m?.selections.some((x) => x.slug === s.slug && isBettable(x))),
    )?.slug;
    if (slug) return { epk: ev.epk, market: 'head_to_head', selection: slug };
  }
  throw new Error('no event with a head-to-head selection all three books show');
}

async function cardPrice(bookie: string, t: ReturnType<typeof target>): Promise<number> {
  const card = await get(sb.url, '/v3/markets', { epk: t.epk, bookie, market: t.market });
  const row = card.body.markets[0].selections.find((s: { slug: string }) => s.slug === t.selection);
  return row.odds;
}

describe('watch control routes', () => {
  it('POST /_sandbox/world/price shows the price on the card from the next scrape, not before', async () => {
    const t = target();
    const before = await cardPrice('bookie_b', t);
    const res = await post(controlUrl, '/_sandbox/world/price', { bookie: 'bookie_b', ...t, price: 7.77 });
    expect(res.status).toBe(200);
    expect(await cardPrice('bookie_b', t)).toBe(before);
    sb.sb.clock.advance(Date.parse(res.body.move.scrape_at) - world.nowMs());
    expect(await cardPrice('bookie_b', t)).toBe(7.77);
  });

  it('POST /_sandbox/world/steam moves every named book the same way at the next scrape', async () => {
    const t = target();
    const books = ['bookie_a', 'bookie_b', 'bookie_c'];
    const scrape = world.nextScrapeMs();
    // The natural drift of the next step, measured on the world without the move, is what the move multiplies.
    const natural = books.map((b) => {
      const sel = world.card(world.findEvent(t.epk)!, b as 'bookie_a').find((m) => m.market === t.market)!;
      return world.livePrice(b, t.epk, t.market, sel.selections.find((s) => s.slug === t.selection)!, scrape);
    });
    const res = await post(controlUrl, '/_sandbox/world/steam', { ...t, factor: 0.8 });
    expect(res.status).toBe(200);
    expect(res.body.steam.books.map((b: { bookie: string }) => b.bookie)).toEqual(books);
    sb.sb.clock.advance(scrape - world.nowMs());
    const after = await Promise.all(books.map((b) => cardPrice(b, t)));
    for (const [i, p] of after.entries()) expect(p).toBeCloseTo(natural[i]! * 0.8, 1);
  });

  it('POST /_sandbox/world/steam with no books named moves only the books whose card lists the selection', async () => {
    // A selection two books' cards list and the third's does not (books carry different markets).
    let pick: { t: ReturnType<typeof target>; listing: string[] } | undefined;
    for (const ev of world.allEvents()) {
      if (pick) break;
      if (ev.isOutright || ev.startMs < world.nowMs() + 86_400_000) continue;
      const cards = BOOKS.map((b) => world.card(ev, b));
      for (const m of cards.flat()) {
        const s = m.selections[0];
        if (!s) continue;
        const listing = BOOKS.filter((_, i) =>
          cards[i]!.some((x) => x.market === m.market && x.selections.some((y) => y.slug === s.slug)),
        );
        if (listing.length === 2) {
          pick = { t: { epk: ev.epk, market: m.market, selection: s.slug }, listing };
          break;
        }
      }
    }
    expect(pick, 'no selection exactly two books list').toBeDefined();
    const res = await post(controlUrl, '/_sandbox/world/steam', { ...pick!.t, factor: 0.8 });
    expect(res.status).toBe(200);
    expect(res.body.steam.books.map((b: { bookie: string }) => b.bookie)).toEqual(pick!.listing);
  });

  it('refuses an unknown selection (404) and a steam of one book (400)', async () => {
    const t = target();
    const missing = await post(controlUrl, '/_sandbox/world/price', {
      bookie: 'bookie_a',
      ...t,
      selection: 'no-such-slug',
      price: 2,
    });
    expect(missing.status).toBe(404);
    const lone = await post(controlUrl, '/_sandbox/world/steam', { ...t, factor: 0.9, books: ['bookie_a'] });
    expect(lone.status).toBe(400);
    expect(lone.body.field).toBe('books');
  });
});
