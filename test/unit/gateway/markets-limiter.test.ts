import { describe, expect, it } from 'vitest';
import {
  CardLimitError,
  ClientClosedError,
  type LimiterClock,
  MarketsLimiter,
  type QueuedInfo,
} from '../../../src/gateway/index.js';

/** A clock the test moves by hand: timers fire in time order as it advances. */
class ManualClock implements LimiterClock {
  t = 0;
  #timers = new Map<number, { at: number; fn: () => void }>();
  #next = 1;
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.t + ms, fn });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.#timers.delete(h as number);
  };
  get timerCount() {
    return this.#timers.size;
  }
  async advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.#timers.entries()].filter(([, v]) => v.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
      await flush();
    }
    this.t = end;
    await flush();
  }
}
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** Largest number of grants inside any window of `windowMs` starting at a grant. */
const busiestWindow = (times: number[], windowMs: number) =>
  Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + windowMs).length));

describe('markets limiter (rolling 120 per minute)', () => {
  it('lets a burst of 300 through at most 120 per rolling minute, queueing the rest', async () => {
    const clock = new ManualClock();
    const limiter = new MarketsLimiter({ perMinute: 120, clock });
    const granted: number[] = [];
    const all = Array.from({ length: 300 }, () => limiter.acquire().then(() => granted.push(clock.t)));
    await flush();
    expect(granted.length).toBe(120);
    expect(limiter.queued).toBe(180);
    await clock.advance(59_999);
    expect(granted.length).toBe(120);
    await clock.advance(1);
    expect(granted.length).toBe(240);
    await clock.advance(60_000);
    await Promise.all(all);
    expect(granted.length).toBe(300);
    expect(busiestWindow(granted, 60_000)).toBeLessThanOrEqual(120);
    expect(limiter.hasTimer).toBe(false);
    expect(clock.timerCount).toBe(0);
  });

  it('holds the whole bucket during a pause, then serves the queue in order', async () => {
    const clock = new ManualClock();
    const limiter = new MarketsLimiter({ perMinute: 120, clock });
    const order: string[] = [];
    limiter.pause(5_000);
    const a = limiter.acquire().then(() => order.push('a'));
    const b = limiter.acquire().then(() => order.push('b'));
    const retried = limiter.acquire({ front: true }).then(() => order.push('retried'));
    await clock.advance(4_999);
    expect(order).toEqual([]);
    await clock.advance(1);
    await Promise.all([a, b, retried]);
    expect(order).toEqual(['retried', 'a', 'b']);
    expect(limiter.hasTimer).toBe(false);
  });

  it('holds no timer when nothing is queued', async () => {
    const clock = new ManualClock();
    const limiter = new MarketsLimiter({ perMinute: 2, clock });
    await limiter.acquire();
    await limiter.acquire();
    expect(limiter.hasTimer).toBe(false);
    const third = limiter.acquire();
    expect(limiter.hasTimer).toBe(true);
    await clock.advance(60_000);
    await third;
    expect(limiter.hasTimer).toBe(false);
  });

  it('counts a settled request from when its answer came back, not from when it was sent', async () => {
    const clock = new ManualClock();
    const limiter = new MarketsLimiter({ perMinute: 2, clock });
    const first = await limiter.acquire();
    await limiter.acquire();
    await clock.advance(500);
    limiter.settle(first); // answered 500 ms after it was sent: the gateway may have counted it that late
    let thirdAt = -1;
    const third = limiter.acquire().then(() => {
      thirdAt = clock.t;
    });
    await clock.advance(59_500);
    expect(thirdAt).toBe(60_000); // the unsettled grant leaves the window first
    let fourthAt = -1;
    const fourth = limiter.acquire().then(() => {
      fourthAt = clock.t;
    });
    await clock.advance(499);
    expect(fourthAt).toBe(-1);
    await clock.advance(1);
    await Promise.all([third, fourth]);
    expect(fourthAt).toBe(60_500);
    expect(limiter.hasTimer).toBe(false);
  });

  it('refuses a nonsensical limit with a clear message', () => {
    expect(() => new MarketsLimiter({ perMinute: 0 })).toThrow(/perMinute must be a whole number of at least 1/);
  });
});

