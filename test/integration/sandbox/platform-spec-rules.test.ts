// Spec rules the sandbox holds callers to: the sports bet table's required `player` and `line`, sample mode
// refusing what the real endpoint refuses, and the session operations' error shape for a malformed body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { call, DEMO, NOSUB } from './platform-helpers.js';
import { boot, post, TOMORROW, upcomingEvent, worldOf } from './world-helpers.js';

const A = '5e55a1fa-0000-4000-8000-00000000000a';
let sb: RunningSandbox;
beforeAll(async () => {
  sb = await boot();
});
afterAll(async () => {
  await sb.close();
});

function nbaBet(extra: Record<string, unknown>) {
  const world = worldOf(sb);
  const ev = upcomingEvent(world, (e) => e.league === 'nba' && world.link(e, 'bookie_a').linked);
  return {
    session_id: A,
    category: 'sports',
    competition: 'NBA',
    event: ev.name,
    stake: 5,
    target_odds: 1.01,
    ...extra,
  };
}

describe('sports bet table: required player and line', () => {
  it('refuses a player-prop bet without player, naming the field', async () => {
    const res = await post(sb.url, '/v3/place_bet', nbaBet({ market: 'points', selection: 'over', line: 20.5 }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'player', detail: expect.stringContaining("'player' is required") });
  });

  it('refuses a player-prop bet with an empty player', async () => {
    const res = await post(
      sb.url,
      '/v3/place_bet',
      nbaBet({ market: 'points', selection: 'over', line: 20.5, player: '' }),
    );
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('player');
  });

  it.each([
    ['total_points', 'over'],
    ['alternate_total_points', 'under'],
    ['line', 'home'],
  ])('refuses a %s bet without line, naming the field', async (market, selection) => {
    const res = await post(sb.url, '/v3/place_bet', nbaBet({ market, selection }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'line', detail: expect.stringContaining("'line' is required") });
  });

  it("refuses an over/under named by a book's own title without line", async () => {
    const res = await post(sb.url, '/v3/place_bet', nbaBet({ market: 'Over/Under', selection: 'over' }));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('line');
  });
});

/** A sample-mode call: the demo key, or the sandbox header with a key lacking a subscription. */
function sample(key: string, path: string, body: unknown) {
  return call(sb.url, 'POST', path, { key, body, headers: key === NOSUB ? { 'x-service-sandbox': '1' } : {} });
}

describe.each([DEMO, NOSUB])('sample mode (%s) refuses what the real endpoint refuses', (key) => {
  it('place_bet with market each_way: 400 with the spec body, marked as a sample', async () => {
    const res = await sample(key, '/v3/place_bet', {
      session_id: 'x',
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
    expect(res.body).toMatchObject({ error: 'market not supported', market: 'each_way', sandbox: true });
    expect(res.headers.get('x-service-sandbox')).toBe('1');
  });

  it('place_bet with a market_ref this service never issued: 400 naming market_ref', async () => {
    const res = await sample(key, '/v3/place_bet', {
      session_id: 'x',
      sport: 'nba',
      epk: 'basketball/us/nba/a_v_b/2026-11-21',
      market_ref: 'not-a-ref',
      stake: 5,
      target_odds: 1.5,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'market_ref', sandbox: true });
  });

  it('/v3/balance without session_id: 400 naming the field', async () => {
    const res = await sample(key, '/v3/balance', {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'session_id', sandbox: true });
  });

  it('price_check without session_ids: 400 with the spec body', async () => {
    const res = await sample(key, '/v3/price_check', {
      category: 'racing',
      track: 'Flemington',
      race_num: 3,
      date: TOMORROW,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'session_ids is required', sandbox: true });
  });

  it('stacked_srm with one bet: 400 naming bets', async () => {
    const legs = [{ runner: 'a' }, { runner: 'b' }];
    const res = await sample(key, '/v3/stacked_srm', {
      session_id: 'x',
      track: 'Flemington',
      race_num: 3,
      date: TOMORROW,
      bets: [{ stake: 5, legs }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'bets', sandbox: true });
  });
});

describe('session operations answer a malformed body in their own error shape', () => {
  it.each(['/api/start_session', '/api/restart_session', '/v3/stop_session'])(
    '%s: a non-JSON body gets 400 {status: error, message}',
    async (path) => {
      const res = await call(sb.url, 'POST', path, { key: 'sandbox-key-alpha', raw: 'session_id=abc' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: expect.stringContaining('JSON') });
    },
  );
});
