/** Status, headers and request id of the HTTP response behind a call (see `.withResponse()`). */
export interface ResponseInfo {
  /** HTTP status, e.g. 200 or 202. */
  readonly status: number;
  /** Response headers, lower-case names; repeated headers joined with ", ". The API key never appears. */
  readonly headers: Readonly<Record<string, string>>;
  /** The gateway's request id (`x-request-id`), when it sent one. */
  readonly requestId: string | undefined;
}

/** A call's parsed data together with the response it came from. */
export interface WithResponse<T> {
  readonly data: T;
  readonly response: ResponseInfo;
}

/**
 * What every client method returns: a native promise of the parsed data, plus `.withResponse()` for the status,
 * headers and request id. The request is sent when the method is called, whether or not either is awaited.
 */
export interface APIPromise<T> extends Promise<T> {
  /** The data and the response (status, headers, request id). */
  withResponse(): Promise<WithResponse<T>>;
  /** The data mapped by `fn`, keeping the response (used to wrap 202 envelopes in job handles). */
  map<U>(fn: (data: T, response: ResponseInfo) => U): APIPromise<U>;
}

const RAW = Symbol('response');
type Tagged<T> = APIPromise<T> & { [RAW]: Promise<WithResponse<T>> };

const noop = () => {};
const dataOf = <T>(r: WithResponse<T>): T => r.data;

// Shared functions rather than closures: a call allocates one promise and three slots, nothing more. A native
// promise (not a subclass) keeps `await` on V8's fast path.
function withResponse<T>(this: Tagged<T>): Promise<WithResponse<T>> {
  // The caller reads the raw side: the data side's rejection is the same error, already handled there.
  this.catch(noop);
  return this[RAW];
}

function map<T, U>(this: Tagged<T>, fn: (data: T, response: ResponseInfo) => U): APIPromise<U> {
  this.catch(noop);
  return APIPromise.from(this[RAW].then((r) => ({ data: fn(r.data, r.response), response: r.response })));
}

export const APIPromise = {
  /** Wraps a call's raw answer: the promise resolves to its data, `.withResponse()` to data and response. */
  from<T>(raw: Promise<WithResponse<T>>): APIPromise<T> {
    const p = raw.then(dataOf) as Tagged<T>;
    p[RAW] = raw;
    p.withResponse = withResponse;
    p.map = map;
    return p;
  },
  /** A failed call, as an APIPromise (so a refused request still rejects instead of throwing synchronously). */
  reject<T = never>(err: unknown): APIPromise<T> {
    return APIPromise.from<T>(Promise.reject(err));
  },
};
