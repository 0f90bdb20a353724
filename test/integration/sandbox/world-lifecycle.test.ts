import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { addDays } from '../../../src/sandbox/world/dates.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import { boot, get, post, START, waitJob, worldOf } from './world-helpers.js';

let sb: RunningSandbox;
let world: SimWorld;
beforeAll(async () => {
  sb = await boot({ seed: 11 });
  world = worldOf(sb);
});
afterAll(async () => {
  await sb?.close();
});

const A = '5e55a1fa-0000-4000-8000-00000000000a';
const TODAY = START.toISOString().slice(0, 10);

async function place(body: Record<string, unknown>) {
  const res = await post(sb.url, '/v3/place_bet', body);
  expect(res.status).toBe(202);
  return waitJob(sb.url, res.body.correlation_id);
}

async function betStatus(betId: string): Promise<{ status: string; pnl: number; settled_at: string | null }> {
  const state = await get(sb.url, '/_sandbox/state');
  return state.body.bets.find((b: { bet: { bet_id: string } }) => b.bet.bet_id === betId);
}

describe('event lifecycle and settlement on the sandbox clock', () => {
  it('spends a bonus token worth exactly the stake, once', async () => {
    const race = world.race('Menangle', 8, 'H', addDays(TODAY, 2))!;
    const body = {
      session_id: A,
      category: 'racing',
      track: 'Menangle',
      race_num: 8,
      race_type: '(H)',
      date: race.date,
      runner: race.runners[0]!.name,
      market: 'win',
      stake: 5,
      target_odds: 1.01,
      use_bonus_bet: true,
    };
    const first = await place(body);
    expect(first.result.success).toBe(true);
    expect(first.result.is_bonus_bet).toBe(true);
    expect(typeof first.result.bonus_token_id).toBe('string');
    const second = await place(body);
    expect(second.result.success).toBe(false);
    expect(second.result.bet_result.error).toMatch(/^no_bonus_token/);
  });

  it('settles a sports bet by itself once the clock passes the end of the event, head_to_head from the final score', async () => {
    const now = world.nowMs();
    const ev = world
      .allEvents()
      .find((e) => !e.isOutright && e.league === 'nba' && e.startMs > now && world.link(e, 'bookie_a').linked)!;
    const card = await get(sb.url, '/v3/markets', { epk: ev.epk, bookie: 'bookie_a', market: 'head_to_head' });
    const home = card.body.markets[0].selections.find((s: { slug: string }) => s.slug === 'home');
    const entry = await place({
      session_id: A,
      sport: 'nba',
      epk: ev.epk,
      market_ref: home.market_ref,
      stake: 10,
      target_odds: 1.01,
    });
    const betId = entry.result.bet_result.bet_id;
    expect((await betStatus(betId)).status).toBe('pending');

    await post(sb.url, '/_sandbox/clock/advance', { ms: ev.startMs - world.nowMs() + 30 * 60_000 });
    const live = await get(sb.url, '/odds/v1/events', { date: ev.epk.split('/').at(-1)!, league: 'nba', limit: 500 });
    expect(live.body.data.find((e: { event_id: string }) => e.event_id === ev.epk).status).toBe('in_play');
    expect((await betStatus(betId)).status).toBe('pending');

    await post(sb.url, '/_sandbox/clock/advance', { ms: ev.durationMs });
    const done = await get(sb.url, '/odds/v1/events', { date: ev.epk.split('/').at(-1)!, league: 'nba', limit: 500 });
    const row = done.body.data.find((e: { event_id: string }) => e.event_id === ev.epk);
    expect(row.status).toBe('finished');
    const settled = await betStatus(betId);
    const homeWon = row.score.home_score > row.score.away_score;
    expect(settled.status).toBe(homeWon ? 'won' : 'lost');
    expect(settled.pnl).toBeCloseTo(homeWon ? 10 * (entry.result.odds - 1) : -10, 2);
  });

  it('settles a racing bet once the race result is official', async () => {
    const date = addDays(TODAY, 3);
    const race = world.race('Wentworth Park', 1, 'G', date)!;
    const entry = await place({
      session_id: A,
      category: 'racing',
      track: 'Wentworth Park',
      race_num: 1,
      race_type: '(G)',
      date,
      runner: race.runners[2]!.name,
      market: 'place',
      stake: 3,
      target_odds: 1.01,
    });
    const betId = entry.result.bet_result.bet_id;
    await post(sb.url, '/_sandbox/clock/advance', { ms: race.startMs - world.nowMs() + 60_000 });
    expect((await betStatus(betId)).status).toBe('pending');
    await post(sb.url, '/_sandbox/clock/advance', { ms: 5 * 60_000 });
    expect(['won', 'lost']).toContain((await betStatus(betId)).status);
    // The race has jumped: no more bets.
    const late = await place({
      session_id: A,
      category: 'racing',
      track: 'Wentworth Park',
      race_num: 1,
      race_type: '(G)',
      date,
      runner: race.runners[2]!.name,
      market: 'win',
      stake: 3,
      target_odds: 1.01,
    });
    expect(late.result.bet_result.error).toMatch(/^race_closed/);
  });
});
