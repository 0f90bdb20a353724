import { describe, expect, it } from 'vitest';
import { Deadline, DeadlineClock } from '../../../src/gateway/internal/deadline.js';

describe('request deadline (the signal undici gets)', () => {
  it('aborts once the time is up, telling the one listener with a TimeoutError reason', async () => {
    const deadline = new Deadline(20);
    let told = 0;
    deadline.once('abort', () => told++);
    await expect.poll(() => deadline.aborted, { timeout: 2_000 }).toBe(true);
    expect(told).toBe(1);
    expect((deadline.reason as Error | undefined)?.name).toBe('TimeoutError');
  });

  it('never fires once cleared, nor for a listener that was removed', async () => {
    const cleared = new Deadline(10);
    const removed = new Deadline(10);
    let told = 0;
    const listener = () => told++;
    cleared.once('abort', listener);
    removed.once('abort', listener);
    cleared.clear();
    removed.removeListener('abort', listener);
    await expect.poll(() => removed.aborted, { timeout: 2_000 }).toBe(true);
    expect(cleared.aborted).toBe(false);
    expect(told).toBe(0);
  });
});

describe('deadline clock (one timer for many deadlines)', () => {
  const refTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('expires each deadline when its own time is up, a shorter one started later first', async () => {
    const clock = new DeadlineClock();
    const long = new Deadline(400, undefined, clock);
    const short = new Deadline(20, undefined, clock);
    await expect.poll(() => short.aborted, { timeout: 2_000 }).toBe(true);
    expect(long.aborted).toBe(false);
    expect((short.reason as Error | undefined)?.name).toBe('TimeoutError');
    await expect.poll(() => long.aborted, { timeout: 2_000 }).toBe(true);
    clock.stop();
  });

  it('never expires a cleared deadline and forgets it', async () => {
    const clock = new DeadlineClock();
    const cleared = new Deadline(10, undefined, clock);
    const kept = new Deadline(30, undefined, clock);
    cleared.clear();
    expect(clock.size).toBe(1);
    await expect.poll(() => kept.aborted, { timeout: 2_000 }).toBe(true);
    expect(cleared.aborted).toBe(false);
    expect(clock.size).toBe(0);
  });

  it('sets no timer that keeps the process alive', () => {
    const before = refTimers();
    const clock = new DeadlineClock();
    const d = new Deadline(60_000, undefined, clock);
    expect(refTimers()).toBe(before);
    d.clear();
    clock.stop();
  });
});
