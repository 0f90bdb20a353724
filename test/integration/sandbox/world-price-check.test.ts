import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import type { SportEvent } from '../../../src/sandbox/world/sports.js';
import { boot, get, post, TOMORROW, upcomingEvent, waitJob, worldOf } from './world-helpers.js';

let sb: RunningSandbox;
let world: SimWorld;
beforeAll(async () => {
  sb = await boot();
  world = worldOf(sb);
});
afterAll(async () => {
  await sb?.close();
});

const A = '5e55a1fa-0000-4000-8000-00000000000a';
const C = '5e55a1fa-0000-4000-8000-00000000000c';
const upcoming = (pred: (ev: SportEvent) => boolean) => upcomingEvent(world, pred);

describe('POST /v3/price_check racing', () => {
  it('answers 400 when session_ids is missing or empty', async () => {
    for (const body of [{ category: 'racing' }, { category: 'racing', session_ids: [] }]) {
      const res = await post(sb.url, '/v3/price_check', { ...body, track: 'Flemington', race_num: 1, date: TOMORROW });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('session_ids is required');
    }
  });

  it('answers 404 race_not_found for a race the world does not hold', async () => {
    const res = await post(sb.url, '/v3/price_check', {
      session_ids: [A],
      category: 'racing',
      track: 'Nowhere Park',
      race_num: 1,
      date: TOMORROW,
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('race_not_found');
  });

  it('answers 202 with one query per session, each resolving to win and place prices per runner', async () => {
    const res = await post(sb.url, '/v3/price_check', {
      session_ids: [A, C],
      category: 'racing',
      track: 'Wentworth Park',
      race_num: 2,
      race_type: '(G)',
      date: TOMORROW,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'pending',
      category: 'racing',
      race: { track: 'Wentworth Park', race_num: 2, race_type: '(G)', date: TOMORROW },
    });
    expect(res.body.queries.map((q: { session_id: string }) => q.session_id)).toEqual([A, C]);
    const race = world.race('Wentworth Park', 2, 'G', TOMORROW)!;
    for (const q of res.body.queries) {
      const entry = await waitJob(sb.url, q.correlation_id);
      expect(entry.status).toBe('completed');
      expect(entry.result).toMatchObject({ status: 'success', category: 'racing', session_id: q.session_id });
      expect(entry.result.selections).toHaveLength(race.runners.length);
      const first = entry.result.selections[0];
      expect(first.runner).toBe(race.runners[0]!.name);
      expect(first.prices.map((p: { market: string }) => p.market)).toEqual(['win', 'place']);
      expect(first.prices[0].price).toBeGreaterThan(first.prices[1].price);
    }
  });

  it('reports failure for a runner filter that is not in the race', async () => {
    const res = await post(sb.url, '/v3/price_check', {
      session_ids: [A],
      category: 'racing',
      track: 'Menangle',
      race_num: 3,
      race_type: '(H)',
      date: TOMORROW,
      runner: 'Not A Horse',
    });
    const entry = await waitJob(sb.url, res.body.queries[0].correlation_id);
    expect(entry.result.status).toBe('failure');
    expect(entry.result.error).toMatch(/^runner_not_found/);
  });
});

describe('POST /v3/price_check sports', () => {
  it('prices a market_ref at the live price, then answers a repeat within 10 s already resolved', async () => {
    const ev = upcoming((e) => e.league === 'nhl' && world.link(e, 'bookie_a').linked);
    const card = await get(sb.url, '/v3/markets', { epk: ev.epk, bookie: 'bookie_a', market: 'head_to_head' });
    const row = card.body.markets[0].selections[0];
    world.forceDrift({ bookie: 'bookie_a', epk: ev.epk, factor: 1.25 });
    const body = { session_ids: [A], category: 'sports', sport: 'nhl', epk: ev.epk, market_ref: row.market_ref };
    const first = await post(sb.url, '/v3/price_check', body);
    expect(first.status).toBe(202);
    expect(first.body.category).toBe('sports');
    const q = first.body.queries[0];
    expect(typeof q.correlation_id).toBe('string');
    const entry = await waitJob(sb.url, q.correlation_id);
    expect(entry.result).toMatchObject({ status: 'success', category: 'sports', bookie: 'bookie_a', session_id: A });
    const sel = entry.result.selections[0];
    expect(sel).toMatchObject({ label: row.label, market: 'head_to_head', market_ref: row.market_ref });
    expect(sel.price).toBeGreaterThan(row.odds);

    const again = await post(sb.url, '/v3/price_check', body);
    expect(again.status).toBe(202);
    const fast = again.body.queries[0];
    expect(fast).toMatchObject({ session_id: A, correlation_id: null, status: 'success', bookie: 'bookie_a' });
    expect(fast.selections[0].price).toBe(sel.price);
  });

  it('prices a whole market named by text when no selection is sent', async () => {
    const ev = upcoming((e) => e.league === 'soccer' && world.link(e, 'bookie_c').linked);
    const res = await post(sb.url, '/v3/price_check', {
      session_ids: [C],
      category: 'sports',
      competition: 'Soccer',
      event: ev.name,
      market: 'match_result_3way',
    });
    const entry = await waitJob(sb.url, res.body.queries[0].correlation_id);
    expect(entry.result.status).toBe('success');
    expect(entry.result.selections.length).toBeGreaterThanOrEqual(2);
    expect(entry.result.selections.every((s: { market: string }) => s.market === 'head_to_head')).toBe(true);
  });

  it('answers 409 for a market_ref price check whose site_event_id conflicts', async () => {
    const [e1, e2] = world
      .allEvents()
      .filter((e) => !e.isOutright && e.startMs > world.nowMs() && world.link(e, 'bookie_a').linked);
    const card = await get(sb.url, '/v3/markets', { epk: e1!.epk, bookie: 'bookie_a', market: 'head_to_head' });
    const res = await post(sb.url, '/v3/price_check', {
      session_ids: [A],
      category: 'sports',
      sport: e1!.league,
      epk: e1!.epk,
      market_ref: card.body.markets[0].selections[0].market_ref,
      site_event_id: (world.link(e2!, 'bookie_a') as { siteEventId: string }).siteEventId,
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('site_event_id_conflict');
  });
});

describe('POST /v3/stacked_srm', () => {
  const race = () => world.race('Flemington', 6, 'R', TOMORROW)!;
  const legs = (i: number, j: number) => [
    { runner: race().runners[i]!.name, position: 'win' },
    { runner: race().runners[j]!.name, position: 'top3' },
  ];
  const base = () => ({ session_id: A, track: 'Flemington', race_num: 6, date: TOMORROW });

  it.each([
    [{ session_id: C }, 'session_id'],
    [{ bets: [{ stake: 5, legs: [] }] }, 'bets'],
    [{ bets: 'one' }, 'bets'],
  ])('answers 400 for %o', async (patch, field) => {
    const res = await post(sb.url, '/v3/stacked_srm', {
      ...base(),
      bets: [
        { stake: 5, legs: legs(0, 1) },
        { stake: 5, legs: legs(2, 3) },
      ],
      ...patch,
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('answers 400 for a multi with one leg or a stake of zero', async () => {
    const oneLeg = await post(sb.url, '/v3/stacked_srm', {
      ...base(),
      bets: [
        { stake: 5, legs: legs(0, 1).slice(0, 1) },
        { stake: 5, legs: legs(2, 3) },
      ],
    });
    expect([oneLeg.status, oneLeg.body.field]).toEqual([400, 'bets[0].legs']);
    const zero = await post(sb.url, '/v3/stacked_srm', {
      ...base(),
      bets: [
        { stake: 5, legs: legs(0, 1) },
        { stake: 0, legs: legs(2, 3) },
      ],
    });
    expect([zero.status, zero.body.field]).toEqual([400, 'bets[1].stake']);
  });

  it('places every multi as its own srm bet', async () => {
    const res = await post(sb.url, '/v3/stacked_srm', {
      ...base(),
      bets: [
        { stake: 5, legs: legs(0, 1) },
        { stake: 3, legs: legs(2, 3) },
      ],
    });
    expect(res.status).toBe(202);
    const entry = await waitJob(sb.url, res.body.correlation_id);
    const r = entry.result;
    expect(r).toMatchObject({ success: true, placed: 2, failed: 0 });
    expect(r.results).toHaveLength(2);
    for (const row of r.results) {
      expect(row).toMatchObject({ success: true, market: 'srm', track: 'Flemington', race_num: 6, error: null });
      expect(typeof row.bet_id).toBe('string');
      expect(row.legs[0]).toMatchObject({ position: 'win' });
      expect(typeof row.legs[0].number).toBe('number');
      expect(typeof row.legs[0].proposition_id).toBe('string');
    }
    const state = await get(sb.url, '/_sandbox/state');
    const srm = state.body.bets.filter((b: { bet: { bet_id: string } }) =>
      r.results.some((x: { bet_id: string }) => x.bet_id === b.bet.bet_id),
    );
    expect(srm.map((b: { bet: { bet_type: string } }) => b.bet.bet_type)).toEqual(['srm', 'srm']);
  });

  it('aborts the whole stack, placing nothing, when one multi is priced below its target_odds', async () => {
    const before = (await get(sb.url, '/_sandbox/state')).body.bets.length;
    const res = await post(sb.url, '/v3/stacked_srm', {
      ...base(),
      bets: [
        { stake: 5, legs: legs(0, 1) },
        { stake: 5, legs: legs(2, 3), target_odds: 100_000 },
      ],
    });
    const entry = await waitJob(sb.url, res.body.correlation_id);
    expect(entry.result).toMatchObject({ success: false, placed: 0, results: [] });
    expect(entry.result.error).toMatch(/^odds_below_target: bet 2/);
    expect((await get(sb.url, '/_sandbox/state')).body.bets.length).toBe(before);
  });
});
