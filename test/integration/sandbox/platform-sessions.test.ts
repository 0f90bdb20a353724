import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALPHA,
  ALPHA_A,
  ALPHA_B,
  ALPHA_C,
  ALPHA_IDLE,
  advance,
  BRAVO,
  BRAVO_A,
  get,
  post,
  type Sandbox,
  start,
} from './platform-helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  // speed 1: launches only move on when the test advances the clock.
  sb = await start({ speed: 1 });
});
afterAll(async () => {
  await sb.close();
});

const sessionState = async (id: string) =>
  (await get(sb.url, '/_sandbox/state')).body.sessions.find((s: { session_id: string }) => s.session_id === id);

describe('sessions', () => {
  it("lists the caller's sessions with the spec fields, active ones and the idle one", async () => {
    const res = await post(sb.url, '/api/session_ids', ALPHA);
    expect(res.status).toBe(200);
    const ids = res.body.sessions.map((s: { session_id: string }) => s.session_id);
    expect(ids).toEqual([ALPHA_A, ALPHA_B, ALPHA_C, ALPHA_IDLE]);
    for (const s of res.body.sessions) {
      expect(Object.keys(s)).toEqual(expect.arrayContaining(['session_id', 'bookie', 'username', 'active', 'pc_id']));
    }
    expect(res.body.sessions.find((s: { session_id: string }) => s.session_id === ALPHA_IDLE).active).toBe(false);
  });

  it("lists only the caller's own sessions", async () => {
    const res = await post(sb.url, '/api/session_ids', BRAVO);
    expect(res.body.sessions.every((s: { session_id: string }) => s.session_id.startsWith('5e55b2a0-'))).toBe(true);
  });

  it('starts a session: launching, delivered, then active after the launch delay', async () => {
    const res = await post(sb.url, '/api/start_session', ALPHA, { session_id: ALPHA_IDLE });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', session_status: 'launching', delivered: true });
    expect((await sessionState(ALPHA_IDLE)).status).toBe('launching');
    await advance(sb.url, 2_000);
    expect((await sessionState(ALPHA_IDLE)).status).toBe('active');
  });

  it('restarts a running session through launching', async () => {
    const res = await post(sb.url, '/api/restart_session', ALPHA, { session_id: ALPHA_B });
    expect(res.body).toEqual({ status: 'success', session_status: 'launching', delivered: true });
    const list = await post(sb.url, '/api/session_ids', ALPHA);
    expect(list.body.sessions.find((s: { session_id: string }) => s.session_id === ALPHA_B).active).toBe(false);
    await advance(sb.url, 2_000);
    expect((await sessionState(ALPHA_B)).status).toBe('active');
  });

  it('stops with revoke, and the next start clears the revoke flag', async () => {
    const stop = await post(sb.url, '/v3/stop_session', ALPHA, { session_id: ALPHA_C, revoke: true });
    expect(stop.body).toEqual({ status: 'stopped', session_id: ALPHA_C, delivered: true });
    expect(await sessionState(ALPHA_C)).toMatchObject({ status: 'stopped', revoked: true });
    const balance = await post(sb.url, '/v3/transactions', ALPHA, { session_id: ALPHA_C });
    expect(balance.status).toBe(403);
    await post(sb.url, '/api/start_session', ALPHA, { session_id: ALPHA_C });
    expect(await sessionState(ALPHA_C)).toMatchObject({ status: 'launching', revoked: false });
    await advance(sb.url, 2_000);
    expect((await sessionState(ALPHA_C)).status).toBe('active');
  });

  it('answers session-op errors as {status: error, message}', async () => {
    const missing = await post(sb.url, '/api/start_session', ALPHA, {});
    expect(missing.status).toBe(400);
    expect(missing.body.status).toBe('error');
    expect(missing.body.message).toContain('session_id');
    const unknown = await post(sb.url, '/v3/stop_session', ALPHA, { session_id: 'sess-nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: 'error', message: 'Session not found or has expired' });
    const notOwned = await post(sb.url, '/api/start_session', ALPHA, { session_id: BRAVO_A });
    expect(notOwned.status).toBe(403);
    expect(notOwned.body).toMatchObject({ status: 'error', error: 'session_not_owned' });
    const badRevoke = await post(sb.url, '/v3/stop_session', ALPHA, { session_id: ALPHA_A, revoke: 'yes' });
    expect(badRevoke.status).toBe(400);
    expect(badRevoke.body.message).toContain('revoke');
  });

  it('answers stop_session with a non-JSON body with 400', async () => {
    const res = await fetch(`${sb.url}/v3/stop_session`, {
      method: 'POST',
      headers: { 'x-api-key': ALPHA, 'content-type': 'application/json' },
      body: 'session_id=x',
    });
    expect(res.status).toBe(400);
  });
});
