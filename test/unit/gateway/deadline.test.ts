import { describe, expect, it } from 'vitest';
import { Deadline } from '../../../src/gateway/deadline.js';

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
