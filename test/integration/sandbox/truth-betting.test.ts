// Spec paths the sandbox could not produce before: the book's own market titles (sports rule 7), bookie_a
// same-game multis, bet_status with any number of ids, and a session whose client is offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import { boot, get, post, upcomingEvent, waitJob, worldOf } from './world-helpers.js';

const A = '5e55a1fa-0000-4000-8000-00000000000a';
const B = '5e55a1fa-0000-4000-8000-00000000000b';
const C = '5e55a1fa-0000-4000-8000-00000000000c';
const OFFLINE = '5e55b2a0-0000-4000-8000-0000000000c2';
const BRAVO = 'sandbox-key-bravo';

let sb: RunningSandbox;
let world: SimWorld;
beforeAll(async () => {
  sb = await boot();
  world = worldOf(sb);
});
afterAll(async () => {
  await sb?.close();
});

async function placeAndWait(body: Record<string, unknown>) {
  const res = await post(sb.url, '/v3/place_bet', body);
  expect(res.status).toBe(202);
  return (await waitJob(sb.url, res.body.correlation_id)).result;
}

describe("sports rule 7: any market string of the book's own catalogue", () => {
  it('places a bookie_b bet named by its own title for head_to_head ("Match Winner")', async () => {
    const ev = upcomingEvent(world, (e) => e.league === 'afl' && world.link(e, 'bookie_b').linked);
    const card = await get(sb.url, '/v3/markets', { epk: ev.epk, bookie: 'bookie_b', market: 'head_to_head' });
    expect(card.body.markets[0].raw_market_name).toBe('Match Winner');
    const result = await placeAndWait({
      session_id: B,
      category: 'sports',
      competition: 'afl',
      event: ev.name,
      market: 'Match Winner',
      selection: 'home',
      stake: 3,
      target_odds: 1.01,
    });
    expect(result.success).toBe(true);
    expect(result.market).toBe('head_to_head');
  });

  it("places an unmapped market by the book's title, and still refuses our slug of it", async () => {
    const ev = upcomingEvent(world, (e) => e.league === 'nrl' && world.link(e, 'bookie_a').linked);
    const card = await get(sb.url, '/v3/markets', { epk: ev.epk, bookie: 'bookie_a', tier: 'unmapped' });
    const market = card.body.markets[0];
    const body = {
      session_id: A,
      category: 'sports',
      competition: 'nrl',
      event: ev.name,
      selection: market.selections[0].label,
      stake: 3,
      target_odds: 1.01,
    };
    const byTitle = await placeAndWait({ ...body, market: market.raw_market_name });
    expect(byTitle.success).toBe(true);
    expect(byTitle.market).toBe(market.market);
    const bySlug = await placeAndWait({ ...body, market: market.market });
    expect(bySlug.bet_result.error).toMatch(/^unmapped_market/);
  });
});

