/** Status, headers and request id of the HTTP response behind a call (see `.withResponse()`). */
export interface ResponseInfo {
  /** HTTP status, e.g. 200 or 202. */
  readonly status: number;
  /** Response headers, lower-case names; repeated headers joined with ", ". The API key never appears. */
  readonly headers: Readonly<Record<string, string>>;
  /** The gateway's request id (`x-request-id`), when it sent one. */
  readonly requestId: string | undefined;
}

/** Executor of the unused base promise; one shared function, no closure per call. */
const settleUnused = (resolve: (value: never) => void): void => resolve(undefined as never);

/** A call's parsed data together with the response it came from. */
export interface WithResponse<T> {
  readonly data: T;
  readonly response: ResponseInfo;
}

/**
 * What every client method returns: a promise of the parsed data, plus `.withResponse()` for the status, headers
 * and request id. The request is sent when the method is called, whether or not either is awaited.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #raw: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(raw: Promise<WithResponse<T>>) {
    // The base promise is never used: then/catch/finally read the data from `raw`.
    super(settleUnused);
    this.#raw = raw;
  }

  // Promise methods (then, Promise.all, ...) build plain promises, not APIPromises.
  static override get [Symbol.species]() {
    return Promise;
  }

  /** A failed call, as an APIPromise (so a refused request still rejects instead of throwing synchronously). */
  static override reject<T = never>(err: unknown): APIPromise<T> {
    return new APIPromise<T>(Promise.reject(err));
  }

  /** The data and the response (status, headers, request id). */
  withResponse(): Promise<WithResponse<T>> {
    return this.#raw;
  }

  /** The data mapped by `fn`, keeping the response (used to wrap 202 envelopes in job handles). */
  map<U>(fn: (data: T, response: ResponseInfo) => U): APIPromise<U> {
    return new APIPromise<U>(this.#raw.then((r) => ({ data: fn(r.data, r.response), response: r.response })));
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#raw.then((r) => r.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a promise; then() reads the data from `raw`.
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#parsed().then(onfulfilled, onrejected);
  }

  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#parsed().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }
}
