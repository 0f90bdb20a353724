import { CardLimitError, ClientClosedError } from './errors.js';

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

const secs = (ms: number) => Math.ceil(ms / 1000);

export interface MarketsLimiterOptions {
  /** Requests allowed in any rolling window; the gateway allows 120 per minute per key. */
  perMinute?: number;
  windowMs?: number;
  /**
   * Share of the window that background reads (`lane: 'background'`) may use, between 0 and 1 (0.25: 30 of 120).
   * At least one read a window.
   */
  backgroundShare?: number;
  clock?: LimiterClock;
}

/**
 * Whose card read this is. Interactive (default): a member is waiting; it goes first. Background (scheduled
 * work such as closing-line capture): goes only while no interactive read is queued and background reads have
 * used less than the background share of the window.
 */
export type ReadLane = 'interactive' | 'background';

/** What a caller is told when its card read has to wait for a slot. */
export interface QueuedInfo {
  /** Estimated wait until the read is sent, in milliseconds (a lower bound: answers still in flight move it later). */
  estimatedWaitMs: number;
  /** Reads queued ahead of this one. */
  ahead: number;
}

/** Admission options of one card read (see `client.markets.get(query, options)`). */
export interface AdmissionOptions {
  /**
   * Longest wait for a slot: refused at once with CardLimitError (carrying retryAfterMs) when the estimated wait is
   * longer, and refused the same way if the read is still queued after it (the estimate is a lower bound).
   * Default: wait.
   */
  maxQueueMs?: number | undefined;
  /** Aborting removes the read from the queue and rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Called once when the read has to wait for a slot (not called when it goes at once). */
  onQueued?: ((info: QueuedInfo) => void) | undefined;
  /** A retried read (after a 429) goes ahead of new ones. */
  front?: boolean | undefined;
  /** Interactive (default) or background; see ReadLane. */
  lane?: ReadLane | undefined;
}

interface Waiter {
  background: boolean;
  resolve: (grant: number) => void;
  reject: (err: unknown) => void;
  cleanup: (() => void) | undefined;
}

/**
 * Client-side rolling-window limit for GET /v3/markets. Callers over the limit queue (FIFO) instead of failing,
 * unless they set maxQueueMs; pause() (after a 429) holds the whole bucket until Retry-After. A timer exists only
 * while someone is queued.
 *
 * The gateway counts a request when it arrives, which is after we send it. A grant therefore counts from its
 * send time only until settle() says the answer came back; from then on it counts from that later moment, so
 * the gateway's window has always ended before ours frees the slot (a burst of 300 meets no 429).
 *
 * Background reads wait in a second queue served only when the interactive one is empty, and hold at most
 * backgroundCapacity of the window's slots (counted the same way), so members keep the rest. Their grants are
 * negative ids (interactive grants are send times), so settle() knows the lane without the caller saying.
 */
export class MarketsLimiter {
  readonly perMinute: number;
  readonly windowMs: number;
  /** Background reads allowed in any window. */
  readonly backgroundCapacity: number;
  readonly #clock: LimiterClock;
  /** Send times of grants not yet settled, oldest first. */
  readonly #sent: number[] = [];
  /** Times settled grants' answers came back, oldest first. */
  readonly #settled: number[] = [];
  readonly #queue: Waiter[] = [];
  readonly #bgQueue: Waiter[] = [];
  /** The background grants among #sent and #settled, kept the same way. */
  readonly #bgSent: number[] = [];
  readonly #bgSettled: number[] = [];
  /** Send time of each background grant not yet settled, by its id. */
  readonly #bgInFlight = new Map<number, number>();
  #nextBgGrant = -1;
  #pausedUntil = 0;
  #timer: unknown;
  #timerAt = 0;
  #closed = false;
  #refused = 0;

