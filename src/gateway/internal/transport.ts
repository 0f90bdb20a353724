import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { APIPromise, type ResponseInfo, type WithResponse } from '../api-promise.js';
import { errorFromResponse } from '../error-map.js';
import {
  ClientClosedError,
  GatewayError,
  NetworkError,
  RateLimitError,
  RequestTimeoutError,
  RequestValidationError,
  ResponseTooLargeError,
  ServerError,
  ServiceUnavailableError,
} from '../errors.js';
import type { AdmissionOptions } from '../markets-limiter.js';
import type { RequestOptions } from '../request-options.js';
import { Deadline, DeadlineClock } from './deadline.js';
import { redact, redactUrl } from './redact.js';
import { backoffMs, parseRetryAfter } from './retry-after.js';
import { util } from './undici.js';
import { parseResponse } from './validate.js';

export type QueryValue = string | number | boolean | undefined | null;

/** A gate a request passes before each attempt (the markets limiter). */
export interface RequestGate {
  /** Resolves with a grant when the attempt may be sent. */
  acquire(opts?: AdmissionOptions): Promise<number>;
  /** The attempt's answer came back (or it failed): the gate counts it from now on. */
  settle(grant: number): void;
  pause(ms: number): void;
}

export interface RequestSpec<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  schema: S;
  /**
   * True only for calls that change nothing: they are retried with backoff. State-changing calls are never
   * retried once the request may have reached the server (a duplicate bet costs real money).
   */
  idempotent: boolean;
  gate?: RequestGate | undefined;
  /** How long this call may queue at the gate, and whom to tell when it does. */
  admission?: Omit<AdmissionOptions, 'front' | 'signal'> | undefined;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  dispatcher: Dispatcher;
  /** Default deadline of a whole call (attempts and waits between them). */
  timeoutMs: number;
  maxReadRetries: number;
  /** Longest Retry-After (429/503) the client waits out; a longer one surfaces at once. */
  maxRetryAfterMs: number;
  /** Largest answer body read, in bytes; a larger one is cut off with ResponseTooLargeError. */
  maxResponseBytes: number;
  sandbox: boolean;
  /** How often one request may wait out a 429 behind a gate before the error surfaces. */
  maxRateLimitWaits?: number;
  sleep?: (ms: number) => Promise<void>;
  userAgent?: string;
  /** Told once per route when the gateway marks it deprecated (Deprecation/Sunset headers). */
  onDeprecation?: (notice: DeprecationNotice) => void;
}

export interface DeprecationNotice {
  method: string;
  path: string;
  sunset: string | undefined;
  successor: string | undefined;
}

