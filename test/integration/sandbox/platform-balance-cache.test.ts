// Issue 36: the balance cache "is seeded at session start and refreshed on each session heartbeat" (every 30 s of
// sandbox time); a stopped session has no heartbeat, so its cached balance stays as it was until it runs again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ALPHA,
  ALPHA_B,
  ALPHA_C,
  ALPHA_IDLE,
  advance,
  post,
  type Sandbox,
  start,
  waitJob,
} from './platform-helpers.js';

// 10 s past a heartbeat: a start seeds the cache between two heartbeats, so its stamp is told apart from either.
const T0 = Date.parse('2026-11-20T12:00:10.000Z');

let sb: Sandbox;
beforeEach(async () => {
  // speed 1 and a pinned start: the clock moves only when the test advances it.
  sb = await start({ speed: 1, start: new Date(T0) });
});
afterEach(async () => {
  await sb.close();
});

const now = () => sb.sb.clock.nowMs();
/** The sandbox clock also runs at real speed between calls: a stamp made during a call lies between these. */
const within = (stamp: string, fromMs: number, toMs: number) => {
  expect(Date.parse(stamp)).toBeGreaterThanOrEqual(fromMs);
  expect(Date.parse(stamp)).toBeLessThanOrEqual(toMs);
};
const balance = async (session_id: string) => (await post(sb.url, '/v3/balance', ALPHA, { session_id })).body;

describe('the balance cache (issue 36)', () => {
  it('a start seeds the cache at the start; heartbeats refresh it from then on', async () => {
    expect((await post(sb.url, '/v3/stop_session', ALPHA, { session_id: ALPHA_C })).body.status).toBe('stopped');
    await advance(sb.url, 45_000); // 12:00:55, a heartbeat (12:00:30) went by while stopped
    expect((await balance(ALPHA_C)).retrieved_at).toBe('2026-11-20T12:00:00.000Z');
    const startedAfter = now();
    expect((await post(sb.url, '/api/start_session', ALPHA, { session_id: ALPHA_C })).body.delivered).toBe(true);
    const seeded = (await balance(ALPHA_C)).retrieved_at;
    within(seeded, startedAfter, now());
    await advance(sb.url, 3_000); // active, and no heartbeat yet (the next is 12:01:00)
    expect((await balance(ALPHA_C)).retrieved_at).toBe(seeded);
    await advance(sb.url, 10_000);
    expect((await balance(ALPHA_C)).retrieved_at).toBe('2026-11-20T12:01:00.000Z');
  });

  it('a restart seeds the cache at the restart, not at the heartbeat before it', async () => {
    await advance(sb.url, 5_000);
    expect((await balance(ALPHA_C)).retrieved_at).toBe('2026-11-20T12:00:00.000Z');
    const restartedAfter = now();
    expect((await post(sb.url, '/api/restart_session', ALPHA, { session_id: ALPHA_C })).body.status).toBe('success');
    within((await balance(ALPHA_C)).retrieved_at, restartedAfter, now());
  });

  it('a stopped session keeps the balance it held, through heartbeats and money moved on its account, until it runs again', async () => {
    // ALPHA_B and ALPHA_IDLE are two machines on one bookie_b account.
    const before = await balance(ALPHA_B);
    expect(before.retrieved_at).toBe('2026-11-20T12:00:00.000Z');
    await post(sb.url, '/v3/stop_session', ALPHA, { session_id: ALPHA_B });
    await post(sb.url, '/api/start_session', ALPHA, { session_id: ALPHA_IDLE });
    await advance(sb.url, 3_000);
    const w = await post(sb.url, '/v3/withdraw_balance', ALPHA, { session_id: ALPHA_IDLE, amount: 10 });
    expect(w.status).toBe(202);
    await advance(sb.url, 2_000);
    expect((await waitJob(sb.url, ALPHA, w.body.correlation_id)).result.success).toBe(true);
    await advance(sb.url, 120_000); // four heartbeats of a running session

    expect(await balance(ALPHA_B)).toEqual(before);
    const running = await balance(ALPHA_IDLE);
    expect(running.withdrawable_balance).toBe(Math.round((before.withdrawable_balance - 10) * 100) / 100);
    expect(running.retrieved_at).toBe('2026-11-20T12:02:00.000Z');

    const startedAfter = now();
    await post(sb.url, '/api/start_session', ALPHA, { session_id: ALPHA_B });
    const again = await balance(ALPHA_B);
    expect(again.withdrawable_balance).toBe(Math.round((before.withdrawable_balance - 10) * 100) / 100);
    within(again.retrieved_at, startedAfter, now());
  });

  it('a session that is not running at the sandbox start holds what it read before the start', async () => {
    const idle = await balance(ALPHA_IDLE);
    await advance(sb.url, 90_000);
    expect(await balance(ALPHA_IDLE)).toEqual(idle);
    expect(idle.retrieved_at).toBe('2026-11-20T12:00:00.000Z');
  });
});
