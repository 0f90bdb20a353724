// Simulated bookmaker limits through /_sandbox/accounts: a stake limit per sport that shrinks as the account wins,
// refused or taken for less above it, and a session the bookmaker restricted.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import type { SportEvent } from '../../../src/sandbox/world/sports.js';
import { boot, get, post, upcomingEvent, waitJob, worldOf } from './world-helpers.js';

const A = '5e55a1fa-0000-4000-8000-00000000000a';
const C = '5e55a1fa-0000-4000-8000-00000000000c';

let sb: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

function footballOn(running: RunningSandbox, bookie: string): SportEvent {
  const world = worldOf(running);
  return upcomingEvent(world, (e) => e.sport === 'american_football' && world.link(e, bookie).linked);
}

async function h2h(base: string, epk: string, bookie: string) {
  const card = await get(base, '/v3/markets', { epk, bookie, market: 'head_to_head' });
  return card.body.markets[0].selections as { odds: number; market_ref: string }[];
}

async function bet(base: string, session: string, ev: SportEvent, marketRef: string, stake: number) {
  const res = await post(base, '/v3/place_bet', {
    session_id: session,
    sport: ev.league,
    epk: ev.epk,
    market_ref: marketRef,
    stake,
    target_odds: 1.01,
  });
  expect(res.status).toBe(202);
  return (await waitJob(base, res.body.correlation_id)).result;
}

async function cashOf(base: string, bookie: string): Promise<number> {
  const state = await get(base, '/_sandbox/state');
  return state.body.balances.find((b: { account_id: string; bookie: string }) => b.bookie === bookie).cash;
}

async function setLimit(base: string, body: Record<string, unknown>) {
  const res = await post(base, '/_sandbox/accounts/limits', body);
  expect(res.status).toBe(200);
  return res.body;
}

describe('simulated stake limits', () => {
  it('a fixture account has no limit until one is set: a large stake is taken whole', async () => {
    sb = await boot();
    const ev = footballOn(sb, 'bookie_c');
    const [sel] = await h2h(sb.url, ev.epk, 'bookie_c');
    const r = await bet(sb.url, C, ev, sel!.market_ref, 400);
    expect(r.success).toBe(true);
    expect(r.bet_result.stake).toBe(400);
  });

  it('refuse: a stake above the limit fails with max_stake_exceeded naming the limit; one at it is placed', async () => {
    sb = await boot();
    await setLimit(sb.url, { session_id: C, sport: 'american_football', max_stake: 100 });
    const ev = footballOn(sb, 'bookie_c');
    const [sel] = await h2h(sb.url, ev.epk, 'bookie_c');
    const over = await bet(sb.url, C, ev, sel!.market_ref, 150);
    expect(over.success).toBe(false);
    expect(over.bet_result.error).toBe('max_stake_exceeded: The maximum stake for this bet is $100.00.');
    expect(over.max_stake).toBe(100);
    expect((await bet(sb.url, C, ev, sel!.market_ref, 100)).success).toBe(true);
  });

  it('reduce: a stake above the limit is taken for the limit, and the result says the accepted stake', async () => {
    sb = await boot();
    await setLimit(sb.url, { session_id: C, sport: 'american_football', max_stake: 40, over_limit: 'reduce' });
    const before = await cashOf(sb.url, 'bookie_c');
    const ev = footballOn(sb, 'bookie_c');
    const [sel] = await h2h(sb.url, ev.epk, 'bookie_c');
    const r = await bet(sb.url, C, ev, sel!.market_ref, 75.5);
    expect(r.success).toBe(true);
    expect(r.bet_result.stake).toBe(40);
    expect(r.stake).toBe(40);
    expect(Math.round((await cashOf(sb.url, 'bookie_c')) * 100)).toBe(Math.round(before * 100) - 4000);
  });

  it('the limit shrinks by its factor for each win on the sport, and a stake above the shrunk limit is refused', async () => {
    sb = await boot();
    await setLimit(sb.url, {
      session_id: C,
      sport: 'american_football',
      max_stake: 100,
      shrink_factor: 0.5,
      min_stake: 5,
    });
    const ev = footballOn(sb, 'bookie_c');
    const sels = await h2h(sb.url, ev.epk, 'bookie_c');
    for (const s of sels) expect((await bet(sb.url, C, ev, s.market_ref, 10)).success).toBe(true);
    expect((await post(sb.url, '/_sandbox/settle', { epk: ev.epk })).status).toBe(200);
    const wins = (await get(sb.url, '/_sandbox/state')).body.bets.filter(
      (b: { bet: { epk?: string }; status: string }) => b.bet.epk === ev.epk && b.status === 'won',
    ).length;
    expect(wins).toBeGreaterThan(0);
    const limits = (await get(sb.url, '/_sandbox/accounts/limits', { session_id: C })).body;
    expect(limits.limits[0].wins).toBe(wins);
    expect(limits.limits[0].max_stake_now).toBe(Math.max(5, 100 * 0.5 ** wins));
    const next = footballOn(sb, 'bookie_c');
    const [sel] = await h2h(sb.url, next.epk, 'bookie_c');
    const over = await bet(sb.url, C, next, sel!.market_ref, limits.limits[0].max_stake_now + 1);
    expect(over.bet_result.error).toBe(
      `max_stake_exceeded: The maximum stake for this bet is $${limits.limits[0].max_stake_now.toFixed(2)}.`,
    );
  });

  it('a limit on one sport leaves the account’s other sports alone', async () => {
    sb = await boot();
    await setLimit(sb.url, { session_id: C, sport: 'ice_hockey', max_stake: 5 });
    const ev = footballOn(sb, 'bookie_c');
    const [sel] = await h2h(sb.url, ev.epk, 'bookie_c');
    expect((await bet(sb.url, C, ev, sel!.market_ref, 50)).success).toBe(true);
  });

  it('a session marked restricted refuses every bet naming the restriction; lifting it lets it bet again', async () => {
    sb = await boot();
    const marked = await post(sb.url, '/_sandbox/accounts/restrict', { session_id: C });
    expect(marked.body.restricted).toBe(true);
    const ev = footballOn(sb, 'bookie_c');
    const [sel] = await h2h(sb.url, ev.epk, 'bookie_c');
    const refused = await bet(sb.url, C, ev, sel!.market_ref, 5);
    expect(refused.success).toBe(false);
    expect(refused.bet_result.error).toMatch(/^account_restricted: /);
    const evA = footballOn(sb, 'bookie_a');
    const [selA] = await h2h(sb.url, evA.epk, 'bookie_a');
    expect((await bet(sb.url, A, evA, selA!.market_ref, 5)).success).toBe(true);
    await post(sb.url, '/_sandbox/accounts/restrict', { session_id: C, restricted: false });
    expect((await bet(sb.url, C, ev, sel!.market_ref, 5)).success).toBe(true);
  });

  it('refuses a limit that is not whole cents or an unknown over_limit, naming the field', async () => {
    sb = await boot();
    const cents = await post(sb.url, '/_sandbox/accounts/limits', {
      session_id: C,
      sport: 'american_football',
      max_stake: 10.005,
    });
    expect(cents.status).toBe(400);
    expect(cents.body.field).toBe('max_stake');
    const mode = await post(sb.url, '/_sandbox/accounts/limits', {
      session_id: C,
      sport: 'american_football',
      max_stake: 10,
      over_limit: 'split',
    });
    expect(mode.status).toBe(400);
    expect(mode.body.field).toBe('over_limit');
  });
});
