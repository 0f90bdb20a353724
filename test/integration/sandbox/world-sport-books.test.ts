// Issue 45, item 1: a book that takes no bets on a sport (basketball is bet at bookie_a only) serves no bettable
// card for it, so nothing the desk reads offers a bet that book will refuse (decision 1995).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import { offOf } from '../../../src/sandbox/world/lifecycle.js';
import type { SportEvent } from '../../../src/sandbox/world/sports.js';
import { boot, get, post, upcomingEvent, waitJob, worldOf } from './world-helpers.js';

const C = '5e55a1fa-0000-4000-8000-00000000000c';

let sb: RunningSandbox;
let world: SimWorld;
let nba: SportEvent;
beforeAll(async () => {
  sb = await boot();
  world = worldOf(sb);
  nba = upcomingEvent(
    world,
    (e) => e.league === 'nba' && world.link(e, 'bookie_a').linked && world.link(e, 'bookie_c').linked,
  );
});
afterAll(async () => {
  await sb?.close();
});

interface Row {
  bettable: boolean;
  reason?: string;
  market_ref?: string;
}
const rowsOf = (body: { markets: { selections: Row[] }[] }) => body.markets.flatMap((m) => m.selections);

describe('a book that takes no basketball bets', () => {
  it("lists the NBA game and is bound to it, but offers nothing to bet: an empty card (bookie_a's has rows), a price check refused", async () => {
    const listed = await get(sb.url, '/odds/v1/events', { league: 'nba', date: nba.epk.slice(-10), limit: 100 });
    const row = listed.body.data.find((e: { event_id: string }) => e.event_id === nba.epk);
    expect(row.books).toEqual(expect.arrayContaining(['bookie_a', 'bookie_c']));

    const atA = await get(sb.url, '/v3/markets', { epk: nba.epk, bookie: 'bookie_a' });
    expect(atA.body.n_bettable_selections).toBeGreaterThan(10);
    const atC = await get(sb.url, '/v3/markets', { epk: nba.epk, bookie: 'bookie_c' });
    expect(atC.status).toBe(200);
    expect(atC.body).toMatchObject({
      bookie: 'bookie_c',
      bound: true,
      markets: [],
      n_markets: 0,
      n_selections: 0,
      n_bettable_selections: 0,
    });
    // The same word at job time: the refusal names the book that takes the sport.
    const sent = await post(sb.url, '/v3/price_check', {
      session_ids: [C],
      category: 'sports',
      competition: 'NBA',
      event: nba.name,
      market: 'head_to_head',
      selection: 'home',
    });
    expect(sent.status).toBe(202);
    const entry = await waitJob(sb.url, sent.body.queries[0].correlation_id);
    expect(entry.result.status).toBe('failure');
    expect(entry.result.error).toBe('not_offered: basketball betting is offered by bookie_a only, not bookie_c');
  });

  it('shows its prices only with include_unbettable, every row unbettable (no_proposition_id) and without a market_ref', async () => {
    const shown = await get(sb.url, '/v3/markets', { epk: nba.epk, bookie: 'bookie_c', include_unbettable: true });
    const rows = rowsOf(shown.body);
    expect(rows.length).toBeGreaterThan(10);
    expect(shown.body.n_bettable_selections).toBe(0);
    expect(rows.filter((s) => s.bettable || s.reason !== 'no_proposition_id' || s.market_ref !== undefined)).toEqual(
      [],
    );
  });

  it('records no close for it: the close is the card read before the off, and that card had no bettable row', async () => {
    const now = world.nowMs();
    const done = world
      .allEvents()
      .find(
        (e) =>
          !e.isOutright &&
          e.league === 'nba' &&
          world.status(e, now) === 'finished' &&
          offOf(world.seed, e).hasClosing === true &&
          world.link(e, 'bookie_a', e.startMs).linked &&
          world.link(e, 'bookie_c', e.startMs).linked,
      );
    expect(done, 'a finished NBA game both books were on, with a close').toBeDefined();
    const close = await get(sb.url, '/_sandbox/world/closing', { epk: done!.epk });
    expect(close.status).toBe(200);
    const marketsOf = (bookie: string) =>
      close.body.books.find((b: { bookie: string }) => b.bookie === bookie)?.markets ?? [];
    expect(marketsOf('bookie_a').length).toBeGreaterThan(0);
    expect(marketsOf('bookie_c')).toEqual([]);
  });

  it('refuses to move its price (409 with the reason): no card read could ever show the move', async () => {
    const card = await get(sb.url, '/v3/markets', {
      epk: nba.epk,
      bookie: 'bookie_c',
      market: 'head_to_head',
      include_unbettable: true,
    });
    const slug = card.body.markets[0].selections[0].slug as string;
    const moved = await post(sb.url, '/_sandbox/world/price', {
      bookie: 'bookie_c',
      epk: nba.epk,
      market: 'head_to_head',
      selection: slug,
      price: 9,
    });
    expect(moved.status).toBe(409);
    expect(moved.body.detail).toMatch(/basketball betting is offered by bookie_a only, not bookie_c/);
  });

  it('gets no bet-boost card on a basketball game, even when NBA games are the soonest to start', async () => {
    // At 20:00 UTC the evening's NBA games are the first fixtures far enough ahead for a boost.
    const evening = await boot({ start: new Date('2026-11-20T20:00:00.000Z') });
    try {
      const res = await get(evening.url, '/v3/account_promos', { bookie: 'bookie_c' });
      const boosts = (res.body.promos as { kind: string; epk?: string }[]).filter((p) => p.kind === 'sports' && p.epk);
      expect(boosts.length).toBeGreaterThanOrEqual(3);
      expect(boosts.filter((p) => p.epk?.startsWith('basketball/'))).toEqual([]);
    } finally {
      await evening.close();
    }
  });

  it('with the unofferedCards fault, shows the rows as bettable while a bet by their market_ref is still refused not_offered', async () => {
    expect((await post(sb.url, '/_sandbox/faults', { unofferedCards: true })).status).toBe(200);
    try {
      const card = await get(sb.url, '/v3/markets', { epk: nba.epk, bookie: 'bookie_c', market: 'head_to_head' });
      const row = card.body.markets[0]?.selections[0] as Row | undefined;
      expect(row?.bettable).toBe(true);
      const sent = await post(sb.url, '/v3/place_bet', {
        session_id: C,
        sport: 'nba',
        epk: nba.epk,
        market_ref: row?.market_ref,
        stake: 5,
        target_odds: 1.01,
      });
      expect(sent.status).toBe(202);
      const entry = await waitJob(sb.url, sent.body.correlation_id);
      expect([entry.result.success, entry.result.error]).toEqual([
        false,
        'not_offered: basketball betting is offered by bookie_a only, not bookie_c',
      ]);
    } finally {
      await post(sb.url, '/_sandbox/faults', {});
    }
  });
});