const header = (h: IncomingHttpHeaders, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Failures a read may retry: the gateway never saw it, or answered in a way that says "later". */
const retryable = (err: unknown) =>
  err instanceof NetworkError || err instanceof RateLimitError || err instanceof ServerError;

const NO_OPTIONS: RequestOptions = Object.freeze({});
const FRONT: AdmissionOptions = { front: true };
const BACK: AdmissionOptions = {};

/** Codes that prove no byte of the request left this process. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Data plus the raw response; the public ResponseInfo (headers copied and redacted) is built only when asked. */
class Answer<T> implements WithResponse<T> {
  readonly data: T;
  readonly #status: number;
  readonly #headers: IncomingHttpHeaders;
  readonly #clean: (h: IncomingHttpHeaders) => Record<string, string>;
  #info: ResponseInfo | undefined;

  constructor(
    data: T,
    status: number,
    headers: IncomingHttpHeaders,
    clean: (h: IncomingHttpHeaders) => Record<string, string>,
  ) {
    this.data = data;
    this.#status = status;
    this.#headers = headers;
    this.#clean = clean;
  }

  get response(): ResponseInfo {
    if (!this.#info) {
      const headers = this.#clean(this.#headers);
      this.#info = { status: this.#status, headers, requestId: headers['x-request-id'] };
    }
    return this.#info;
  }
}

/** The one HTTP path of the client: auth header, deadline, error mapping, read retries, response parsing. */
export class Transport {
  /** The base URL as it may be printed: any `user:password@` in it masked. */
  readonly baseUrl: string;
  /** The API key and the base URL's user name and password: masked in everything handed out. */
  readonly #secrets: readonly string[];
  readonly #opts: Omit<TransportOptions, 'apiKey'>;
  #closed = false;
  readonly #deprecationsSeen = new Set<string>();
  /** Built once: the same on every request (copied only when a body or per-call headers add to it). */
  readonly #headers: Readonly<Record<string, string>>;
  /** Attempts in flight and calls waiting to retry: close() ends them at once. */
  readonly #inflight = new Set<Deadline>();
  readonly #sleepers = new Set<(err: unknown) => void>();
  /** One timer for every attempt's deadline. */
  readonly #clock = new DeadlineClock();
  readonly #cleanHeaders = (h: IncomingHttpHeaders) => this.#redactHeaders(h);

  /** Scheme, host and port of baseUrl, and its path prefix ('' for none): what undici's dispatch takes. */
  readonly #origin: string;
  readonly #basePath: string;

  constructor(opts: TransportOptions) {
    const baseUrl = opts.baseUrl.replace(/\/+$/, '');
    const base = new URL(baseUrl);
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, '');
    const { apiKey, ...rest } = opts;
    const { shown, secrets } = redactUrl(baseUrl);
    this.baseUrl = shown;
    this.#secrets = [apiKey, ...secrets];
    rest.baseUrl = shown;
    // Keep the key in exactly one private slot, so no options object carrying it is ever reachable.
    this.#opts = rest;
    const headers: Record<string, string> = {
      'x-api-key': apiKey,
      accept: 'application/json',
      'user-agent': opts.userAgent ?? 'betting-gateway-client/0.2',
    };
    if (opts.sandbox) headers['x-service-sandbox'] = '1';
    this.#headers = headers;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Ends every attempt in flight and every wait before a retry at once, with ClientClosedError. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const d of this.#inflight) d.abort('closed', undefined);
    this.#inflight.clear();
    this.#clock.stop();
    for (const wake of this.#sleepers) wake(new ClientClosedError('A call waiting to retry'));
    this.#sleepers.clear();
  }

  /** Strips the API key (and the base URL's password) out of any value kept on an error or handed to a caller. */
  redact<T>(value: T): T {
    return redact(value, this.#secrets);
  }

  /** Sends one call; the returned APIPromise also gives `.withResponse()`. */
  call<S extends z.ZodType>(spec: RequestSpec<S>, call?: RequestOptions): APIPromise<z.output<S>> {
    return APIPromise.from(this.request(spec, call));
  }

  async request<S extends z.ZodType>(
    spec: RequestSpec<S>,
    call: RequestOptions = NO_OPTIONS,
  ): Promise<WithResponse<z.output<S>>> {
    const { method, path } = spec;
    if (this.#closed) throw new ClientClosedError(`${method} ${path}`);
    const signal = call.signal;
    if (signal?.aborted) throw signal.reason;
    const timeoutMs = call.timeoutMs ?? this.#opts.timeoutMs;
    if (!(timeoutMs > 0)) {
      throw new GatewayError(
        `${method} ${path}: timeoutMs must be a positive number of milliseconds (got ${timeoutMs}).`,
      );
    }
    const maxRetries = call.maxRetries ?? this.#opts.maxReadRetries;
    if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) {
      throw new GatewayError(`${method} ${path}: maxRetries must be a whole number of 0 or more (got ${maxRetries}).`);
    }
    // Set when the first attempt may go: waiting in the card-limit queue is bounded by maxQueueMs, not by this.
    let deadlineAt = spec.gate ? 0 : Date.now() + timeoutMs;
    const headers = this.#requestHeaders(spec.body !== undefined, call.headers, method, path);
    const payload =
      spec.body === undefined
        ? undefined
        : JSON.stringify(withExtra(spec.body, call.extraBody, method, path, 'extraBody'));
    const target = this.#target(
      path,
      call.extraQuery
        ? (withExtra(spec.query ?? {}, call.extraQuery, method, path, 'extraQuery') as Record<string, QueryValue>)
        : spec.query,
    );
    let attempt = 0;
    let rateLimitWaits = 0;
    let front = false;
    for (;;) {
      let grant = 0;
      if (spec.gate) {
        grant = await spec.gate.acquire(
          spec.admission || signal ? { ...spec.admission, front, signal } : front ? FRONT : BACK,
        );
        if (deadlineAt === 0) deadlineAt = Date.now() + timeoutMs;
      }
      attempt++;
      try {
        const out = await this.#once(spec, target, headers, payload, deadlineAt, timeoutMs, attempt, signal);
        spec.gate?.settle(grant);
        return out;
      } catch (err) {
        spec.gate?.settle(grant);
        const retryAfterMs =
          err instanceof RateLimitError || err instanceof ServiceUnavailableError ? err.retryAfterMs : undefined;
        // A Retry-After beyond the cap is the caller's to decide on: no hour-long sleep inside a call.
        if (retryAfterMs !== undefined && retryAfterMs > this.#opts.maxRetryAfterMs) throw err;
        // Behind a gate a 429 pauses the whole bucket and the GET goes again first in line.
        if (err instanceof RateLimitError && spec.gate && rateLimitWaits < (this.#opts.maxRateLimitWaits ?? 5)) {
          if (Date.now() + (retryAfterMs ?? 1_000) >= deadlineAt) throw err;
          rateLimitWaits++;
          attempt--;
          front = true;
          spec.gate.pause(retryAfterMs ?? 1_000);
          continue;
        }
        if (!spec.idempotent || attempt > maxRetries || !retryable(err)) throw err;
        const wait = retryAfterMs ?? backoffMs(attempt);
        // A retry that cannot finish inside the one deadline is not started.
        if (Date.now() + wait >= deadlineAt) throw err;
        await this.#sleep(wait, signal);
      }
    }
  }

  #requestHeaders(
    hasBody: boolean,
    extra: Readonly<Record<string, string>> | undefined,
    method: string,
    path: string,
  ): Readonly<Record<string, string>> {
    if (!hasBody && !extra) return this.#headers;
    const out: Record<string, string> = { ...this.#headers };
    if (hasBody) out['content-type'] = 'application/json';
    if (extra) {
      for (const [name, value] of Object.entries(extra)) {
        const lower = name.toLowerCase();
        if (lower === 'x-api-key') {
          throw new RequestValidationError(
            `${method} ${path}: headers cannot set x-api-key; the client sends its own key.`,
            {
              field: 'headers.x-api-key',
              issues: [{ field: 'headers.x-api-key', message: 'cannot be set per call' }],
            },
          );
        }
        out[lower] = value;
      }
    }
    return out;
  }

  /** Waits before a retry; the caller's signal and close() end the wait at once. */
  #sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        this.#sleepers.delete(wake);
        signal?.removeEventListener('abort', onAbort);
      };
      const wake = (err: unknown) => {
        cleanup();
        reject(err);
      };
      const onAbort = () => wake(signal?.reason);
      const done = () => {
        cleanup();
        resolve();
      };
      this.#sleepers.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.#opts.sleep) this.#opts.sleep(ms).then(done, wake);
      else timer = setTimeout(done, ms);
    });
  }

  /** Path and query string (after the origin) of a request. */
  #target(path: string, query: Record<string, QueryValue> | undefined): string {
    let qs = '';
    if (query) {
      for (const k in query) {
        const v = query[k];
        if (v === undefined || v === null) continue;
        qs += `${qs ? '&' : '?'}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
      }
    }
    return `${this.#basePath}${path}${qs}`;
  }

  async #once<S extends z.ZodType>(
    spec: RequestSpec<S>,
    target: string,
    headers: Readonly<Record<string, string>>,
    payload: string | undefined,
    deadlineAt: number,
    timeoutMs: number,
    attempt: number,
    signal: AbortSignal | undefined,
  ): Promise<WithResponse<z.output<S>>> {
    const { method, path } = spec;
    if (this.#closed) throw new ClientClosedError(`${method} ${path}`);
    const left = deadlineAt - Date.now();
    if (left <= 0) throw this.#timeoutError(method, path, timeoutMs, attempt - 1, false);
    // AbortSignal.timeout/AbortController cost about 10% of a card request here; see deadline.ts.
    const deadline = new Deadline(left, signal, this.#clock);
    this.#inflight.add(deadline);
    let status: number;
    let resHeaders: IncomingHttpHeaders;
    let text: string;
    try {
      // The whole body is always read (also on errors, or the connection stays pinned).
      ({
        status,
        headers: resHeaders,
        text,
      } = await exchange(
        this.#opts.dispatcher,
        { origin: this.#origin, path: target, method, headers, body: payload },
        deadline,
        this.#opts.maxResponseBytes,
        () => this.#tooLargeError(method, path),
      ));
    } catch (err) {
      throw this.#transportError(err, deadline, method, path, timeoutMs, attempt);
    } finally {
      deadline.clear();
      this.#inflight.delete(deadline);
    }
    this.#noticeDeprecation(method, path, resHeaders);
    const data = parseJson(text);
    if (status < 200 || status >= 300) {
      const body = this.redact(data);
      const cleanHeaders = this.#redactHeaders(resHeaders);
      throw errorFromResponse({
        status,
        body,
        method,
        path,
        correlationId: correlationIdOf(body, cleanHeaders),
        retryAfterMs: parseRetryAfter(resHeaders['retry-after']),
        headers: cleanHeaders,
        requestId: cleanHeaders['x-request-id'],
      });
    }
    const parsed = parseResponse(
      spec.schema,
      data,
      { method, path, status },
      (body) => this.redact(body),
      () => this.#redactHeaders(resHeaders),
    );
    return new Answer(parsed, status, resHeaders, this.#cleanHeaders);
  }

  #redactHeaders(h: IncomingHttpHeaders): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name in h) {
      const v = h[name];
      if (v === undefined) continue;
      out[name] = this.redact(Array.isArray(v) ? v.join(', ') : v);
    }
    return out;
  }

  /** Once per route, never per response: a warning on every call would drown the logs. */
  #noticeDeprecation(method: string, path: string, headers: IncomingHttpHeaders): void {
    if (header(headers, 'deprecation') === undefined) return;
    const route = `${method} ${path}`;
    if (this.#deprecationsSeen.has(route)) return;
    this.#deprecationsSeen.add(route);
    const successor = /<([^>]+)>\s*;\s*rel="?successor-version"?/.exec(header(headers, 'link') ?? '')?.[1];
    const notice = { method, path, sunset: header(headers, 'sunset'), successor };
    if (this.#opts.onDeprecation) this.#opts.onDeprecation(notice);
    else {
      process.emitWarning(
        `${route} is deprecated by the gateway${notice.sunset ? ` (sunset ${notice.sunset})` : ''}${successor ? `; use ${successor}` : ''}.`,
        { code: 'GATEWAY_DEPRECATED_ROUTE' },
      );
    }
  }

  #tooLargeError(method: string, path: string): ResponseTooLargeError {
    const limit = this.#opts.maxResponseBytes;
    return new ResponseTooLargeError(
      `${method} ${path}: the answer is larger than maxResponseBytes (${limit} bytes), so the client stopped reading it and closed the connection. The request did reach the gateway: for a state-changing call check its result before sending it again. If answers this large are expected, raise the limit: new GatewayClient({ ..., maxResponseBytes: ${limit * 2} }).`,
      { method, path, limitBytes: limit },
    );
  }

  #timeoutError(method: string, path: string, timeoutMs: number, attempts: number, mayHaveReachedServer: boolean) {
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
    return new RequestTimeoutError(
      `${method} ${path} did not finish within its deadline of ${timeoutMs} ms (one deadline for the whole call: ${tries} and the waits between them).${mayHaveReachedServer ? ' The request may have reached the gateway: for a state-changing call check its result (re-poll) before sending it again.' : ''}`,
      { method, path, timeoutMs, mayHaveReachedServer },
    );
  }

  #transportError(
    err: unknown,
    deadline: Deadline,
    method: string,
    path: string,
    timeoutMs: number,
    attempt: number,
  ): unknown {
    if (err instanceof GatewayError) return err;
    if (deadline.aborted) {
      if (deadline.cause === 'aborted') return deadline.reason;
      if (deadline.cause === 'closed')
        return new ClientClosedError(`${method} ${path}`, { method, path, mayHaveReachedServer: true });
      return this.#timeoutError(method, path, timeoutMs, attempt, true);
    }
    const code = this.redact(errorCode(err));
    const notSent = code !== undefined && NOT_SENT_CODES.has(code);
    const detail = this.redact(err instanceof Error ? err.message : String(err));
    return new NetworkError(
      notSent
        ? `${method} ${path} could not connect to ${this.baseUrl} (${code}). Nothing was sent; check baseUrl and that the gateway is running.`
        : `${method} ${path} lost its connection (${code ?? detail}). The request may have reached the gateway: for a state-changing call check its result before sending it again.`,
      {
        method,
        path,
        code,
        mayHaveReachedServer: !notSent,
        cause: { name: this.redact((err as Error)?.name), code, message: detail },
      },
    );
  }
}