  constructor(opts: MarketsLimiterOptions = {}) {
    this.perMinute = opts.perMinute ?? 120;
    this.windowMs = opts.windowMs ?? 60_000;
    if (!Number.isInteger(this.perMinute) || this.perMinute < 1) {
      throw new RangeError(`marketRateLimit.perMinute must be a whole number of at least 1 (got ${this.perMinute}).`);
    }
    const share = opts.backgroundShare ?? 0.25;
    if (!(share > 0 && share <= 1)) {
      throw new RangeError(`marketRateLimit.backgroundShare must be above 0 and at most 1 (got ${share}).`);
    }
    this.backgroundCapacity = Math.max(1, Math.floor(this.perMinute * share));
    this.#clock = opts.clock ?? systemClock;
  }

  /** Reads refused since the limiter was made (nothing sent for them). */
  get refused(): number {
    return this.#refused;
  }

  /** Reads waiting for a slot, both lanes. */
  get queued(): number {
    return this.#queue.length + this.#bgQueue.length;
  }

  /** Background reads waiting for a slot. */
  get backgroundQueued(): number {
    return this.#bgQueue.length;
  }

  get hasTimer(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Estimated milliseconds until a read asked for now would be sent (0 when a slot is free). A lower bound:
   * a read still waiting for its answer frees its slot a window after the answer, not after the send.
   */
  estimateWaitMs(opts: { front?: boolean | undefined; lane?: ReadLane | undefined } = {}): number {
    const now = this.#clock.now();
    this.#expire(now);
    const { limitAt, shareAt } = this.#freeAt(now, opts.lane === 'background', opts.front === true);
    return Math.max(0, Math.max(limitAt, shareAt, this.#pausedUntil) - now);
  }

  /** When the card limit, and for a background read its share, would first let a read asked for now go. */
  #freeAt(now: number, background: boolean, front: boolean): { limitAt: number; shareAt: number } {
    // Interactive reads queued are always ahead of a background read; background ones unless it is a retry.
    const ahead = background ? this.#queue.length + (front ? 0 : this.#bgQueue.length) : front ? 0 : this.#queue.length;
    const limitAt = this.#slotAt(now, [this.#sent, this.#settled], this.perMinute, ahead);
    const shareAt = background
      ? this.#slotAt(now, [this.#bgSent, this.#bgSettled], this.backgroundCapacity, front ? 0 : this.#bgQueue.length)
      : now;
    return { limitAt, shareAt };
  }

  /** When a slot of `capacity` frees for one more read behind `ahead` others, given the counted grant times. */
  #slotAt(now: number, counted: [number[], number[]], capacity: number, ahead: number): number {
    // Slots that must free before this read goes: everyone counted plus everyone ahead, beyond the limit.
    const need = counted[0].length + counted[1].length + ahead + 1 - capacity;
    if (need <= 0) return now;
    const times = [...counted[0], ...counted[1]].sort((a, b) => a - b);
    if (times.length === 0) return now;
    const i = need - 1;
    // Past a full window of reads, each later window frees the same slots again.
    return times[i % times.length]! + this.windowMs * (Math.floor(i / times.length) + 1);
  }

  /**
   * Resolves with a grant (its send time) when a request may be sent; pass it to settle() once the answer is in.
   * Rejects with CardLimitError when maxQueueMs is set and the estimated wait is longer, with the signal's reason
   * when aborted, and with ClientClosedError when the client closes. A background read (`lane: 'background'`)
   * resolves only while no interactive read is queued and within backgroundCapacity.
   */
  acquire(opts: AdmissionOptions = {}): Promise<number> {
    if (this.#closed) return Promise.reject(new ClientClosedError('GET /v3/markets'));
    if (opts.signal?.aborted) return Promise.reject(opts.signal.reason);
    const lane = opts.lane;
    if (lane !== undefined && lane !== 'interactive' && lane !== 'background') {
      return Promise.reject(
        new RangeError(`GET /v3/markets: lane must be 'interactive' or 'background' (got ${String(lane)}).`),
      );
    }
    const background = lane === 'background';
    // The common case takes no closure and no timer: nobody waiting, a free slot, no pause.
    if (this.#queue.length === 0 && (!background || this.#bgQueue.length === 0)) {
      const now = this.#clock.now();
      this.#expire(now);
      if (now >= this.#pausedUntil && this.#used() < this.perMinute) {
        if (!background) {
          this.#sent.push(now);
          return Promise.resolve(now);
        }
        if (this.#bgUsed() < this.backgroundCapacity) return Promise.resolve(this.#grantBackground(now));
      }
    }
    const now = this.#clock.now();
    this.#expire(now);
    const { limitAt, shareAt } = this.#freeAt(now, background, opts.front === true);
    const estimatedWaitMs = Math.max(0, Math.max(limitAt, shareAt, this.#pausedUntil) - now);
    const maxQueueMs = opts.maxQueueMs;
    if (maxQueueMs !== undefined && estimatedWaitMs > maxQueueMs) {
      return Promise.reject(
        this.#refusal(
          estimatedWaitMs,
          `${shareAt > limitAt && shareAt >= this.#pausedUntil ? this.#shareUsed() : 'the next slot'} is about ${secs(estimatedWaitMs)} s away, longer than maxQueueMs ${maxQueueMs}`,
        ),
      );
    }
    const queue = background ? this.#bgQueue : this.#queue;
    const ahead = (background ? this.#queue.length : 0) + (opts.front ? 0 : queue.length);
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = { background, resolve, reject, cleanup: undefined };
      const cleanups: (() => void)[] = [];
      waiter.cleanup = () => {
        for (const c of cleanups) c();
      };
      const signal = opts.signal;
      if (signal) {
        const onAbort = () => {
          this.#remove(waiter);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        cleanups.push(() => signal.removeEventListener('abort', onAbort));
      }
      if (maxQueueMs !== undefined) {
        // The estimate is a lower bound (reads in flight free their slots later), so maxQueueMs also caps the
        // time actually spent queued: a read still waiting then is refused, nothing sent.
        const cap = this.#clock.setTimeout(() => {
          this.#drain();
          if (!queue.includes(waiter)) return;
          this.#remove(waiter);
          const wait = Math.max(1, this.estimateWaitMs(opts));
          reject(
            this.#refusal(
              wait,
              `the read waited its maxQueueMs ${maxQueueMs} and the next slot is still about ${secs(wait)} s away`,
            ),
          );
        }, maxQueueMs);
        cleanups.push(() => this.#clock.clearTimeout(cap));
      }
      if (opts.front) queue.unshift(waiter);
      else queue.push(waiter);
      opts.onQueued?.({ estimatedWaitMs, ahead });
      this.#drain();
    });
  }

  /**
   * Stops counting a grant as in flight (a background grant from the background's share too); undefined when that
   * background grant was not in flight. Equal send times are interchangeable in #sent, so removing any one is exact.
   */
  #unsend(grant: number): { background: boolean } | undefined {
    let sentAt = grant;
    const background = grant < 0;
    if (background) {
      const at = this.#bgInFlight.get(grant);
      if (at === undefined) return undefined;
      this.#bgInFlight.delete(grant);
      sentAt = at;
      const j = this.#bgSent.indexOf(at);
      if (j >= 0) this.#bgSent.splice(j, 1);
    }
    const i = this.#sent.indexOf(sentAt);
    if (i >= 0) this.#sent.splice(i, 1);
    return { background };
  }

  /** The answer to a granted request came back (or it failed): its slot now counts from this moment. */
  settle(grant: number): void {
    const now = this.#clock.now();
    const freed = this.#unsend(grant);
    if (!freed) return;
    if (freed.background) this.#bgSettled.push(now);
    this.#settled.push(now);
    // The slot moved later, so a queued caller's timer may now be early; it re-checks when it fires.
  }

  /**
   * Gives a grant back unused (nothing was sent: a shared budget across processes had no slot): it stops counting at
   * once, and the next queued read may go.
   */
  release(grant: number): void {
    if (!this.#unsend(grant)) return;
    this.#drain();
  }

  /** A refusal of a read this limiter admitted but something past it cannot send in time (counted in `refused`). */
  refuse(waitMs: number, why: string): CardLimitError {
    return this.#refusal(waitMs, why);
  }

  /** Holds every queued and future request until `ms` from now (a 429's Retry-After). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + Math.max(0, ms));
    this.#drain();
  }

  /** Rejects every queued read at once with ClientClosedError and clears the timer; later acquires reject too. */
  close(): void {
    this.#closed = true;
    this.#clearTimer();
    const waiting = [...this.#queue.splice(0), ...this.#bgQueue.splice(0)];
    for (const w of waiting) {
      w.cleanup?.();
      w.reject(new ClientClosedError('GET /v3/markets'));
    }
  }

  #refusal(waitMs: number, why: string): CardLimitError {
    this.#refused += 1;
    return new CardLimitError(
      `GET /v3/markets: the card limit (${this.perMinute} per ${Math.round(this.windowMs / 1000)} s) is reached; ${why}. Nothing was sent; try again in about ${secs(waitMs)} s.`,
      { retryAfterMs: waitMs, method: 'GET', path: '/v3/markets' },
    );
  }

  #shareUsed(): string {
    return `the background share (${this.backgroundCapacity} of ${this.perMinute} per ${Math.round(this.windowMs / 1000)} s) is used; its next slot`;
  }

  #grantBackground(now: number): number {
    const grant = this.#nextBgGrant--;
    this.#sent.push(now);
    this.#bgSent.push(now);
    this.#bgInFlight.set(grant, now);
    return grant;
  }

