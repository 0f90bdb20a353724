import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acksSent, arrived, BURST_QUIET_MS, callbackSent, finished } from '../../../src/bot/discord/intake.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  for (const id of ['a1', 'a2', 'a3', 'a4']) finished(id);
  vi.useRealTimers();
});

/** Whether the promise has settled once pending microtasks ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('work after a defer waits for the burst’s acknowledgements', () => {
  it('resumes only once every interaction that arrived has had its acknowledgement sent or was finished', async () => {
    arrived('a1');
    arrived('a2');
    arrived('a3');
    callbackSent('a1');
    const wait = acksSent(60_000);
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS * 10);
    callbackSent('a2');
    expect(await settled(wait)).toBe(false);
    finished('a3');
    expect(await settled(wait)).toBe(true);
  });

  it('waits while interactions keep arriving, and resumes once none came for the quiet time', async () => {
    arrived('a1');
    callbackSent('a1');
    const wait = acksSent(60_000);
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS - 5);
    arrived('a2');
    callbackSent('a2');
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS - 5);
    expect(await settled(wait)).toBe(false);
    await vi.advanceTimersByTimeAsync(5);
    expect(await settled(wait)).toBe(true);
  });

  it('does not wait after a lone interaction once its acknowledgement is sent', async () => {
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS * 10);
    arrived('a1');
    callbackSent('a1');
    expect(await settled(acksSent(60_000))).toBe(true);
  });

  it('resumes after the longest wait when an acknowledgement never leaves', async () => {
    arrived('a4');
    const wait = acksSent(500);
    await vi.advanceTimersByTimeAsync(499);
    expect(await settled(wait)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(wait)).toBe(true);
  });
});
