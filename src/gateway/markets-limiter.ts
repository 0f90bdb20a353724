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
 *
 * The gateway counts a request when it arrives, which is after we send it. A grant therefore counts from its
 * send time only until settle() says the answer came back; from then on it counts from that later moment, so
 * the gateway's window has always ended before ours frees the slot (a burst of 300 meets no 429).
 */
export class MarketsLimiter {
  readonly perMinute: number;
  readonly windowMs: number;
  readonly #clock: LimiterClock;
  /** Send times of grants not yet settled, oldest first. */
  readonly #sent: number[] = [];
  /** Times settled grants' answers came back, oldest first. */
  readonly #settled: number[] = [];
  readonly #queue: ((grant: number) => void)[] = [];
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

  /**
   * Resolves with a grant (its send time) when a request may be sent; pass it to settle() once the answer is in.
   * `front` puts a retried request ahead of new ones.
   */
  acquire(opts: { front?: boolean } = {}): Promise<number> {
    // The common case takes no closure and no timer: nobody waiting, a free slot, no pause.
    if (this.#queue.length === 0) {
      const now = this.#clock.now();
      this.#expire(now);
      if (now >= this.#pausedUntil && this.#used() < this.perMinute) {
        this.#sent.push(now);
        return Promise.resolve(now);
      }
    }
    return new Promise<number>((resolve) => {
      if (opts.front) this.#queue.unshift(resolve);
      else this.#queue.push(resolve);
      this.#drain();
    });
  }

  /** The answer to a granted request came back (or it failed): its slot now counts from this moment. */
  settle(grant: number): void {
    const now = this.#clock.now();
    const i = this.#sent.indexOf(grant);
    if (i >= 0) this.#sent.splice(i, 1);
    this.#settled.push(now);
    // The slot moved later, so a queued caller's timer may now be early; it re-checks when it fires.
  }

  /** Holds every queued and future request until `ms` from now (a 429's Retry-After). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + Math.max(0, ms));
    this.#drain();
  }

  #used(): number {
    return this.#sent.length + this.#settled.length;
  }

  #expire(now: number): void {
    const edge = now - this.windowMs;
    while (this.#sent.length > 0 && this.#sent[0]! <= edge) this.#sent.shift();
    while (this.#settled.length > 0 && this.#settled[0]! <= edge) this.#settled.shift();
  }

  #drain(): void {
    const now = this.#clock.now();
    this.#expire(now);
    while (this.#queue.length > 0 && now >= this.#pausedUntil && this.#used() < this.perMinute) {
      this.#sent.push(now);
      this.#queue.shift()!(now);
    }
    this.#schedule(now);
  }

  /** When the oldest counted grant leaves the window. */
  #oldest(): number {
    const a = this.#sent[0] ?? Number.POSITIVE_INFINITY;
    const b = this.#settled[0] ?? Number.POSITIVE_INFINITY;
    return Math.min(a, b);
  }

  #schedule(now: number): void {
    if (this.#queue.length === 0) {
      this.#clearTimer();
      return;
    }
    const freeAt = this.#used() >= this.perMinute ? this.#oldest() + this.windowMs : now;
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
