/** Timer functions the limiter uses; injectable so tests can drive a minute without waiting for one. */
export interface LimiterClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: LimiterClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface MarketsLimiterOptions {
  /** Requests allowed in any rolling window; the gateway allows 120 per minute per key. */
  perMinute?: number;
  windowMs?: number;
  clock?: LimiterClock;
}

/**
 * Client-side rolling-window limit for GET /v3/markets. Callers over the limit queue (FIFO) instead of failing;
 * pause() (after a 429) holds the whole bucket until Retry-After. A timer exists only while someone is queued.
 */
export class MarketsLimiter {
  readonly perMinute: number;
  readonly windowMs: number;
  readonly #clock: LimiterClock;
  /** Grant times inside the current window, oldest first. */
  readonly #grants: number[] = [];
  readonly #queue: (() => void)[] = [];
  #pausedUntil = 0;
  #timer: unknown;
  #timerAt = 0;

  constructor(opts: MarketsLimiterOptions = {}) {
    this.perMinute = opts.perMinute ?? 120;
    this.windowMs = opts.windowMs ?? 60_000;
    if (!Number.isInteger(this.perMinute) || this.perMinute < 1) {
      throw new RangeError(`marketRateLimit.perMinute must be a whole number of at least 1 (got ${this.perMinute}).`);
    }
    this.#clock = opts.clock ?? systemClock;
  }

  get queued(): number {
    return this.#queue.length;
  }

  get hasTimer(): boolean {
    return this.#timer !== undefined;
  }

  /** Resolves when a request may be sent. `front` puts a retried request ahead of new ones. */
  acquire(opts: { front?: boolean } = {}): Promise<void> {
    return new Promise<void>((resolve) => {
      if (opts.front) this.#queue.unshift(resolve);
      else this.#queue.push(resolve);
      this.#drain();
    });
  }

  /** Holds every queued and future request until `ms` from now (a 429's Retry-After). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + Math.max(0, ms));
    this.#drain();
  }

  #drain(): void {
    const now = this.#clock.now();
    while (this.#grants.length > 0 && this.#grants[0]! <= now - this.windowMs) this.#grants.shift();
    while (this.#queue.length > 0 && now >= this.#pausedUntil && this.#grants.length < this.perMinute) {
      this.#grants.push(now);
      this.#queue.shift()!();
    }
    this.#schedule(now);
  }

  #schedule(now: number): void {
    if (this.#queue.length === 0) {
      this.#clearTimer();
      return;
    }
    const freeAt = this.#grants.length >= this.perMinute ? this.#grants[0]! + this.windowMs : now;
    const at = Math.max(freeAt, this.#pausedUntil);
    if (this.#timer !== undefined && this.#timerAt === at) return;
    this.#clearTimer();
    this.#timerAt = at;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#drain();
      },
      Math.max(0, at - now),
    );
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
