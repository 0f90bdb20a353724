import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALPHA,
  ALPHA_A,
  ALPHA_IDLE,
  BRAVO,
  BRAVO_A,
  DEMO,
  get,
  NOSUB,
  NOSUB_A,
  post,
  READONLY,
  READONLY_A,
  type Sandbox,
  start,
} from './platform-helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(async () => {
  await sb.close();
});

const SANDBOX_HEADER = { 'X-Service-Sandbox': '1' };

describe('authentication', () => {
  it('answers 401 without a key', async () => {
    const res = await post(sb.url, '/api/session_ids', undefined);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid or missing API key' });
  });

  it('answers 401 for an unknown key, without echoing it', async () => {
    const res = await post(sb.url, '/api/session_ids', 'not-a-real-key-123');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid or missing API key' });
  });

  it('answers 403 No valid subscription to a key without a subscription', async () => {
    const res = await post(sb.url, '/v3/balance', NOSUB, { session_id: NOSUB_A });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'No valid subscription' });
  });

  it('refuses start_session and restart_session without a subscription', async () => {
    for (const path of ['/api/start_session', '/api/restart_session']) {
      const res = await post(sb.url, path, NOSUB, { session_id: NOSUB_A });
      expect(res.status, path).toBe(403);
      expect(res.body.detail).toBe('No valid subscription');
    }
  });

  it('lets stop_session through without a subscription', async () => {
    const res = await post(sb.url, '/v3/stop_session', NOSUB, { session_id: NOSUB_A });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'stopped', session_id: NOSUB_A, delivered: true });
  });

  it('answers 403 permission to the read-only key on state-changing calls', async () => {
    const withdraw = await post(sb.url, '/v3/withdraw_balance', READONLY, { session_id: READONLY_A, amount: 5 });
    expect(withdraw.status).toBe(403);
    expect(withdraw.body).toEqual({ detail: 'API key does not have permission for this operation' });
    const split = await post(sb.url, '/v3/split_bonus_bet', READONLY, { session_id: READONLY_A, max_amount: 5 });
    expect(split.status).toBe(403);
    expect(split.body.detail).toBe('API key does not have permission for this operation');
  });

  it('lets the read-only key read', async () => {
    const res = await post(sb.url, '/v3/balance', READONLY, { session_id: READONLY_A });
    expect(res.status).toBe(200);
    expect(res.body.session_id).toBe(READONLY_A);
  });

  it('answers place_promo from a key without betting with 403 betting not enabled', async () => {
    const res = await post(sb.url, '/v3/place_promo', READONLY, { session_id: READONLY_A, promo_id: 1001, stake: 5 });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('betting_not_enabled');
  });
});

describe('session ownership', () => {
  it("answers 403 session_not_owned for another account's session", async () => {
    const res = await post(sb.url, '/v3/balance', ALPHA, { session_id: BRAVO_A });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('session_not_owned');
  });

  it('answers 404 for a session that does not exist', async () => {
    const res = await post(sb.url, '/v3/balance', ALPHA, { session_id: 'sess-nope' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Session not found or has expired' });
  });

  it('answers 403 Session is not active for async work on an idle session', async () => {
    const res = await post(sb.url, '/v3/transactions', ALPHA, { session_id: ALPHA_IDLE });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Session is not active' });
  });

  it('checks ownership on account_promos session_id', async () => {
    const res = await get(sb.url, `/v3/account_promos?session_id=${BRAVO_A}`, ALPHA);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('session_not_owned');
  });
});

describe('sample mode', () => {
  it('answers samples to a key without subscription that sends X-Service-Sandbox: 1', async () => {
    const res = await post(sb.url, '/v3/balance', NOSUB, { session_id: NOSUB_A }, SANDBOX_HEADER);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-sandbox')).toBe('1');
    expect(res.body.sandbox).toBe(true);
    expect(res.body.sandbox_note).toMatch(/sample/);
    for (const field of [
      'session_id',
      'bookie',
      'username',
      'balance',
      'bonus_balance',
      'withdrawable_balance',
      'retrieved_at',
    ]) {
      expect(res.body, field).toHaveProperty(field);
    }
  });

  it('answers an async sample with the real status 202 and an envelope, and changes nothing', async () => {
    const before = (await get(sb.url, '/_sandbox/state')).body.jobs.length;
    const res = await post(sb.url, '/v3/withdraw_balance', NOSUB, { session_id: NOSUB_A, amount: 10 }, SANDBOX_HEADER);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'pending', amount: 10, sandbox: true });
    expect(res.body.correlation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get(sb.url, '/_sandbox/state')).body.jobs.length).toBe(before);
  });

  it('ignores the sandbox header when the key has a subscription', async () => {
    const res = await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A }, SANDBOX_HEADER);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-sandbox')).toBeNull();
    expect(res.body.sandbox).toBeUndefined();
    expect(res.body.session_id).toBe(ALPHA_A);
  });

  it('always answers samples to the demo key, with no other header', async () => {
    const sessions = await post(sb.url, '/api/session_ids', DEMO);
    expect(sessions.status).toBe(200);
    expect(sessions.headers.get('x-service-sandbox')).toBe('1');
    expect(sessions.body.sessions[0]).toMatchObject({ session_id: expect.any(String), active: true });
    const promos = await get(sb.url, '/v3/account_promos', DEMO);
    expect(promos.body).toMatchObject({ success: true, count: 1, sandbox: true });
    const start = await post(sb.url, '/api/start_session', DEMO, { session_id: 'anything' });
    expect(start.body).toMatchObject({ status: 'success', session_status: 'launching', sandbox: true });
  });

  it('never shows the key in a sample or an error', async () => {
    const res = await post(sb.url, '/v3/place_promo', BRAVO, { session_id: ALPHA_A, promo_id: 1, stake: 1 });
    expect(JSON.stringify(res.body)).not.toContain(BRAVO);
    const sample = await post(sb.url, '/v3/balance', DEMO, {});
    expect(JSON.stringify(sample.body)).not.toContain(DEMO);
  });
});
