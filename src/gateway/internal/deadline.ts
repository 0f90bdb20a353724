/** Why a request's signal fired: its deadline passed, the caller's signal aborted, or the client closed. */
export type AbortCause = 'timeout' | 'aborted' | 'closed';

/**
 * A per-attempt abort signal that undici accepts as its `signal` (it takes any emitter with once/removeListener).
 * Cheaper than AbortController: no EventTarget, one listener slot, no timer of its own when a DeadlineClock keeps time.
 * It fires when the call's deadline passes, when the caller's AbortSignal aborts, or when the client closes.
 */
export class Deadline {
  aborted = false;
  reason: unknown;
  cause: AbortCause | undefined;
  /** When it passes (Date.now() milliseconds). */
  readonly at: number;
  #listener: (() => void) | undefined;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #clock: DeadlineClock | undefined;
  #signal: AbortSignal | undefined;
  #onSignal: (() => void) | undefined;

  /** With a clock, the clock's one timer stands for this deadline; without, it sets a timer of its own. */
  constructor(ms: number, signal?: AbortSignal, clock?: DeadlineClock) {
    this.at = Date.now() + ms;
    if (clock) {
      this.#clock = clock;
      clock.track(this);
    } else {
      this.#timer = setTimeout(fire, ms, this);
      // A pending deadline alone must not keep the process alive; the socket does while the request runs.
      this.#timer.unref();
    }
    if (signal) {
      this.#signal = signal;
      this.#onSignal = () => this.abort('aborted', signal.reason);
      signal.addEventListener('abort', this.#onSignal, { once: true });
    }
  }

  /** Called by the timer: marks the deadline passed and tells undici to abort. */
  expire(): void {
    this.abort('timeout', new DOMException('The request deadline passed.', 'TimeoutError'));
  }

  abort(cause: AbortCause, reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.cause = cause;
    this.reason = reason;
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.();
  }

  /** The request finished: no timer or listener left behind. */
  clear(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#clock?.forget(this);
    this.#listener = undefined;
    if (this.#signal && this.#onSignal) this.#signal.removeEventListener('abort', this.#onSignal);
    this.#signal = undefined;
    this.#onSignal = undefined;
  }

  // undici registers exactly one abort listener per request and removes it when the response closes.
  on(_event: 'abort', listener: () => void): this {
    this.#listener = listener;
    return this;
  }

  once(event: 'abort', listener: () => void): this {
    return this.on(event, listener);
  }

  addListener(event: 'abort', listener: () => void): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: () => void): this {
    if (this.#listener === listener) this.#listener = undefined;
    return this;
  }
}

function fire(deadline: Deadline): void {
  deadline.expire();
}

/**
 * One timer for all the deadlines of a transport, armed for the earliest. Calls share one timeoutMs, so a new
 * deadline is later than the armed one and a request sets and clears no timer of its own (a timer per request
 * cost about 2% of a card read). The timer is unref'd: deadlines alone never keep the process alive.
 */
export class DeadlineClock {
  readonly #pending = new Set<Deadline>();
  #timer: NodeJS.Timeout | undefined;
  #armedAt = Number.POSITIVE_INFINITY;

  /** Number of deadlines not yet cleared (for tests). */
  get size(): number {
    return this.#pending.size;
  }

  track(deadline: Deadline): void {
    this.#pending.add(deadline);
    if (deadline.at < this.#armedAt) this.#arm(deadline.at);
  }

  /** The deadline was cleared; the timer stays armed (a later sweep finds nothing), which costs nothing per call. */
  forget(deadline: Deadline): void {
    this.#pending.delete(deadline);
  }

  /** No timer left behind (the transport closed). */
  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
  }

  #arm(at: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#armedAt = at;
    // At least 1 ms: a timer may fire a moment before Date.now() reaches `at`; the sweep then re-arms.
    this.#timer = setTimeout(sweep, Math.max(1, at - Date.now()), this);
    this.#timer.unref();
  }

  /** Expires every deadline that has passed and re-arms for the earliest one left. */
  sweep(): void {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const d of this.#pending) {
      if (d.at <= now) {
        this.#pending.delete(d);
        d.expire();
      } else if (d.at < next) next = d.at;
    }
    if (next < this.#armedAt) this.#arm(next);
  }
}

function sweep(clock: DeadlineClock): void {
  clock.sweep();
}
