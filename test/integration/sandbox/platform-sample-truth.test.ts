// Sample mode (Authentication rule 5) answers the same shape and status as the real thing, errors included.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { boot, get, post, TOMORROW } from './world-helpers.js';

const DEMO = 'demo-key';
const NOSUB = 'sandbox-key-nosub';
const SANDBOX_HEADER = { 'x-service-sandbox': '1' };

let sb: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function sampleCall(base: string, method: 'GET' | 'POST', path: string, key: string, body?: unknown) {
  const headers: Record<string, string> = { 'x-api-key': key, 'content-type': 'application/json' };
  if (key === NOSUB) Object.assign(headers, SANDBOX_HEADER);
  const res = await fetch(base + path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

function expectSample(res: { headers: Headers; body: Record<string, unknown> }) {
  expect(res.body.sandbox).toBe(true);
  expect(typeof res.body.sandbox_note).toBe('string');
  expect(res.headers.get('x-service-sandbox')).toBe('1');
}

describe('sample mode tells the truth', () => {
  it('gives the racing price_check sample the race it names, like the real 202', async () => {
    sb = await boot();
    const res = await sampleCall(sb.url, 'POST', '/v3/price_check', DEMO, {
      session_ids: ['x'],
      category: 'racing',
      track: 'Randwick',
      race_num: 3,
      date: TOMORROW,
    });
    expect(res.status).toBe(202);
    expect(res.body.race).toEqual({ track: 'Randwick', race_num: 3, race_type: '(R)', date: TOMORROW });
    expectSample(res);
  });

  it('answers /v2/place_bet 410 to the demo key and to the sandbox header, as the real route does', async () => {
    sb = await boot();
    for (const key of [DEMO, NOSUB]) {
      const res = await sampleCall(sb.url, 'POST', '/v2/place_bet', key, { category: 'racing' });
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({ error: 'deprecated', use: 'POST /v3/place_bet' });
      expectSample(res);
    }
  });

  it('answers the sunset v2 routes 410 in sample mode after the sunset', async () => {
    sb = await boot();
    for (const [method, path, successor] of [
      ['POST', '/v2/promos', '/v3/promos'],
      ['POST', '/v2/bonus_bets', '/v3/bonus_bets'],
      ['POST', '/v2/split_bonus_bet', '/v3/split_bonus_bet'],
      ['GET', '/v2/transactions', '/v3/transactions'],
    ] as const) {
      const res = await sampleCall(sb.url, method, path, DEMO, method === 'POST' ? { session_id: 'x' } : undefined);
      expect(res.status, path).toBe(410);
      expect(res.body.use).toBe(`POST ${successor}`);
      expectSample(res);
    }
  });

  it('answers the v2 routes inline with the sunset headers in sample mode before the sunset', async () => {
    sb = await boot({ start: new Date('2026-05-10T12:00:00Z') });
    const res = await sampleCall(sb.url, 'POST', '/v2/bonus_bets', DEMO, { session_id: 'x' });
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.body.bonus_bets[0]).toMatchObject({ status: 'AVAILABLE' });
    expectSample(res);
    const legs = [{ runner: 'Sample Runner' }, { runner: 'Other Runner', position: 'top3' }];
    const stacked = await sampleCall(sb.url, 'POST', '/v2/place_bet', DEMO, {
      category: 'stacked_srm',
      session_id: 'x',
      track: 'Randwick',
      race_num: 3,
      date: '2026-05-11',
      bets: [
        { stake: 5, legs },
        { stake: 5, legs },
      ],
    });
    expect(stacked.status).toBe(200);
    expect(stacked.body.results).toHaveLength(2);
  });

  it('marks demo-key refusals as samples: unknown epk 404, bad limit 400', async () => {
    sb = await boot();
    const unknown = await sampleCall(sb.url, 'GET', '/v3/markets?epk=nope/x/y/a_v_b/2026-11-21&bookie=bookie_a', DEMO);
    expect(unknown.status).toBe(404);
    expectSample(unknown);
    const badLimit = await sampleCall(sb.url, 'GET', '/odds/v1/events?limit=0', DEMO);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.field).toBe('limit');
    expectSample(badLimit);
  });
});

describe('GET /v3/account_promos', () => {
  it("answers 403 for a session that is not the caller's, and for one that does not exist", async () => {
    sb = await boot();
    for (const id of ['5e55b2a0-0000-4000-8000-00000000000a', 'no-such-session']) {
      const res = await get(sb.url, '/v3/account_promos', { session_id: id });
      expect(res.status, id).toBe(403);
    }
  });

  it('stops listing a bet-boost card once its event has started, and place_promo refuses it with 422', async () => {
    sb = await boot();
    const listed = await get(sb.url, '/v3/account_promos', { session_id: '5e55a1fa-0000-4000-8000-00000000000c' });
    const card = listed.body.promos.find(
      (p: { placeable_by_id: boolean; kind: string }) => p.placeable_by_id && p.kind === 'sports',
    );
    const event = await get(sb.url, '/_sandbox/world/event', { epk: card.epk });
    const now = Date.parse((await get(sb.url, '/_sandbox/state')).body.now);
    await post(sb.url, '/_sandbox/clock/advance', { ms: Date.parse(event.body.start_time) - now + 60_000 });

    const after = await get(sb.url, '/v3/account_promos', { session_id: '5e55a1fa-0000-4000-8000-00000000000c' });
    expect(after.body.promos.map((p: { promo_id: number }) => p.promo_id)).not.toContain(card.promo_id);
    const placed = await post(sb.url, '/v3/place_promo', {
      session_id: '5e55a1fa-0000-4000-8000-00000000000c',
      promo_id: card.promo_id,
      stake: 5,
    });
    expect(placed.status).toBe(422);
    expect(placed.body.detail).toMatch(/no longer active: its event has started/);
  });
});
