import type { CardLimitError } from './errors.js';
import type { AdmissionOptions, MarketsLimiter, ReadLane } from './markets-limiter.js';

/**
 * The card budget of one API key shared by several processes: the gateway counts the key's reads (120 a minute),
 * not a process's, so two processes each under their own limiter could send 240. `take` claims one read of the
 * key's window for `lane` now and answers 0, or answers the milliseconds until one may be claimed (nothing claimed).
 * Implement it over something every process reaches (the desk's is in its PostgreSQL store).
 */
export interface SharedCardBudget {
  take(lane: ReadLane): Promise<number>;
}

const secs = (ms: number) => Math.ceil(ms / 1000);

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The gate of GET /v3/markets with a shared budget: the process's own limiter first (its queue, lanes, members
 * first, the pause after a 429), then one read of the key's shared window. When the shared window is full the local
 * slot is given back unused and the read waits for the shared one; with `maxQueueMs` a wait longer than what is
 * left of it is refused (CardLimitError with retryAfterMs, nothing sent), as the local limiter refuses.
 */
export function sharedGate(limiter: MarketsLimiter, shared: SharedCardBudget) {
  return {
    async acquire(opts: AdmissionOptions = {}): Promise<number> {
      const started = Date.now();
      for (;;) {
        const grant = await limiter.acquire(opts);
        let wait: number;
        try {
          wait = await shared.take(opts.lane ?? 'interactive');
        } catch (err) {
          limiter.release(grant);
          throw err;
        }
        if (!(wait > 0)) return grant;
        limiter.release(grant);
        const left =
          opts.maxQueueMs === undefined ? Number.POSITIVE_INFINITY : opts.maxQueueMs - (Date.now() - started);
        if (wait > left) {
          throw limiter.refuse(
            wait,
            `the key's window, shared by every process on it, is full; its next slot is about ${secs(wait)} s away`,
          ) satisfies CardLimitError;
        }
        await sleep(wait, opts.signal);
      }
    },
    settle: (grant: number) => limiter.settle(grant),
    pause: (ms: number) => limiter.pause(ms),
  };
}