  #remove(waiter: Waiter): void {
    const queue = waiter.background ? this.#bgQueue : this.#queue;
    const i = queue.indexOf(waiter);
    if (i >= 0) queue.splice(i, 1);
    waiter.cleanup?.();
    this.#schedule(this.#clock.now());
  }

  #used(): number {
    return this.#sent.length + this.#settled.length;
  }

  #bgUsed(): number {
    return this.#bgSent.length + this.#bgSettled.length;
  }

  #expire(now: number): void {
    const edge = now - this.windowMs;
    while (this.#sent.length > 0 && this.#sent[0]! <= edge) this.#sent.shift();
    while (this.#settled.length > 0 && this.#settled[0]! <= edge) this.#settled.shift();
    while (this.#bgSent.length > 0 && this.#bgSent[0]! <= edge) this.#bgSent.shift();
    while (this.#bgSettled.length > 0 && this.#bgSettled[0]! <= edge) this.#bgSettled.shift();
  }

  #drain(): void {
    const now = this.#clock.now();
    this.#expire(now);
    while (this.#queue.length > 0 && now >= this.#pausedUntil && this.#used() < this.perMinute) {
      this.#sent.push(now);
      const w = this.#queue.shift()!;
      w.cleanup?.();
      w.resolve(now);
    }
    // Background reads only once no member is waiting, and within their share.
    while (
      this.#queue.length === 0 &&
      this.#bgQueue.length > 0 &&
      now >= this.#pausedUntil &&
      this.#used() < this.perMinute &&
      this.#bgUsed() < this.backgroundCapacity
    ) {
      const grant = this.#grantBackground(now);
      const w = this.#bgQueue.shift()!;
      w.cleanup?.();
      w.resolve(grant);
    }
    this.#schedule(now);
  }

  /** When the oldest of these counted grants leaves the window. */
  #oldest(sent: number[], settled: number[]): number {
    const a = sent[0] ?? Number.POSITIVE_INFINITY;
    const b = settled[0] ?? Number.POSITIVE_INFINITY;
    return Math.min(a, b);
  }

  #schedule(now: number): void {
    if (this.#queue.length === 0 && this.#bgQueue.length === 0) {
      this.#clearTimer();
      return;
    }
    let freeAt = this.#used() >= this.perMinute ? this.#oldest(this.#sent, this.#settled) + this.windowMs : now;
    if (this.#queue.length === 0 && this.#bgUsed() >= this.backgroundCapacity) {
      freeAt = Math.max(freeAt, this.#oldest(this.#bgSent, this.#bgSettled) + this.windowMs);
    }
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
