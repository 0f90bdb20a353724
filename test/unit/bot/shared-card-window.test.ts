// The key's card window shared across processes (decision 1941), over an in-memory keyv and a lock that queues:
// what it admits, what it makes wait and for how long, and the members' reserve against background reads.
import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { SharedCardWindow } from '../../../src/bot/catalog/shared-card-window.js';
import { MarketsLimiter, sharedGate } from '../../../src/gateway/index.js';

function storeLike() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    kv: new Keyv(),
    withLock<T>(_key: string, fn: () => Promise<T>): Promise<T> {
      const run = tail.then(fn, fn);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

describe('the shared card window', () => {
  it('admits reads up to the limit, then answers how long until the oldest leaves the window', async () => {
    let now = 1_000_000;
    const w = new SharedCardWindow(storeLike(), {
      perMinute: 5,
      windowMs: 60_000,
      backgroundCapacity: 2,
      marginMs: 2_000,
      now: () => now,
    });
    for (let i = 0; i < 5; i++) {
      expect(await w.take('interactive')).toBe(0);
      now += 1_000;
    }
    // The first read was at 1 000 000; it counts until a window and the margin after.
    expect(await w.take('interactive')).toBe(1_000_000 + 62_000 - now);
    expect(await w.counted()).toBe(5);
    now = 1_000_000 + 62_001;
    expect(await w.take('interactive')).toBe(0);
  });

  it('holds background reads to their share, and members still get the rest', async () => {
    const now = 5_000;
    // Two processes' windows over one store: what one takes the other sees.
    const store = storeLike();
    const opts = { perMinute: 5, windowMs: 60_000, backgroundCapacity: 2, now: () => now };
    const a = new SharedCardWindow(store, opts);
    const b = new SharedCardWindow(store, opts);
    expect(await a.take('background')).toBe(0);
    expect(await b.take('background')).toBe(0);
    expect(await a.take('background')).toBeGreaterThan(0);
    expect(await b.take('background')).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect(await (i % 2 ? a : b).take('interactive')).toBe(0);
    expect(await a.take('interactive')).toBeGreaterThan(0);
  });

  it('gives the local slot back when the shared window is full, and refuses past maxQueueMs with nothing sent', async () => {
    const limiter = new MarketsLimiter({ perMinute: 3 });
    const gate = sharedGate(limiter, { take: async () => 30_000 });
    await expect(gate.acquire({ maxQueueMs: 1_000 })).rejects.toThrow(/shared by every process on it, is full/);
    expect(limiter.refused).toBe(1);
    // The refused read's local slot was released: all three are free.
    for (let i = 0; i < 3; i++) {
      expect(limiter.estimateWaitMs()).toBe(0);
      await limiter.acquire();
    }
    expect(limiter.estimateWaitMs()).toBeGreaterThan(0);
  });
});
