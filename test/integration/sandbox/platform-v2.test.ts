import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALPHA,
  ALPHA_A,
  call,
  get,
  post,
  READONLY,
  READONLY_A,
  type Sandbox,
  start,
  untilAnswer,
  waitJob,
} from './platform-helpers.js';

const SUNSET = 'Sun, 17 May 2026 00:00:00 GMT';

describe('v2 routes before the sunset', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ speed: 50, start: new Date('2026-05-01T10:00:00Z') });
  });
  afterAll(async () => {
    await sb.close();
  });

  const expectDeprecated = (headers: Headers, successor: string) => {
    expect(headers.get('deprecation')).toBe('true');
    expect(headers.get('sunset')).toBe(SUNSET);
    expect(headers.get('link')).toBe(`<${successor}>; rel=successor-version`);
  };

  it('answers /v2/place_bet with 410 pointing at /v3/place_bet', async () => {
    const res = await post(sb.url, '/v2/place_bet', ALPHA, { session_id: ALPHA_A, category: 'racing' });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: 'deprecated', use: 'POST /v3/place_bet' });
  });

  it('answers GET /v2/transactions inline with the wrapper and deprecation headers', async () => {
    const res = await get(sb.url, `/v2/transactions?session_id=${ALPHA_A}&days_back=30&limit=2`, ALPHA);
    expect(res.status).toBe(200);
    expectDeprecated(res.headers, '/v3/transactions');
    expect(res.body).toMatchObject({ success: true, total_count: 3, has_more: true });
    expect(res.body.transactions).toHaveLength(2);
  });

  it('enforces the v2 transaction limits: days_back at most 30, limit at most 500', async () => {
    const days = await get(sb.url, `/v2/transactions?session_id=${ALPHA_A}&days_back=31`, ALPHA);
    expect(days.status).toBe(400);
    expect(days.body.field).toBe('days_back');
    const limit = await get(sb.url, `/v2/transactions?session_id=${ALPHA_A}&limit=501`, ALPHA);
    expect(limit.status).toBe(400);
    expect(limit.body.field).toBe('limit');
  });

  it('answers /v2/promos and /v2/bonus_bets inline with the v3 result', async () => {
    const promos = await post(sb.url, '/v2/promos', ALPHA, { session_id: ALPHA_A });
    expect(promos.status).toBe(200);
    expectDeprecated(promos.headers, '/v3/promos');
    expect(promos.body).toMatchObject({ success: true, count: promos.body.promos.length });
    const bonus = await post(sb.url, '/v2/bonus_bets', ALPHA, { session_id: ALPHA_A });
    expectDeprecated(bonus.headers, '/v3/bonus_bets');
    expect(bonus.body.bonus_bets.length).toBe(bonus.body.count);
  });

  it('answers /v2/promo_tokens inline', async () => {
    const res = await post(sb.url, '/v2/promo_tokens', ALPHA, {
      session_id: ALPHA_A,
      track: 'Flemington',
      race_num: 2,
    });
    expect(res.status).toBe(200);
    expectDeprecated(res.headers, '/v3/promo_tokens');
    expect(res.body.success).toBe(true);
  });

  it('names the v2 split result new_amount and num_pieces', async () => {
    const res = await post(sb.url, '/v2/split_bonus_bet', ALPHA, { session_id: ALPHA_A, max_amount: 13 });
    expect(res.status).toBe(200);
    expectDeprecated(res.headers, '/v3/split_bonus_bet');
    expect(res.body).toMatchObject({ success: true, original_amount: 25, new_amount: 12.5, num_pieces: 2 });
    expect(res.body.new_amount_per_bet).toBeUndefined();
    expect(res.body.num_splits).toBeUndefined();
  });

  it('applies the v3 checks inline: 400 for a missing field, 403 for the read-only key on a split', async () => {
    const missing = await post(sb.url, '/v2/bonus_bets', ALPHA, {});
    expect(missing.status).toBe(400);
    const readonly = await post(sb.url, '/v2/split_bonus_bet', READONLY, { session_id: READONLY_A, max_amount: 5 });
    expect(readonly.status).toBe(403);
  });

  it('leaves /v2/boost_token undeprecated', async () => {
    const res = await post(sb.url, '/v2/boost_token', ALPHA, {
      session_id: ALPHA_A,
      track: 'Menangle',
      race_num: 1,
      race_type: '(H)',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBeNull();
  });
});