interface Exchanged {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One HTTP exchange through undici's dispatch API, the body collected as text. undici's `request` would wrap the
 * body in a stream and wire the abort signal through listeners; the client always reads the whole body, and this
 * handler costs about 8% less per card read. The deadline aborts the exchange at any point, as a signal would.
 */
function exchange(
  dispatcher: Dispatcher,
  opts: Dispatcher.DispatchOptions,
  deadline: Deadline,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    const handler = new ExchangeHandler(resolve, reject, deadline, maxBytes, tooLarge);
    try {
      dispatcher.dispatch(opts, handler);
    } catch (err) {
      handler.onError(err as Error);
    }
  });
}

/**
 * undici's classic handler interface (the one its own `request` uses), so every dispatcher accepts it. It settles
 * its promise exactly once on every path: an answer over maxBytes (declared or streamed) is cut off at once, the
 * connection destroyed, and nothing thrown here is left for undici to swallow.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  readonly #chunks: Buffer[] = [];
  #length = 0;
  #abort: ((err: Error) => void) | undefined;
  #done = false;

  constructor(
    private readonly resolve: (value: Exchanged) => void,
    private readonly reject: (err: unknown) => void,
    private readonly deadline: Deadline,
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {
    deadline.on('abort', () => this.#abort?.(abortError(deadline)));
  }

  onConnect(abort: (err?: Error) => void): void {
    // Aborted before the request went out: undici's `request` refuses it here in the same way.
    if (this.deadline.aborted) abort(abortError(this.deadline));
    else this.#abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true; // 1xx: informational, the real answer follows
    this.#status = statusCode;
    this.#headers = util.parseHeaders(rawHeaders) as IncomingHttpHeaders;
    // A declared length over the limit is refused before a byte of the body is read.
    if (Number(header(this.#headers, 'content-length')) > this.maxBytes) return this.#cutOff();
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#done) return false;
    this.#length += chunk.length;
    if (this.#length > this.maxBytes) return this.#cutOff();
    this.#chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.#done) return;
    let text: string;
    try {
      text = utf8(this.#chunks, this.#length);
    } catch {
      // Beyond what one string can hold: undici would swallow a throw from here and the call would never settle.
      this.onError(this.tooLarge());
      return;
    }
    this.#done = true;
    this.#abort = undefined;
    this.resolve({ status: this.#status, headers: this.#headers, text });
  }

  /** Stops reading: the call fails with the size error and the connection is destroyed (never reused half-read). */
  #cutOff(): false {
    const err = this.tooLarge();
    const abort = this.#abort;
    this.#chunks.length = 0;
    this.onError(err);
    abort?.(err);
    return false;
  }

  onError(err: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#abort = undefined;
    this.reject(err);
  }
}

