// Issue 36: the balance cache "is seeded at session start and refreshed on each session heartbeat" (every 30 s of
// sandbox time); a stopped session has no heartbeat, so its cached balance stays as it was until it runs again.
import { afterEach, describe, expect, it } from 'vitest';
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

let sb: Sandbox | undefined;
/**
 * A sandbox from a pinned start. `slow`: sandbox time at a thousandth of real time, so that a loaded machine's
 * seconds are sandbox milliseconds and the clock crosses a heartbeat only when the test advances it (no async job
 * can run then: a 202 takes 100 sandbox ms).
 */
async function boot(opts: { slow: boolean }): Promise<Sandbox> {
  sb = await start({ speed: opts.slow ? 0.001 : 1, start: new Date(T0) });
  return sb;
}
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const now = () => (sb as Sandbox).sb.clock.nowMs();
const url = () => (sb as Sandbox).url;
/** The sandbox clock also runs (slowly) between calls: a stamp made during a call lies between these. */
const within = (stamp: string, fromMs: number, toMs: number) => {
  // ISO stamps hold whole milliseconds; the clock reads fractions of one.
  expect(Date.parse(stamp)).toBeGreaterThanOrEqual(Math.floor(fromMs));
  expect(Date.parse(stamp)).toBeLessThanOrEqual(Math.ceil(toMs));
};
const balance = async (session_id: string) => (await post(url(), '/v3/balance', ALPHA, { session_id })).body;

describe('the balance cache (issue 36)', () => {
  it('a start seeds the cache at the start; heartbeats refresh it from then on', async () => {
    await boot({ slow: true });
    expect((await post(url(), '/v3/stop_session', ALPHA, { session_id: ALPHA_C })).body.status).toBe('stopped');
    await advance(url(), 45_000); // 12:00:55, a heartbeat (12:00:30) went by while stopped
    expect((await balance(ALPHA_C)).retrieved_at).toBe('2026-11-20T12:00:00.000Z');
    const startedAfter = now();
    expect((await post(url(), '/api/start_session', ALPHA, { session_id: ALPHA_C })).body.delivered).toBe(true);
    const seeded = (await balance(ALPHA_C)).retrieved_at;
    within(seeded, startedAfter, now());
    await advance(url(), 3_000); // active, and no heartbeat yet (the next is 12:01:00)
    expect((await balance(ALPHA_C)).retrieved_at).toBe(seeded);
    await advance(url(), 10_000);
    expect((await balance(ALPHA_C)).retrieved_at).toBe('2026-11-20T12:01:00.000Z');
  });

  it('a restart seeds the cache at the restart, not at the heartbeat before it', async () => {
    await boot({ slow: true });
    await advance(url(), 5_000);
    expect((await balance(ALPHA_C)).retrieved_at).toBe('2026-11-20T12:00:00.000Z');
    const restartedAfter = now();
    expect((await post(url(), '/api/restart_session', ALPHA, { session_id: ALPHA_C })).body.status).toBe('success');
    within((await balance(ALPHA_C)).retrieved_at, restartedAfter, now());
  });

  it('a stopped session keeps the balance it held, through heartbeats and money moved on its account, until it runs again', async () => {
    // Real speed: a withdrawal runs as a job.
    await boot({ slow: false });
    // ALPHA_B and ALPHA_IDLE are two machines on one bookie_b account.
    const before = await balance(ALPHA_B);
    await post(url(), '/v3/stop_session', ALPHA, { session_id: ALPHA_B });
    await post(url(), '/api/start_session', ALPHA, { session_id: ALPHA_IDLE });
    await advance(url(), 3_000);
    const w = await post(url(), '/v3/withdraw_balance', ALPHA, { session_id: ALPHA_IDLE, amount: 10 });
    expect(w.status).toBe(202);
    await advance(url(), 2_000);
    expect((await waitJob(url(), ALPHA, w.body.correlation_id)).result.success).toBe(true);
    await advance(url(), 120_000); // four heartbeats of a running session

    expect(await balance(ALPHA_B)).toEqual(before);
    const running = await balance(ALPHA_IDLE);
    expect(running.withdrawable_balance).toBe(Math.round((before.withdrawable_balance - 10) * 100) / 100);
    // At least four heartbeats later than the held record: the running machine's cache was refreshed.
    expect(Date.parse(running.retrieved_at) - Date.parse(before.retrieved_at)).toBeGreaterThanOrEqual(120_000);

    const startedAfter = now();
    await post(url(), '/api/start_session', ALPHA, { session_id: ALPHA_B });
    const again = await balance(ALPHA_B);
    expect(again.withdrawable_balance).toBe(Math.round((before.withdrawable_balance - 10) * 100) / 100);
    within(again.retrieved_at, startedAfter, now());
  });

  it('a session that is not running at the sandbox start holds what it read before the start', async () => {
    await boot({ slow: true });
    const idle = await balance(ALPHA_IDLE);
    await advance(url(), 90_000);
    expect(await balance(ALPHA_IDLE)).toEqual(idle);
    expect(idle.retrieved_at).toBe('2026-11-20T12:00:00.000Z');
  });
});