describe('v2 routes after the sunset', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ speed: 50, start: new Date('2026-11-21T10:00:00Z') });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers every sunset v2 route with 410 naming its successor', async () => {
    const cases: [string, string][] = [
      ['/v2/promos', '/v3/promos'],
      ['/v2/bonus_bets', '/v3/bonus_bets'],
      ['/v2/promo_tokens', '/v3/promo_tokens'],
      ['/v2/split_bonus_bet', '/v3/split_bonus_bet'],
    ];
    for (const [path, successor] of cases) {
      const res = await post(sb.url, path, ALPHA, { session_id: ALPHA_A });
      expect(res.status, path).toBe(410);
      expect(res.body).toEqual({ error: 'deprecated', use: `POST ${successor}` });
    }
    const txns = await call(sb.url, 'GET', `/v2/transactions?session_id=${ALPHA_A}`, { key: ALPHA });
    expect(txns.status).toBe(410);
    const stacked = await post(sb.url, '/v2/place_bet', ALPHA, { session_id: ALPHA_A, category: 'stacked_srm' });
    expect(stacked.status).toBe(410);
    expect(stacked.body.error).toBe('deprecated');
  });

  it('keeps /v2/boost_token working after the sunset', async () => {
    const res = await post(sb.url, '/v2/boost_token', ALPHA, { session_id: ALPHA_A, track: 'Randwick', race_num: 1 });
    expect(res.status).toBe(200);
  });

  it('keeps /v2/session_promo_summary working after the sunset, counting what the account holds', async () => {
    const res = await post(sb.url, '/v2/session_promo_summary', ALPHA, { session_id: ALPHA_A });
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBeNull();
    // Alpha's bookie_a account: $25 and $5 available, $10 used; one 2/3 racing token.
    expect(res.body).toMatchObject({
      success: true,
      session_id: ALPHA_A,
      bookie: 'bookie_a',
      bonus_tokens_available: 2,
      total_bonus: 30,
      account_promos: 1,
    });
    expect(res.body.race_promos).toEqual(expect.any(Number));
    const missing = await post(sb.url, '/v2/session_promo_summary', ALPHA, {});
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('session_id');
  });
});

describe('the stacked_srm branch of /v2/place_bet before the sunset', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ speed: 50, start: new Date('2026-05-01T00:30:00Z') });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers the stacked SRM result inline with deprecation headers pointing at /v3/stacked_srm', async () => {
    const race = { track: 'Flemington', race_num: 8, race_type: '(R)', date: '2026-05-01' };
    const check = await post(sb.url, '/v3/price_check', ALPHA, { session_ids: [ALPHA_A], category: 'racing', ...race });
    expect(check.status).toBe(202);
    const priced = await waitJob(sb.url, ALPHA, check.body.queries[0].correlation_id);
    const runners: string[] = priced.result.selections.map((s: { runner: string }) => s.runner);
    expect(runners.length).toBeGreaterThanOrEqual(4);
    const body = {
      category: 'stacked_srm',
      session_id: ALPHA_A,
      ...race,
      bets: [
        { stake: 5, legs: [{ runner: runners[0] }, { runner: runners[1], position: 'top3' }] },
        { stake: 5, legs: [{ runner: runners[2] }, { runner: runners[3], position: 'top3' }] },
      ],
    };
    const res = await post(sb.url, '/v2/place_bet', ALPHA, body);
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('link')).toBe('</v3/stacked_srm>; rel=successor-version');
    expect(res.body).toMatchObject({
      success: expect.any(Boolean),
      placed: expect.any(Number),
      failed: expect.any(Number),
    });
    expect(res.body.correlation_id).toBeUndefined();
    expect(res.body.results).toHaveLength(2);
  });

  it('passes the v3 checks through: fewer than 2 bets is 400', async () => {
    const res = await post(sb.url, '/v2/place_bet', ALPHA, {
      category: 'stacked_srm',
      session_id: ALPHA_A,
      track: 'Flemington',
      race_num: 8,
      date: '2026-05-01',
      bets: [{ stake: 5, legs: [{ runner: 'A' }, { runner: 'B' }] }],
    });
    expect(res.status).toBe(400);
  });
});

describe('inline v2 answers when the job never completes', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ speed: 1, start: new Date('2026-05-01T10:00:00Z'), faults: { stuckJobs: 1 } });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers 504 once the v3 job passes its timeout_at', async () => {
    const pending = post(sb.url, '/v2/bonus_bets', ALPHA, { session_id: ALPHA_A });
    // Let the request reach the server and submit its job before the clock jumps.
    await untilAnswer(
      'the job submitted',
      () => get(sb.url, '/_sandbox/state'),
      (s) => s.body.jobs.length === 1,
    );
    await post(sb.url, '/_sandbox/clock/advance', undefined, { ms: 5 * 60_000 + 1 });
    const res = await pending;
    expect(res.status).toBe(504);
    expect(res.body.detail).toMatch(/timeout/);
  });
});