function abortError(deadline: Deadline): Error {
  return deadline.reason instanceof Error ? deadline.reason : new Error('The request was aborted.');
}

/** The body as UTF-8 text, a leading byte-order mark skipped (as undici's `body.text()` does). */
function utf8(chunks: Buffer[], length: number): string {
  if (length === 0) return '';
  const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  const start = buf.length > 2 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  return buf.toString('utf8', start);
}

/** Adds escape-hatch fields to a validated body or query; a field the library already types is refused. */
function withExtra(
  base: unknown,
  extra: Readonly<Record<string, unknown>> | undefined,
  method: string,
  path: string,
  option: string,
): unknown {
  if (!extra) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(extra)) {
    if (k in out) {
      throw new RequestValidationError(
        `${method} ${path}: ${option}.${k} is already a typed field of this request; set it there instead.`,
        { field: `${option}.${k}`, issues: [{ field: `${option}.${k}`, message: 'is a typed field' }] },
      );
    }
    out[k] = v;
  }
  return out;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The most specific error code: undici's generic UND_ERR_SOCKET wraps the OS code (ECONNRESET...) in its cause. */
function errorCode(err: unknown): string | undefined {
  let found: string | undefined;
  let cur: unknown = err;
  for (let depth = 0; depth < 4 && cur !== null && typeof cur === 'object'; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') {
      found = code;
      if (code !== 'UND_ERR_SOCKET') return code;
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return found;
}

function correlationIdOf(body: unknown, headers: Record<string, string>): string | undefined {
  const fromBody = body && typeof body === 'object' ? (body as Record<string, unknown>).correlation_id : undefined;
  if (typeof fromBody === 'string') return fromBody;
  return headers['bet-correlation-id'] ?? headers['x-correlation-id'] ?? headers['x-request-id'];
}
