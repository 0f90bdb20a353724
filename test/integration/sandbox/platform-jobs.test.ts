import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALPHA,
  ALPHA_A,
  ALPHA_B,
  advance,
  BRAVO,
  BRAVO_A,
  get,
  post,
  type Sandbox,
  start,
  waitJob,
} from './platform-helpers.js';

describe('async jobs', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ speed: 50 });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers 202 with the spec envelope: pending, uuid, timestamps 5 minutes apart, session echo', async () => {
    const res = await post(sb.url, '/v3/transactions', ALPHA, { session_id: ALPHA_A });
    expect(res.status).toBe(202);
    const env = res.body;
    expect(env).toMatchObject({
      status: 'pending',
      session_id: ALPHA_A,
      bookie: 'bookie_a',
      username: 'alpha_a',
      callback_url: null,
    });
    expect(env.correlation_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Date.parse(env.timeout_at) - Date.parse(env.submitted_at)).toBe(5 * 60_000);
  });

  it('completes the job after the bookmaker delay with the result readable by polling', async () => {
    const res = await post(sb.url, '/v3/transactions', ALPHA, { session_id: ALPHA_A });
    const entry = await waitJob(sb.url, ALPHA, res.body.correlation_id);
    expect(entry.status).toBe('completed');
    expect(entry).toMatchObject({ session_id: ALPHA_A, bookie: 'bookie_a', submitted_at: res.body.submitted_at });
    expect(entry.result.success).toBe(true);
  });

  it("polls a mix of ids: own ones resolve, another account's and never-issued ids are unknown", async () => {
    const mine = await post(sb.url, '/v3/bonus_bets', ALPHA, { session_id: ALPHA_B });
    const theirs = await post(sb.url, '/v3/bonus_bets', BRAVO, { session_id: BRAVO_A });
    await waitJob(sb.url, ALPHA, mine.body.correlation_id);
    const ids = [mine.body.correlation_id, theirs.body.correlation_id, '11111111-1111-4111-8111-111111111111'];
    const res = await post(sb.url, '/api/bet_status', ALPHA, { correlation_ids: ids });
    expect(res.body.statuses.map((s: { correlation_id: string }) => s.correlation_id)).toEqual(ids);
    expect(res.body.statuses.map((s: { status: string }) => s.status)).toEqual(['completed', 'unknown', 'unknown']);
    expect(res.body.statuses[1].result).toBeUndefined();
  });

  it('refuses bet_status without a correlation_ids array', async () => {
    const res = await post(sb.url, '/api/bet_status', ALPHA, { correlation_ids: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('correlation_ids');
  });

  it('registers a loopback callback_url and answers null for one it cannot reach', async () => {
    const loop = await post(sb.url, '/v3/promos', ALPHA, {
      session_id: ALPHA_A,
      callback_url: 'http://127.0.0.1:9/hook',
    });
    expect(loop.body.callback_url).toBe('http://127.0.0.1:9/hook');
    const remote = await post(sb.url, '/v3/promos', ALPHA, {
      session_id: ALPHA_A,
      callback_url: 'https://example.com/hook',
    });
    expect(remote.status).toBe(202);
    expect(remote.body.callback_url).toBeNull();
    const bad = await post(sb.url, '/v3/promos', ALPHA, { session_id: ALPHA_A, callback_url: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('callback_url');
  });
});

describe('job timeout and expiry', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ speed: 1, faults: { stuckJobs: 1 } });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('moves a job that never completes to timeout at timeout_at, then to unknown after 30 minutes', async () => {
    const res = await post(sb.url, '/v3/transactions', ALPHA, { session_id: ALPHA_A });
    const id = res.body.correlation_id;
    const poll = async () => (await post(sb.url, '/api/bet_status', ALPHA, { correlation_ids: [id] })).body.statuses[0];
    expect((await poll()).status).toBe('pending');
    await advance(sb.url, 4 * 60_000);
    expect((await poll()).status).toBe('pending');
    await advance(sb.url, 61_000);
    const timedOut = await poll();
    expect(timedOut.status).toBe('timeout');
    expect(timedOut.result).toBeUndefined();
    await advance(sb.url, 25 * 60_000);
    expect((await poll()).status).toBe('unknown');
  });

  it('shows a completed job as unknown once its id is older than 30 minutes', async () => {
    await post(sb.url, '/_sandbox/faults', undefined, {});
    const res = await post(sb.url, '/v3/transactions', ALPHA, { session_id: ALPHA_A });
    await advance(sb.url, 2_000);
    const done = await post(sb.url, '/api/bet_status', ALPHA, { correlation_ids: [res.body.correlation_id] });
    expect(done.body.statuses[0].status).toBe('completed');
    await advance(sb.url, 30 * 60_000 + 1);
    const later = await post(sb.url, '/api/bet_status', ALPHA, { correlation_ids: [res.body.correlation_id] });
    expect(later.body.statuses[0]).toEqual({ correlation_id: res.body.correlation_id, status: 'unknown' });
    const state = await get(sb.url, '/_sandbox/state');
    expect(state.status).toBe(200);
  });
});