describe('sports same-game multis (bookie_a)', () => {
  it('places legs given as market_refs and as market + selection, priced below the product of the legs', async () => {
    const ev = upcomingEvent(world, (e) => e.league === 'nba' && world.link(e, 'bookie_a').linked);
    const card = await get(sb.url, '/v3/markets', { epk: ev.epk, bookie: 'bookie_a' });
    const market = (key: string) => card.body.markets.find((m: { market: string }) => m.market === key);
    const home = market('head_to_head').selections[0];
    const total = market('total_points').selections[0] as { label: string; line: number };
    const side = total.label.startsWith('Over') ? 'over' : 'under';
    const result = await placeAndWait({
      session_id: A,
      category: 'sports',
      sport: 'nba',
      epk: ev.epk,
      is_same_event_multi: true,
      legs: [{ market_ref: home.market_ref }, { market: 'total_points', selection: side, line: total.line }],
      stake: 4,
      target_odds: 1.01,
    });
    expect(result.error).toBeNull();
    expect(result.market).toBe('sgm');
    expect(result.legs.map((l: { market: string }) => l.market)).toEqual(['head_to_head', 'total_points']);
    const product = result.legs.reduce((a: number, l: { odds: number }) => a * l.odds, 1);
    expect(result.odds).toBeLessThan(product);

    const state = await get(sb.url, '/_sandbox/state');
    const bet = state.body.bets.find((b: { bet: { bet_id: string } }) => b.bet.bet_id === result.bet_id);
    expect(bet.bet.bet_type).toBe('sgm');
    expect(bet.bet.selections).toHaveLength(2);
    await post(sb.url, '/_sandbox/settle', { epk: ev.epk });
    const settled = await get(sb.url, '/_sandbox/state');
    const after = settled.body.bets.find((b: { bet: { bet_id: string } }) => b.bet.bet_id === result.bet_id);
    expect(['won', 'lost', 'void']).toContain(after.status);
  });

  it('refuses a same-game multi on another book (400) and legs from two games (job failure)', async () => {
    const refused = await post(sb.url, '/v3/place_bet', {
      session_id: C,
      category: 'sports',
      competition: 'afl',
      event: 'x v y',
      is_same_event_multi: true,
      legs: [
        { market: 'head_to_head', selection: 'home' },
        { market: 'line', selection: 'home' },
      ],
      stake: 2,
      target_odds: 1.01,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('session_id');

    const games = world
      .allEvents()
      .filter(
        (e) =>
          e.league === 'afl' && !e.isOutright && world.status(e) === 'prematch' && world.link(e, 'bookie_a').linked,
      )
      .slice(0, 2);
    const refs = [];
    for (const g of games) {
      const c = await get(sb.url, '/v3/markets', { epk: g.epk, bookie: 'bookie_a', market: 'head_to_head' });
      refs.push({ market_ref: c.body.markets[0].selections[0].market_ref });
    }
    const twoGames = await placeAndWait({
      session_id: A,
      category: 'sports',
      sport: 'afl',
      is_same_event_multi: true,
      legs: refs,
      stake: 2,
      target_odds: 1.01,
    });
    expect(twoGames.success).toBe(false);
    expect(twoGames.bet_result.error).toMatch(/^legs_not_same_game/);
  });

  it('needs at least two legs, naming the field', async () => {
    const res = await post(sb.url, '/v3/place_bet', {
      session_id: A,
      category: 'sports',
      epk: 'x',
      is_same_event_multi: true,
      legs: [{ market: 'head_to_head', selection: 'home' }],
      stake: 2,
      target_odds: 1.01,
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('legs');
  });
});

describe('bet_status', () => {
  it('accepts more than 500 correlation ids in one call', async () => {
    const ids = Array.from({ length: 750 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const res = await post(sb.url, '/api/bet_status', { correlation_ids: ids });
    expect(res.status).toBe(200);
    expect(res.body.statuses).toHaveLength(750);
  });
});

describe('a session whose client is offline', () => {
  it('reports delivered false on start; the session starts only once its client connects', async () => {
    const res = await post(sb.url, '/api/start_session', { session_id: OFFLINE }, BRAVO);
    expect(res.body).toEqual({ status: 'success', session_status: 'launching', delivered: false });
    await post(sb.url, '/_sandbox/clock/advance', { ms: 60_000 });
    const listed = await post(sb.url, '/api/session_ids', {}, BRAVO);
    const row = listed.body.sessions.find((s: { session_id: string }) => s.session_id === OFFLINE);
    expect(row).toMatchObject({ status: 'launching', active: false });

    const connected = await post(sb.url, '/_sandbox/clients/connect', { session_id: OFFLINE });
    expect(connected.body.did).toBe('launched');
    await post(sb.url, '/_sandbox/clock/advance', { ms: 3_000 });
    const after = await post(sb.url, '/api/session_ids', {}, BRAVO);
    expect(after.body.sessions.find((s: { session_id: string }) => s.session_id === OFFLINE).active).toBe(true);
  });

  it('stops a revoked session when its offline client reconnects; without revoke the waiting launch runs', async () => {
    await post(sb.url, '/_sandbox/clients/disconnect', { session_id: OFFLINE });
    const restart = await post(sb.url, '/api/restart_session', { session_id: OFFLINE }, BRAVO);
    expect(restart.body.delivered).toBe(false);
    const stop = await post(sb.url, '/v3/stop_session', { session_id: OFFLINE, revoke: true }, BRAVO);
    expect(stop.body).toEqual({ status: 'stopped', session_id: OFFLINE, delivered: false });
    const revoked = await post(sb.url, '/_sandbox/clients/connect', { session_id: OFFLINE });
    expect(revoked.body).toMatchObject({ did: 'stopped', status: 'stopped' });

    await post(sb.url, '/_sandbox/clients/disconnect', { session_id: OFFLINE });
    await post(sb.url, '/api/start_session', { session_id: OFFLINE }, BRAVO);
    await post(sb.url, '/v3/stop_session', { session_id: OFFLINE }, BRAVO);
    const resumed = await post(sb.url, '/_sandbox/clients/connect', { session_id: OFFLINE });
    expect(resumed.body.did).toBe('launched');
  });
});
