/**
 * A per-request deadline that undici accepts as its `signal` (it takes any emitter with once/removeListener).
 * Cheaper than AbortController: no EventTarget, one listener slot, the timer cleared as soon as the answer is read.
 */
export class Deadline {
  aborted = false;
  reason: Error | undefined;
  #listener: (() => void) | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.#timer = setTimeout(fire, ms, this);
    // A pending deadline alone must not keep the process alive; the socket does while the request runs.
    this.#timer.unref();
  }

  /** Called by the timer: marks the deadline passed and tells undici to abort. */
  expire(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('The request deadline passed.', 'TimeoutError');
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.();
  }

  /** The request finished: no timer left behind. */
  clear(): void {
    clearTimeout(this.#timer);
    this.#listener = undefined;
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
