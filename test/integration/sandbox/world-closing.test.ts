// Closing prices: the card read just before the off is the close; has_closing and the control route agree.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { offOf } from '../../../src/sandbox/world/lifecycle.js';
import { boot, get, post, START, TOMORROW, upcomingEvent, worldOf } from './world-helpers.js';

let sb: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const closing = (base: string, query: Record<string, string>) => get(base, '/_sandbox/world/closing', query);
const advanceTo = async (base: string, ms: number) => {
  const now = Date.parse((await get(base, '/_sandbox/state')).body.now);
  await post(base, '/_sandbox/clock/advance', { ms: ms - now });
};

describe('closing prices', () => {
  it("records each book's card read just before the off as the close, and lists has_closing true once finished", async () => {
    sb = await boot();
    const world = worldOf(sb);
    const ev = upcomingEvent(
      world,
      (e) => e.league === 'nba' && world.link(e, 'bookie_a').linked && offOf(world.seed, e).hasClosing === true,
    );
    const early = await closing(sb.url, { epk: ev.epk });
    expect(early.status).toBe(409);
    const offMs = Date.parse(early.body.off_at);

    await advanceTo(sb.url, offMs - 1_000);
    const lastCard = await get(sb.url, '/v3/markets', { epk: ev.epk, bookie: 'bookie_a' });
    expect(lastCard.status).toBe(200);
    await advanceTo(sb.url, ev.startMs + ev.durationMs + 60_000);

    const close = await closing(sb.url, { epk: ev.epk, bookie: 'bookie_a' });
    expect(close.status).toBe(200);
    expect(close.body).toMatchObject({ epk: ev.epk, kind: 'sports', status: 'finished', has_closing: true });
    expect(close.body.off_at).toBe(early.body.off_at);
    const book = close.body.books[0];
    expect(close.body.books.map((b: { bookie: string }) => b.bookie)).toEqual(['bookie_a']);
    const closeOdds = new Map<string, number>();
    for (const m of book.markets) for (const s of m.selections) closeOdds.set(s.market_ref, s.odds);
    const cardOdds = new Map<string, number>();
    for (const m of lastCard.body.markets) for (const s of m.selections) cardOdds.set(s.market_ref, s.odds);
    expect(cardOdds.size).toBeGreaterThan(10);
    expect(closeOdds).toEqual(cardOdds);

    const listing = await get(sb.url, '/odds/v1/events', {
      league: 'nba',
      status: 'finished',
      date: ev.epk.slice(-10),
    });
    const row = listing.body.data.find((e: { event_id: string }) => e.event_id === ev.epk);
    expect(row.has_closing).toBe(true);
  });

  it('answers no books for an event whose closing check failed (has_closing null), as the listing says', async () => {
    sb = await boot();
    const world = worldOf(sb);
    const ev = world
      .allEvents()
      .find((e) => !e.isOutright && world.status(e) === 'finished' && offOf(world.seed, e).hasClosing === null);
    expect(ev).toBeDefined();
    const close = await closing(sb.url, { epk: ev!.epk });
    expect(close.body).toMatchObject({ has_closing: null, books: [] });
    const day = ev!.epk.slice(-10);
    const listing = await get(sb.url, '/odds/v1/events', { status: 'finished', date: day, limit: 200 });
    expect(listing.body.data.find((e: { event_id: string }) => e.event_id === ev!.epk).has_closing).toBeNull();
  });

  it("records a race's close per book as the win and place prices just before the jump", async () => {
    sb = await boot();
    const world = worldOf(sb);
    const race = world.race('Randwick', 2, 'R', TOMORROW)!;
    expect((await closing(sb.url, { epk: race.key })).status).toBe(409);
    // Prices step every 5 minutes and races jump on a step: three minutes before the jump is the last step.
    await advanceTo(sb.url, race.startMs - 3 * 60_000);
    const check = await post(sb.url, '/v3/price_check', {
      session_ids: ['5e55a1fa-0000-4000-8000-00000000000c'],
      category: 'racing',
      track: 'Randwick',
      race_num: 2,
      date: TOMORROW,
    });
    const priced = await (async () => {
      for (;;) {
        const r = await post(sb!.url, '/api/bet_status', { correlation_ids: [check.body.queries[0].correlation_id] });
        if (r.body.statuses[0].status !== 'pending') return r.body.statuses[0].result;
      }
    })();
    await advanceTo(sb.url, race.startMs + 10 * 60_000);
    const close = await closing(sb.url, { epk: race.key, bookie: 'bookie_c' });
    expect(close.body).toMatchObject({ kind: 'racing', status: 'finished', has_closing: true });
    const win = close.body.books[0].markets.find((m: { market: string }) => m.market === 'win');
    const first = priced.selections[0];
    expect(win.selections.find((s: { label: string }) => s.label === first.runner).odds).toBe(
      first.prices.find((p: { market: string }) => p.market === 'win').price,
    );
  });

  it('says what to send for a missing or unknown event', async () => {
    sb = await boot({ start: START });
    expect((await closing(sb.url, {})).status).toBe(400);
    const unknown = await closing(sb.url, { epk: 'basketball/us/nba/nobody_v_noone/2026-11-21' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/event_id/);
  });
});
