import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import {
  ALPHA,
  ALPHA_A,
  ALPHA_B,
  ALPHA_C,
  BRAVO,
  BRAVO_A,
  get,
  post,
  type Sandbox,
  start,
  waitJob,
} from './platform-helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ speed: 50 });
});
afterAll(async () => {
  await sb.close();
});

// biome-ignore lint/suspicious/noExplicitAny: results are read field by field
async function job(key: string, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await post(sb.url, path, key, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const entry = await waitJob(sb.url, key, res.body.correlation_id);
  expect(entry.status).toBe('completed');
  return entry.result;
}

// biome-ignore lint/suspicious/noExplicitAny: promo rows are read field by field
const accountPromos = async (query = ''): Promise<any[]> =>
  (await get(sb.url, `/v3/account_promos${query}`, ALPHA)).body.promos;

describe('bonus tokens', () => {
  it('lists AVAILABLE and USED tokens with aligned split options and a total', async () => {
    const r = await job(ALPHA, '/v3/bonus_bets', { session_id: ALPHA_A });
    expect(r.success).toBe(true);
    expect(r.count).toBe(r.bonus_bets.length);
    const statuses = r.bonus_bets.map((t: { status: string }) => t.status);
    expect(statuses).toContain('AVAILABLE');
    expect(statuses).toContain('USED');
    const big = r.bonus_bets.find(
      (t: { amount: number; status: string }) => t.amount >= 10 && t.status === 'AVAILABLE',
    );
    expect(big.split_options.length).toBeGreaterThan(0);
    expect(big.split_amounts).toHaveLength(big.split_options.length);
    big.split_options.forEach((n: number, i: number) => {
      expect(big.split_amounts[i] * n).toBeCloseTo(big.amount, 2);
    });
    expect(r.total_bonus).toBe(30);
  });

  it('splits a suitable token into pieces not above max_amount', async () => {
    const r = await job(ALPHA, '/v3/split_bonus_bet', { session_id: ALPHA_A, max_amount: 7 });
    expect(r).toMatchObject({ success: true, original_amount: 25, new_amount_per_bet: 6.25, num_splits: 4 });
    expect(r.token_id).toEqual(expect.any(String));
    const after = await job(ALPHA, '/v3/bonus_bets', { session_id: ALPHA_A });
    const pieces = after.bonus_bets.filter(
      (t: { amount: number; status: string }) => t.amount === 6.25 && t.status === 'AVAILABLE',
    );
    expect(pieces).toHaveLength(4);
    expect(after.bonus_bets.some((t: { id: string }) => t.id === r.token_id)).toBe(false);
  });

  it('answers a split that no token can satisfy with success false and a message', async () => {
    const r = await job(ALPHA, '/v3/split_bonus_bet', { session_id: ALPHA_B, max_amount: 0.5 });
    expect(r.success).toBe(false);
    expect(r.message).toMatch(/max_amount/);
  });

  it('refuses split_bonus_bet without a positive max_amount', async () => {
    const res = await post(sb.url, '/v3/split_bonus_bet', ALPHA, { session_id: ALPHA_A });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('max_amount');
  });
});

describe('race promos and tokens', () => {
  it('lists race promos for races still to run, with the spec fields', async () => {
    const r = await job(ALPHA, '/v3/promos', { session_id: ALPHA_A });
    expect(r.success).toBe(true);
    expect(r.count).toBeGreaterThan(0);
    const now = sb.sb.clock.nowMs();
    for (const p of r.promos) {
      expect(['Flemington', 'Randwick', 'Wentworth Park', 'Menangle']).toContain(p.track);
      expect(['R', 'G', 'H']).toContain(p.race_type);
      expect(Number.isInteger(p.race_num)).toBe(true);
      expect(Date.parse(p.valid_till)).toBeGreaterThan(now);
      for (const f of ['promo_type', 'max_reward', 'token_group_id', 'event_url', 'offer_name', 'offer_type'])
        expect(p).toHaveProperty(f);
    }
  });

  it('lists promo tokens for a promo race with the race-specific token first', async () => {
    const promos = await job(ALPHA, '/v3/promos', { session_id: ALPHA_A });
    const p = promos.promos[0];
    const r = await job(ALPHA, '/v3/promo_tokens', {
      session_id: ALPHA_A,
      track: p.track,
      race_num: p.race_num,
      race_type: `(${p.race_type})`,
    });
    expect(r.success).toBe(true);
    expect(r.saver_tokens[0].is_race_specific).toBe(true);
    expect(r.saver_tokens.at(-1).is_race_specific).toBe(false);
    expect(r.bonus_boost).toEqual({
      available: expect.any(Boolean),
      boost_percentage: expect.any(Number),
      max_reward: expect.any(Number),
    });
  });

  it('validates promo_tokens fields at submit time', async () => {
    const noTrack = await post(sb.url, '/v3/promo_tokens', ALPHA, { session_id: ALPHA_A, race_num: 1 });
    expect(noTrack.body.field).toBe('track');
    const badType = await post(sb.url, '/v3/promo_tokens', ALPHA, {
      session_id: ALPHA_A,
      track: 'Flemington',
      race_num: 1,
      race_type: 'X',
    });
    expect(badType.status).toBe(400);
    expect(badType.body.field).toBe('race_type');
  });

  it('answers /v2/boost_token synchronously, and 404 race_not_found for an unknown race', async () => {
    const res = await post(sb.url, '/v2/boost_token', ALPHA, { session_id: ALPHA_A, track: 'Randwick', race_num: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, boost_token_available: expect.any(Boolean) });
    const missing = await post(sb.url, '/v2/boost_token', ALPHA, {
      session_id: ALPHA_A,
      track: 'Nowhere Park',
      race_num: 3,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('race_not_found');
  });
});

describe('account promos', () => {
  it('marks placeable_by_id only on captured single bet-boost cards of bookie_c', async () => {
    const promos = await accountPromos();
    const placeable = promos.filter((p) => p.placeable_by_id);
    expect(placeable.length).toBeGreaterThan(0);
    for (const p of placeable) {
      expect(p).toMatchObject({
        bookie: 'bookie_c',
        promo: 'bet_boost',
        voucher_type: 'single',
        how_to_bet: { endpoint: '/v3/place_promo' },
      });
      expect(p.boosted_odds).toEqual(expect.any(Number));
    }
    for (const p of promos.filter((x) => ['multi', 'outright'].includes(x.voucher_type)))
      expect(p.placeable_by_id).toBe(false);
    const uncaptured = promos.find(
      (p) => p.promo === 'bet_boost' && p.voucher_type === 'single' && p.boosted_odds === undefined,
    );
    expect(uncaptured.placeable_by_id).toBe(false);
    expect(uncaptured.how_to_bet).toEqual({ endpoint: null, note: expect.any(String) });
  });

  it('gives how_to_bet place_bet with promo_name for tokens, and endpoint null for deposit offers', async () => {
    const promos = await accountPromos();
    const token = promos.find((p) => p.kind === 'racing');
    expect(token.how_to_bet).toEqual({ endpoint: '/v3/place_bet', promo_name: '2/3', note: expect.any(String) });
    const deposit = promos.find((p) => p.kind === 'deposit');
    expect(deposit.how_to_bet.endpoint).toBeNull();
  });

  it("fills session_id with the requested session, else the caller's first active session on the account", async () => {
    const all = await accountPromos();
    const bookieB = all.find((p) => p.bookie === 'bookie_b');
    expect(bookieB.session_id).toBe(ALPHA_B);
    expect(bookieB.session_ids).toEqual([ALPHA_B]); // the idle session on the same account is not listed
    const scoped = await accountPromos(`?session_id=${ALPHA_C}`);
    expect(scoped.every((p) => p.session_id === ALPHA_C && p.bookie === 'bookie_c')).toBe(true);
    const byBookie = await accountPromos('?bookie=bookie_a');
    expect(byBookie.every((p) => p.bookie === 'bookie_a')).toBe(true);
    expect(byBookie.length).toBeGreaterThan(0);
  });
});

describe('place_promo', () => {
  const placeable = async () => (await accountPromos()).find((p) => p.placeable_by_id);

  it('places a captured card once per idempotency key, even after the promo is used', async () => {
    const promo = await placeable();
    const body = {
      session_id: ALPHA_C,
      promo_id: promo.promo_id,
      stake: 10,
      idempotency_key: 'key-1',
      trace_id: 'trace-9',
    };
    const first = await post(sb.url, '/v3/place_promo', ALPHA, body);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      status: 'pending',
      promo_id: promo.promo_id,
      trace_id: 'trace-9',
      session_id: ALPHA_C,
    });
    const entry = await waitJob(sb.url, ALPHA, first.body.correlation_id);
    expect(entry.result).toMatchObject({ success: true, odds: promo.boosted_odds, stake: 10, is_bonus_bet: false });
    const again = await post(sb.url, '/v3/place_promo', ALPHA, body);
    expect(again.status).toBe(202);
    expect(again.body.correlation_id).toBe(first.body.correlation_id);
    const bets = sb.sb.ledger.bets().filter((b) => b.bet.bet_type === 'promo');
    expect(bets).toHaveLength(1);
    expect(bets[0]!.bet).toMatchObject({
      promo_name: 'bet_boost',
      epk: promo.epk,
      stake: 10,
      odds: promo.boosted_odds,
    });
    expect((await accountPromos()).some((p) => p.promo_id === promo.promo_id)).toBe(false);
  });

  it('answers 422 saying the promo is used when placed again with a new key', async () => {
    const used = sb.sb.ledger.bets().find((b) => b.bet.bet_type === 'promo')!;
    const promoId = Number(used.bet.bet_id.split('-')[1]);
    const res = await post(sb.url, '/v3/place_promo', ALPHA, {
      session_id: ALPHA_C,
      promo_id: promoId,
      stake: 5,
      idempotency_key: 'key-2',
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/no longer active.*used/);
  });

  it('answers 422 saying why for a card that is not placeable by id', async () => {
    const multi = (await accountPromos()).find((p) => p.voucher_type === 'multi');
    const res = await post(sb.url, '/v3/place_promo', ALPHA, {
      session_id: ALPHA_C,
      promo_id: multi.promo_id,
      stake: 5,
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/not placeable by id: multi/);
  });

  it("answers 404 for a promo the session's account does not hold", async () => {
    const promo = await placeable();
    const otherAccount = await post(sb.url, '/v3/place_promo', ALPHA, {
      session_id: ALPHA_A,
      promo_id: promo.promo_id,
      stake: 5,
    });
    expect(otherAccount.status).toBe(404);
    const bravos = (await get(sb.url, '/v3/account_promos', BRAVO)).body.promos;
    const bravoPromo = bravos[0];
    const notHeld = await post(sb.url, '/v3/place_promo', ALPHA, {
      session_id: ALPHA_C,
      promo_id: bravoPromo.promo_id,
      stake: 5,
    });
    expect(notHeld.status).toBe(404);
    expect(notHeld.body.detail).toMatch(/not held/);
    const unknown = await post(sb.url, '/v3/place_promo', ALPHA, { session_id: ALPHA_C, promo_id: 999999, stake: 5 });
    expect(unknown.status).toBe(404);
  });

  it('answers 400 naming each missing field and a bad idempotency key', async () => {
    const promo = await placeable();
    const full = { session_id: ALPHA_C, promo_id: promo.promo_id, stake: 5 };
    for (const field of ['session_id', 'promo_id', 'stake'] as const) {
      const { [field]: _drop, ...rest } = full;
      const res = await post(sb.url, '/v3/place_promo', ALPHA, rest);
      expect(res.status, field).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const long = await post(sb.url, '/v3/place_promo', ALPHA, { ...full, idempotency_key: 'k'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.field).toBe('idempotency_key');
  });

  it("answers 403 for another account's session", async () => {
    const promo = await placeable();
    const res = await post(sb.url, '/v3/place_promo', ALPHA, {
      session_id: BRAVO_A,
      promo_id: promo.promo_id,
      stake: 5,
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('session_not_owned');
  });

  it('reports a stake above the card limit as a job-level failure and keeps the card', async () => {
    const promo = await placeable();
    const r = await job(ALPHA, '/v3/place_promo', { session_id: ALPHA_C, promo_id: promo.promo_id, stake: 500 });
    expect(r.success).toBe(false);
    expect(r.error).toMatch(/stake_above_limit/);
    expect((await accountPromos()).some((p) => p.promo_id === promo.promo_id)).toBe(true);
  });

  it('lists a captured racing bet-boost card naming a runner of the race, and places it to win', async () => {
    const card = (await accountPromos()).find((p) => p.kind === 'racing' && p.promo === 'bet_boost');
    expect(card).toMatchObject({
      bookie: 'bookie_c',
      voucher_type: 'single',
      placeable_by_id: true,
      how_to_bet: { endpoint: '/v3/place_promo' },
      epk: `${card.track}/${card.race_num}/${card.race_type}/au/${card.date}`,
    });
    expect(card.boosted_odds).toBeGreaterThan(card.base_odds);
    const check = await post(sb.url, '/v3/price_check', ALPHA, {
      session_ids: [ALPHA_C],
      category: 'racing',
      track: card.track,
      race_num: card.race_num,
      race_type: `(${card.race_type})`,
      date: card.date,
    });
    expect(check.status, JSON.stringify(check.body)).toBe(202);
    const priced = await waitJob(sb.url, ALPHA, check.body.queries[0].correlation_id);
    const runners = priced.result.selections.map((s: { runner: string }) => s.runner);
    expect(runners).toContain(card.selection);
    const r = await job(ALPHA, '/v3/place_promo', { session_id: ALPHA_C, promo_id: card.promo_id, stake: 5 });
    expect(r).toMatchObject({ success: true, runner: card.selection, market: 'win', odds: card.boosted_odds });
  });
});

describe('place_promo re-reads the card at bet time', () => {
  let sb2: Sandbox;
  beforeAll(async () => {
    sb2 = await start({ speed: 50 });
  });
  afterAll(async () => {
    await sb2.close();
  });

  it('refuses at bet time (card_gone) a card whose event starts between submission and placement', async () => {
    const promos = (await get(sb2.url, '/v3/account_promos', ALPHA)).body.promos;
    const card = promos.find((p: { placeable_by_id: boolean }) => p.placeable_by_id);
    // The event is prematch when the request is checked and has started by the time the bookmaker work runs.
    let asked = 0;
    sb2.sb.world.eventStatus = (epk) => (epk === card.epk && ++asked > 1 ? 'in_play' : 'prematch');
    const res = await post(sb2.url, '/v3/place_promo', ALPHA, {
      session_id: ALPHA_C,
      promo_id: card.promo_id,
      stake: 5,
    });
    expect(res.status).toBe(202);
    const entry = await waitJob(sb2.url, ALPHA, res.body.correlation_id);
    expect(entry.result.success).toBe(false);
    expect(entry.result.error).toMatch(/^card_gone/);
    expect(sb2.sb.ledger.bets().some((b) => b.bet.bet_type === 'promo')).toBe(false);
    // Gone for good: no longer listed (only active promos are).
    const after = (await get(sb2.url, '/v3/account_promos', ALPHA)).body.promos;
    expect(after.some((p: { promo_id: number }) => p.promo_id === card.promo_id)).toBe(false);
  });

  it('stops listing the racing card once its race has jumped and refuses it with 422, by the world clock', async () => {
    delete (sb2.sb.world as { eventStatus?: unknown }).eventStatus; // back to the world's own status
    const promos = (await get(sb2.url, '/v3/account_promos', ALPHA)).body.promos;
    const card = promos.find((p: { kind: string; promo: string }) => p.kind === 'racing' && p.promo === 'bet_boost');
    expect(sb2.sb.world.eventStatus?.(card.epk)).toBe('prematch');
    const [track, num, type, country, date] = card.epk.split('/');
    const race = (sb2.sb.world as SimWorld).race(track, Number(num), type, date, country)!;
    const ms = race.startMs - sb2.sb.clock.nowMs() + 1_000;
    expect((await post(sb2.url, '/_sandbox/clock/advance', undefined, { ms })).status).toBe(200);
    expect(sb2.sb.world.eventStatus?.(card.epk)).toBe('in_play');
    const res = await post(sb2.url, '/v3/place_promo', ALPHA, {
      session_id: ALPHA_C,
      promo_id: card.promo_id,
      stake: 5,
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/no longer active: its event has started/);
    const after = (await get(sb2.url, '/v3/account_promos', ALPHA)).body.promos;
    expect(after.some((p: { promo_id: number }) => p.promo_id === card.promo_id)).toBe(false);
  });
});