describe('markets limiter admission (maxQueueMs, onQueued, signal, close)', () => {
  /** A limiter of 2 per minute with both slots used at t=0. */
  async function full() {
    const clock = new ManualClock();
    const limiter = new MarketsLimiter({ perMinute: 2, clock });
    await limiter.acquire();
    await limiter.acquire();
    return { clock, limiter };
  }

  it('refuses at once with retryAfterMs when the estimated wait is longer than maxQueueMs', async () => {
    const { clock, limiter } = await full();
    await clock.advance(20_000);
    const err = await limiter.acquire({ maxQueueMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CardLimitError);
    expect((err as CardLimitError).retryAfterMs).toBe(40_000);
    expect((err as Error).message).toMatch(/try again in about 40 s/);
    expect(limiter.queued).toBe(0);
    expect(limiter.hasTimer).toBe(false);
  });

  it('queues a read whose estimated wait fits maxQueueMs and tells onQueued the estimate', async () => {
    const { clock, limiter } = await full();
    const told: QueuedInfo[] = [];
    let grantedAt = -1;
    const p = limiter.acquire({ maxQueueMs: 60_000, onQueued: (i) => told.push(i) }).then(() => {
      grantedAt = clock.t;
    });
    expect(told).toEqual([{ estimatedWaitMs: 60_000, ahead: 0 }]);
    await clock.advance(60_000);
    await p;
    expect(grantedAt).toBe(60_000);
  });

  it('does not call onQueued for a read that goes at once', async () => {
    const limiter = new MarketsLimiter({ perMinute: 2, clock: new ManualClock() });
    const told: QueuedInfo[] = [];
    await limiter.acquire({ maxQueueMs: 0, onQueued: (i) => told.push(i) });
    expect(told).toEqual([]);
  });

  it('counts the reads queued ahead in the estimate', async () => {
    const { limiter } = await full();
    const ahead = [limiter.acquire(), limiter.acquire()];
    const err = await limiter.acquire({ maxQueueMs: 60_000 }).catch((e: unknown) => e);
    // Two queued reads take the two slots freed at 60 s; this one waits a second window.
    expect((err as CardLimitError).retryAfterMs).toBe(120_000);
    limiter.close();
    await Promise.allSettled(ahead);
  });

  it('takes an aborted read out of the queue and rejects it with the signal reason', async () => {
    const { clock, limiter } = await full();
    const ac = new AbortController();
    const p = limiter.acquire({ signal: ac.signal });
    expect(limiter.queued).toBe(1);
    ac.abort(new Error('user gave up'));
    await expect(p).rejects.toThrow('user gave up');
    expect(limiter.queued).toBe(0);
    expect(limiter.hasTimer).toBe(false);
    expect(clock.timerCount).toBe(0);
  });

  it('refuses a read still queued when maxQueueMs runs out (an answer in flight moved its slot later)', async () => {
    const clock = new ManualClock();
    const limiter = new MarketsLimiter({ perMinute: 1, clock });
    const grant = await limiter.acquire();
    const p = limiter.acquire({ maxQueueMs: 60_000 }).catch((e: unknown) => e);
    expect(limiter.queued).toBe(1);
    // The first answer comes back at 10 s: its slot frees at 70 s, after this read's 60 s allowance.
    await clock.advance(10_000);
    limiter.settle(grant);
    await clock.advance(50_000);
    const err = await p;
    expect(err).toBeInstanceOf(CardLimitError);
    expect((err as CardLimitError).retryAfterMs).toBe(10_000);
    expect((err as Error).message).toMatch(/waited its maxQueueMs 60000 .*try again in about 10 s/);
    expect(limiter.queued).toBe(0);
    expect(clock.timerCount).toBe(0);
  });

  it('leaves no allowance timer behind once a queued read is granted', async () => {
    const { clock, limiter } = await full();
    const p = limiter.acquire({ maxQueueMs: 90_000 });
    await clock.advance(60_000);
    await p;
    expect(clock.timerCount).toBe(0);
  });

  it('rejects every queued read at once with ClientClosedError on close, leaving no timer', async () => {
    const { clock, limiter } = await full();
    const queued = [limiter.acquire(), limiter.acquire({ maxQueueMs: 600_000 })];
    limiter.close();
    const results = await Promise.allSettled(queued);
    for (const r of results) expect(r.status === 'rejected' && r.reason).toBeInstanceOf(ClientClosedError);
    expect(clock.timerCount).toBe(0);
    await expect(limiter.acquire()).rejects.toBeInstanceOf(ClientClosedError);
  });
});

describe('markets limiter background lane (a bounded share, members first)', () => {
  /** 8 a minute, a quarter of it (2) for background reads. */
  const make = () => {
    const clock = new ManualClock();
    return { clock, limiter: new MarketsLimiter({ perMinute: 8, backgroundShare: 0.25, clock }) };
  };

  it('takes a quarter of the limit by default and refuses a share outside (0, 1]', () => {
    expect(new MarketsLimiter({ perMinute: 120 }).backgroundCapacity).toBe(30);
    expect(() => new MarketsLimiter({ backgroundShare: 0 })).toThrow(/backgroundShare must be above 0/);
    expect(() => new MarketsLimiter({ backgroundShare: 1.5 })).toThrow(/backgroundShare must be above 0/);
  });

  it('grants background reads at most their share in any window, the rest in later windows', async () => {
    const { clock, limiter } = make();
    const granted: number[] = [];
    const all = Array.from({ length: 5 }, () =>
      limiter.acquire({ lane: 'background' }).then((g) => {
        granted.push(clock.t);
        limiter.settle(g);
      }),
    );
    await flush();
    expect(granted).toEqual([0, 0]);
    expect(limiter.backgroundQueued).toBe(3);
    await clock.advance(180_000);
    await Promise.all(all);
    expect(granted).toEqual([0, 0, 60_000, 60_000, 120_000]);
    expect(busiestWindow(granted, 60_000)).toBe(2);
    expect(clock.timerCount).toBe(0);
  });

  it('lets an interactive read go at once while background reads wait for their share', async () => {
    const { limiter } = make();
    await limiter.acquire({ lane: 'background' });
    await limiter.acquire({ lane: 'background' });
    const waiting = limiter.acquire({ lane: 'background' });
    expect(limiter.backgroundQueued).toBe(1);
    let interactive = false;
    const member = limiter.acquire().then(() => {
      interactive = true;
    });
    await flush();
    expect(interactive).toBe(true);
    await member;
    limiter.close();
    await waiting.catch(() => undefined);
  });

  it('serves queued interactive reads before queued background reads when slots free', async () => {
    const { clock, limiter } = make();
    for (let i = 0; i < 8; i++) await limiter.acquire();
    const order: string[] = [];
    const bg = limiter.acquire({ lane: 'background' }).then(() => order.push('background'));
    const members = [1, 2, 3, 4, 5, 6].map((n) => limiter.acquire().then(() => order.push(`member ${n}`)));
    // The estimate of the background read counts every member read queued ahead of it.
    expect(limiter.estimateWaitMs({ lane: 'background' })).toBe(60_000);
    await clock.advance(60_000);
    await Promise.all([bg, ...members]);
    expect(order).toEqual(['member 1', 'member 2', 'member 3', 'member 4', 'member 5', 'member 6', 'background']);
  });

  it('refuses a background read at once when its share is used, saying when to retry, nothing granted', async () => {
    const { clock, limiter } = make();
    await limiter.acquire({ lane: 'background' });
    await clock.advance(10_000);
    await limiter.acquire({ lane: 'background' });
    await clock.advance(20_000);
    const err = await limiter.acquire({ lane: 'background', maxQueueMs: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CardLimitError);
    // The first background slot leaves the window at 60 s; six of the eight slots are still free for members.
    expect((err as CardLimitError).retryAfterMs).toBe(30_000);
    expect((err as Error).message).toMatch(/background share \(2 of 8 per 60 s\) is used.*try again in about 30 s/);
    expect(limiter.queued).toBe(0);
    expect(clock.timerCount).toBe(0);
  });

  it('refuses a background read at once while a member read is queued, even with its share unused', async () => {
    const { clock, limiter } = make();
    for (let i = 0; i < 8; i++) await limiter.acquire();
    const member = limiter.acquire();
    await clock.advance(59_000);
    const err = await limiter.acquire({ lane: 'background', maxQueueMs: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CardLimitError);
    expect((err as CardLimitError).retryAfterMs).toBe(1_000);
    await clock.advance(1_000);
    await member;
  });

  it('counts a settled background read from when its answer came back', async () => {
    const { clock, limiter } = make();
    const first = await limiter.acquire({ lane: 'background' });
    await limiter.acquire({ lane: 'background' });
    await clock.advance(5_000);
    limiter.settle(first);
    // The second slot (unsettled, sent at 0) frees at 60 s; the first at 65 s.
    expect(limiter.estimateWaitMs({ lane: 'background' })).toBe(55_000);
    await clock.advance(55_000);
    await limiter.acquire({ lane: 'background', maxQueueMs: 0 });
    await expect(limiter.acquire({ lane: 'background', maxQueueMs: 0 })).rejects.toMatchObject({
      retryAfterMs: 5_000,
    });
  });

  it('rejects queued background reads at once with ClientClosedError on close, leaving no timer', async () => {
    const { clock, limiter } = make();
    await limiter.acquire({ lane: 'background' });
    await limiter.acquire({ lane: 'background' });
    const queued = [
      limiter.acquire({ lane: 'background' }),
      limiter.acquire({ lane: 'background', maxQueueMs: 600_000 }),
    ];
    expect(limiter.backgroundQueued).toBe(2);
    limiter.close();
    const results = await Promise.allSettled(queued);
    for (const r of results) expect(r.status === 'rejected' && r.reason).toBeInstanceOf(ClientClosedError);
    expect(limiter.queued).toBe(0);
    expect(clock.timerCount).toBe(0);
  });

  it('refuses an unknown lane with a clear message', async () => {
    const { limiter } = make();
    await expect(limiter.acquire({ lane: 'urgent' as never })).rejects.toThrow(
      /lane must be 'interactive' or 'background' \(got urgent\)/,
    );
  });
});
