/** Why a request's signal fired: its deadline passed, the caller's signal aborted, or the client closed. */
export type AbortCause = 'timeout' | 'aborted' | 'closed';

/**
 * A per-attempt abort signal that undici accepts as its `signal` (it takes any emitter with once/removeListener).
 * Cheaper than AbortController: no EventTarget, one listener slot, the timer cleared as soon as the answer is read.
 * It fires when the call's deadline passes, when the caller's AbortSignal aborts, or when the client closes.
 */
export class Deadline {
  aborted = false;
  reason: unknown;
  cause: AbortCause | undefined;
  #listener: (() => void) | undefined;
  readonly #timer: NodeJS.Timeout;
  #signal: AbortSignal | undefined;
  #onSignal: (() => void) | undefined;

  constructor(ms: number, signal?: AbortSignal) {
    this.#timer = setTimeout(fire, ms, this);
    // A pending deadline alone must not keep the process alive; the socket does while the request runs.
    this.#timer.unref();
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
    clearTimeout(this.#timer);
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
