import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boostTokenAvailable } from '../../../src/sandbox/accounts/race-promos.js';
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
const B = '5e55a1fa-0000-4000-8000-00000000000b';
const C = '5e55a1fa-0000-4000-8000-00000000000c';
const upcoming = (pred: (ev: SportEvent) => boolean) => upcomingEvent(world, pred);
const linked = (bookie: string) => (e: SportEvent) => world.link(e, bookie).linked;

async function h2hRow(epk: string, bookie: string, extra: Record<string, string> = {}) {
  const card = await get(sb.url, '/v3/markets', { epk, bookie, market: 'head_to_head', ...extra });
  expect(card.status).toBe(200);
  return card.body.markets[0].selections[0] as { label: string; odds: number; market_ref: string };
}

async function placeAndWait(body: Record<string, unknown>) {
  const res = await post(sb.url, '/v3/place_bet', body);
  expect(res.status).toBe(202);
  expect(res.body.status).toBe('pending');
  return waitJob(sb.url, res.body.correlation_id);
}

describe('POST /v3/place_bet by market_ref', () => {
  it('places the bet, records it in the transactions, and settles it when the event is settled', async () => {
    const ev = upcoming((e) => e.league === 'afl' && linked('bookie_a')(e));
    const row = await h2hRow(ev.epk, 'bookie_a');
    const entry = await placeAndWait({
      session_id: A,
      sport: 'afl',
      epk: ev.epk,
      market_ref: row.market_ref,
      stake: 10,
      target_odds: row.odds * 0.9,
    });
    expect(entry.status).toBe('completed');
    const r = entry.result;
    expect(r.success).toBe(true);
    expect(r.bet_result).toMatchObject({ success: true, stake: 10, error: null });
    expect(typeof r.bet_result.bet_id).toBe('string');
    expect(r.potential_return).toBeCloseTo(r.bet_result.odds * 10, 2);
    expect(r.dispatched.site_event_id_source).toBe('spine');

    const txJob = await post(sb.url, '/v3/transactions', { session_id: A });
    const tx = await waitJob(sb.url, txJob.body.correlation_id);
    const mine = tx.result.transactions.find((t: { id: string }) => t.id === r.bet_result.bet_id);
    expect(mine).toMatchObject({ type: 'bet', status: 'pending', stake: 10 });

    const settled = await post(sb.url, '/_sandbox/settle', { epk: ev.epk });
    expect(settled.body.settled).toBeGreaterThanOrEqual(1);
    const state = await get(sb.url, '/_sandbox/state');
    const bet = state.body.bets.find((b: { bet: { bet_id: string } }) => b.bet.bet_id === r.bet_result.bet_id);
    expect(['won', 'lost', 'void']).toContain(bet.status);
    expect(bet.settled_at).not.toBeNull();
  });

  it('refuses at the live price when the price drifted below target_odds', async () => {
    const ev = upcoming((e) => e.league === 'nrl' && linked('bookie_c')(e));
    const row = await h2hRow(ev.epk, 'bookie_c');
    world.forceDrift({ bookie: 'bookie_c', epk: ev.epk, factor: 0.8 });
    const entry = await placeAndWait({
      session_id: C,
      sport: 'nrl',
      epk: ev.epk,
      market_ref: row.market_ref,
      stake: 5,
      target_odds: row.odds,
    });
    expect(entry.result.success).toBe(false);
    expect(entry.result.bet_result.success).toBe(false);
    expect(entry.result.bet_result.error).toMatch(/^odds_below_target: live price \d+\.\d\d is below target_odds/);
    expect(entry.result.bet_result.odds).toBeLessThan(row.odds);
  });

  it('refuses a live price above max_odds', async () => {
    const ev = upcoming((e) => e.league === 'nfl' && linked('bookie_a')(e));
    const row = await h2hRow(ev.epk, 'bookie_a');
    const entry = await placeAndWait({
      session_id: A,
      sport: 'nfl',
      epk: ev.epk,
      market_ref: row.market_ref,
      stake: 5,
      target_odds: 1.01,
      max_odds: 1.02,
    });
    expect(entry.result.bet_result.error).toMatch(/^odds_above_max/);
  });

  it('answers 422 when market_ref betting is disabled for the book (bookie_b)', async () => {
    const ev = upcoming(linked('bookie_b'));
    const card = await get(sb.url, '/v3/markets', { epk: ev.epk, bookie: 'bookie_b' });
    expect(card.body.market_ref_betting_enabled).toBe(false);
    const ref = card.body.markets[0].selections[0].market_ref;
    const res = await post(sb.url, '/v3/place_bet', {
      session_id: B,
      sport: ev.league,
      epk: ev.epk,
      market_ref: ref,
      stake: 5,
      target_odds: 1.5,
    });
    expect(res.status).toBe(422);
  });

  it('answers 409 site_event_id_conflict and sends nothing', async () => {
    const [e1, e2] = world
      .allEvents()
      .filter((e) => !e.isOutright && e.startMs > world.nowMs() && linked('bookie_a')(e));
    const row = await h2hRow(e1!.epk, 'bookie_a');
    const otherId = (world.link(e2!, 'bookie_a') as { siteEventId: string }).siteEventId;
    const before = sb.sb.jobs.stats.submitted;
    const res = await post(sb.url, '/v3/place_bet', {
      session_id: A,
      sport: e1!.league,
      epk: e1!.epk,
      market_ref: row.market_ref,
      site_event_id: otherId,
      stake: 5,
      target_odds: 1.01,
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('site_event_id_conflict');
    expect(sb.sb.jobs.stats.submitted).toBe(before);
  });

  it("dispatches on the caller's site_event_id before the event is linked (caller_unbound)", async () => {
    const now = world.nowMs();
    const ev = upcoming(
      (e) =>
        e.sport !== 'basketball' &&
        e.links.some((l) => (l.bookie === 'bookie_a' || l.bookie === 'bookie_c') && l.linkedFromMs > now),
    );
    const link = ev.links.find((l) => (l.bookie === 'bookie_a' || l.bookie === 'bookie_c') && l.linkedFromMs > now)!;
    const row = await h2hRow(ev.epk, link.bookie, { site_event_id: link.siteEventId });
    const session = link.bookie === 'bookie_a' ? A : C;
    const entry = await placeAndWait({
      session_id: session,
      sport: ev.league,
      epk: ev.epk,
      market_ref: row.market_ref,
      site_event_id: link.siteEventId,
      stake: 5,
      target_odds: 1.01,
    });
    expect(entry.result.success).toBe(true);
    expect(entry.result.dispatched).toEqual({
      site_event_id: link.siteEventId,
      site_event_id_source: 'caller_unbound',
    });
  });

  it.each([
    [{ stake: 0 }, 'stake'],
    [{ target_odds: undefined }, 'target_odds'],
    [{ max_odds: 1.2, target_odds: 1.5 }, 'max_odds'],
    [{ market_ref: 'forged' }, 'market_ref'],
    [{ sport: undefined }, 'sport'],
  ])('answers 400 naming the field for %o', async (patch, field) => {
    const ev = upcoming(linked('bookie_a'));
    const row = await h2hRow(ev.epk, 'bookie_a');
    const body = {
      session_id: A,
      category: 'sports',
      sport: ev.league,
      epk: ev.epk,
      market_ref: row.market_ref,
      stake: 5,
      target_odds: 1.5,
      ...patch,
    };
    const res = await post(sb.url, '/v3/place_bet', JSON.parse(JSON.stringify(body)));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('refuses a stake above the available balance', async () => {
    const ev = upcoming((e) => e.league === 'afl' && linked('bookie_a')(e));
    const row = await h2hRow(ev.epk, 'bookie_a');
    const entry = await placeAndWait({
      session_id: A,
      sport: 'afl',
      epk: ev.epk,
      market_ref: row.market_ref,
      stake: 1_000_000,
      target_odds: 1.01,
    });
    expect(entry.result.success).toBe(false);
    expect(entry.result.bet_result.error).toMatch(/^insufficient_balance/);
  });
});

describe('POST /v3/place_bet by market and selection', () => {
  it('places a head_to_head bet named by competition, event and selection', async () => {
    const ev = upcoming((e) => e.league === 'afl' && linked('bookie_c')(e));
    const entry = await placeAndWait({
      session_id: C,
      category: 'sports',
      competition: 'AFL',
      event: `${ev.home} v ${ev.away}`,
      market: 'head_to_head',
      selection: ev.home,
      stake: 5,
      target_odds: 1.01,
    });
    expect(entry.result.success).toBe(true);
    expect(entry.result).toMatchObject({ epk: ev.epk, market: 'head_to_head', selection: ev.home });
  });

  it('answers a soft miss (soft_miss true, market_not_carried) for a market the book does not carry', async () => {
    const ev = upcoming((e) => e.league === 'afl' && linked('bookie_c')(e));
    const entry = await placeAndWait({
      session_id: C,
      category: 'sports',
      competition: 'afl',
      event: ev.name,
      market: 'corners',
      selection: 'over',
      stake: 5,
      target_odds: 1.01,
    });
    expect(entry.result.success).toBe(false);
    expect(entry.result.soft_miss).toBe(true);
    expect(entry.result.error).toMatch(/^market_not_carried/);
  });

  it('reads an N+ threshold as over N-0.5 on a stat market', async () => {
    const ev = upcoming((e) => e.league === 'nba' && linked('bookie_a')(e));
    const card = await get(sb.url, '/v3/markets', { epk: ev.epk, bookie: 'bookie_a', market: 'points' });
    const over = card.body.markets[0].selections.find((s: { label: string }) => s.label.includes('Over'));
    const entry = await placeAndWait({
      session_id: A,
      category: 'sports',
      competition: 'NBA',
      event: ev.name,
      market: 'player_points',
      player: over.player,
      selection: `${over.line + 0.5}+`,
      stake: 5,
      target_odds: 1.01,
    });
    expect(entry.result.success).toBe(true);
    expect(entry.result.selection).toBe(over.label);
  });
});

describe('POST /v3/place_bet racing', () => {
  it('refuses each_way with the spec body', async () => {
    const res = await post(sb.url, '/v3/place_bet', {
      session_id: A,
      category: 'racing',
      track: 'Flemington',
      race_num: 3,
      date: TOMORROW,
      runner: 'x',
      market: 'each_way',
      stake: 5,
      target_odds: 2,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'market not supported', market: 'each_way' });
  });

  it('refuses a random_delay with min above a positive max, naming the field', async () => {
    const res = await post(sb.url, '/v3/place_bet', {
      session_id: A,
      category: 'racing',
      track: 'Flemington',
      race_num: 3,
      date: TOMORROW,
      runner: world.race('Flemington', 3, 'R', TOMORROW)!.runners[0]!.name,
      market: 'win',
      stake: 5,
      target_odds: 1.01,
      random_delay: { min: 5, max: 2 },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('random_delay');
    expect(res.body.detail).toMatch(/min <= max/);
  });

  it('places a win bet and settles it when the race is settled', async () => {
    const race = world.race('Flemington', 4, 'R', TOMORROW)!;
    const runner = race.runners[0]!;
    const entry = await placeAndWait({
      session_id: A,
      category: 'racing',
      track: 'Flemington',
      race_num: 4,
      race_type: '(R)',
      country: 'au',
      date: TOMORROW,
      runner: runner.name,
      market: 'win',
      stake: 4,
      target_odds: 1.01,
    });
    expect(entry.result.success).toBe(true);
    const betId = entry.result.bet_result.bet_id;
    await post(sb.url, '/_sandbox/settle', { epk: race.key });
    const state = await get(sb.url, '/_sandbox/state');
    const bet = state.body.bets.find((b: { bet: { bet_id: string } }) => b.bet.bet_id === betId);
    expect(['won', 'lost']).toContain(bet.status);
    expect(bet.bet.race_key).toBe(race.key);
  });

  it('places a same-race multi on bookie_a and refuses it on another book', async () => {
    const race = world.race('Randwick', 5, 'R', TOMORROW)!;
    const legs = [
      { runner: race.runners[0]!.name, market: 'win' },
      { runner: race.runners[1]!.name, market: 'place' },
    ];
    const body = {
      category: 'racing',
      track: 'Randwick',
      race_num: 5,
      date: TOMORROW,
      is_same_event_multi: true,
      legs,
      stake: 2,
      target_odds: 1.01,
    };
    const refused = await post(sb.url, '/v3/place_bet', { ...body, session_id: C });
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('session_id');
    const entry = await placeAndWait({ ...body, session_id: A });
    expect(entry.result.success).toBe(true);
    expect(entry.result.legs).toHaveLength(2);
  });

  it('answers a result-level race_not_found for a race that does not exist', async () => {
    const entry = await placeAndWait({
      session_id: A,
      category: 'racing',
      track: 'Flemington',
      race_num: 12,
      date: TOMORROW,
      runner: 'x',
      market: 'win',
      stake: 2,
      target_odds: 1.5,
    });
    expect(entry.result.success).toBe(false);
    expect(entry.result.bet_result.error).toMatch(/^race_not_found/);
  });
});

describe('POST /v3/place_bet boosts and promos', () => {
  const raceWithBoost = (available: boolean) => {
    for (let n = 1; n <= 8; n++) if (boostTokenAvailable('bookie_a', TOMORROW, 'Randwick', n) === available) return n;
    throw new Error('no such race');
  };
  const racing = (raceNum: number) => {
    const race = world.race('Randwick', raceNum, 'R', TOMORROW)!;
    return {
      session_id: A,
      category: 'racing',
      track: 'Randwick',
      race_num: raceNum,
      date: TOMORROW,
      runner: race.runners[0]!.name,
      market: 'win',
      stake: 2,
      target_odds: 1.01,
    };
  };

  it('refuses use_boost where the book has no boost token, and boosts where it has one', async () => {
    const refused = await placeAndWait({ ...racing(raceWithBoost(false)), use_boost: true });
    expect(refused.result.success).toBe(false);
    expect(refused.result.bet_result.error).toMatch(/^boost_not_available/);
    const boosted = await placeAndWait({ ...racing(raceWithBoost(true)), use_boost: true });
    expect(boosted.result.success).toBe(true);
    expect(boosted.result.boosted).toBe(true);
  });

  it('places betboost bets unboosted when no token is offered', async () => {
    const entry = await placeAndWait({ ...racing(raceWithBoost(false)), betboost: true });
    expect(entry.result.success).toBe(true);
    expect(entry.result.boosted).toBe(false);
  });

  it('refuses skip_if_no_promo when the named promo is not on the race', async () => {
    const entry = await placeAndWait({ ...racing(1), promo_name: 'no_such_promo', skip_if_no_promo: true });
    expect(entry.result.success).toBe(false);
    expect(entry.result.bet_result.error).toMatch(/^promo_not_available/);
  });
});

describe('POST /api/place_bet (legacy, synchronous)', () => {
  it('answers the older sync shape with status placed', async () => {
    const race = world.race('Menangle', 2, 'H', TOMORROW)!;
    const res = await post(sb.url, '/api/place_bet', {
      session_id: A,
      category: 'racing',
      track: 'Menangle',
      race_num: 2,
      race_type: '(H)',
      date: TOMORROW,
      runner: race.runners[1]!.name,
      market: 'place',
      stake: 3,
      target_odds: 1.01,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'placed', stake: 3 });
    expect(typeof res.body.bet_id).toBe('string');
    expect(typeof res.body.bookie_bet_id).toBe('string');
    expect(res.body.potential_return).toBeCloseTo(res.body.odds * 3, 2);
  });
});
