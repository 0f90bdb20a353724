import type { EventEmitter } from 'node:events';
import { type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { Deadline } from './deadline.js';
import { errorFromResponse } from './error-map.js';
import { GatewayError, NetworkError, RateLimitError, RequestTimeoutError, ServerError } from './errors.js';
import type { AdmissionOptions } from './markets-limiter.js';
import { redact } from './redact.js';
import { backoffMs, parseRetryAfter } from './retry-after.js';
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
  admission?: Omit<AdmissionOptions, 'front'> | undefined;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  maxReadRetries: number;
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

const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Failures a read may retry: the gateway never saw it, or answered in a way that says "later". */
const retryable = (err: unknown) =>
  err instanceof NetworkError ||
  err instanceof RequestTimeoutError ||
  err instanceof RateLimitError ||
  err instanceof ServerError;

/** Codes that prove no byte of the request left this process. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The one HTTP path of the client: auth header, deadline, error mapping, read retries, response parsing. */
export class Transport {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #opts: Omit<TransportOptions, 'apiKey'>;
  readonly #sleep: (ms: number) => Promise<void>;
  #closed = false;
  readonly #deprecationsSeen = new Set<string>();
  /** Built once: the same on every request (copied only when a body adds content-type). */
  readonly #headers: Readonly<Record<string, string>>;

  constructor(opts: TransportOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    const { apiKey, ...rest } = opts;
    this.#apiKey = apiKey;
    // Keep the key in exactly one private slot, so no options object carrying it is ever reachable.
    this.#opts = rest;
    this.#sleep = opts.sleep ?? defaultSleep;
    const headers: Record<string, string> = {
      'x-api-key': apiKey,
      accept: 'application/json',
      'user-agent': opts.userAgent ?? 'syndicate-desk-gateway/0.1',
    };
    if (opts.sandbox) headers['x-service-sandbox'] = '1';
    this.#headers = headers;
  }

  close(): void {
    this.#closed = true;
  }

  async request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    let attempt = 0;
    let rateLimitWaits = 0;
    let front = false;
    for (;;) {
      if (this.#closed) throw new GatewayError('The gateway client is closed: create a new GatewayClient.');
      const grant = spec.gate ? await spec.gate.acquire(spec.admission ? { ...spec.admission, front } : { front }) : 0;
      attempt++;
      try {
        const out = await this.#once(spec);
        spec.gate?.settle(grant);
        return out;
      } catch (err) {
        spec.gate?.settle(grant);
        // Behind a gate a 429 pauses the whole bucket and the GET goes again first in line.
        if (err instanceof RateLimitError && spec.gate && rateLimitWaits < (this.#opts.maxRateLimitWaits ?? 5)) {
          rateLimitWaits++;
          attempt--;
          front = true;
          spec.gate.pause(err.retryAfterMs ?? 1_000);
          continue;
        }
        if (!spec.idempotent || attempt > this.#opts.maxReadRetries || !retryable(err)) throw err;
        const wait =
          err instanceof RateLimitError && err.retryAfterMs !== undefined ? err.retryAfterMs : backoffMs(attempt);
        await this.#sleep(wait);
      }
    }
  }

  #url(path: string, query: Record<string, QueryValue> | undefined): string {
    let qs = '';
    if (query) {
      for (const k in query) {
        const v = query[k];
        if (v === undefined || v === null) continue;
        qs += `${qs ? '&' : '?'}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
      }
    }
    return `${this.baseUrl}${path}${qs}`;
  }

  async #once<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const { method, path } = spec;
    let headers = this.#headers;
    let payload: string | undefined;
    if (spec.body !== undefined) {
      payload = JSON.stringify(spec.body);
      headers = { ...headers, 'content-type': 'application/json' };
    }
    // AbortSignal.timeout/AbortController cost about 10% of a card request here; see deadline.ts.
    const deadline = new Deadline(this.#opts.timeoutMs);
    let status: number;
    let resHeaders: Record<string, string | string[] | undefined>;
    let text: string;
    try {
      const res = await request(this.#url(path, spec.query), {
        dispatcher: this.#opts.dispatcher,
        method,
        headers,
        body: payload,
        signal: deadline as unknown as EventEmitter,
      });
      status = res.statusCode;
      resHeaders = res.headers;
      // Always read the body, also on errors, or the connection stays pinned.
      text = await res.body.text();
    } catch (err) {
      throw this.#transportError(err, deadline, method, path);
    } finally {
      deadline.clear();
    }
    this.#noticeDeprecation(method, path, resHeaders);
    const data = parseJson(text);
    if (status < 200 || status >= 300) {
      const body = redact(data, this.#apiKey);
      throw errorFromResponse({
        status,
        body,
        method,
        path,
        correlationId: correlationIdOf(body, resHeaders),
        retryAfterMs: parseRetryAfter(resHeaders['retry-after']),
      });
    }
    return parseResponse(spec.schema, data, { method, path, status }, (body) => redact(body, this.#apiKey));
  }

  /** Once per route, never per response: a warning on every call would drown the logs. */
  #noticeDeprecation(method: string, path: string, headers: Record<string, string | string[] | undefined>): void {
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

  #transportError(err: unknown, signal: { aborted: boolean }, method: string, path: string): GatewayError {
    if (err instanceof GatewayError) return err;
    const timeoutMs = this.#opts.timeoutMs;
    if (signal.aborted) {
      return new RequestTimeoutError(
        `${method} ${path} got no answer within ${timeoutMs} ms. The request may have reached the gateway: for a state-changing call check its result (re-poll) before sending it again.`,
        { method, path, timeoutMs, mayHaveReachedServer: true },
      );
    }
    const code = errorCode(err);
    const notSent = code !== undefined && NOT_SENT_CODES.has(code);
    const detail = redact(err instanceof Error ? err.message : String(err), this.#apiKey);
    return new NetworkError(
      notSent
        ? `${method} ${path} could not connect to ${this.baseUrl} (${code}). Nothing was sent; check baseUrl and that the gateway is running.`
        : `${method} ${path} lost its connection (${code ?? detail}). The request may have reached the gateway: for a state-changing call check its result before sending it again.`,
      {
        method,
        path,
        code,
        mayHaveReachedServer: !notSent,
        cause: { name: (err as Error)?.name, code, message: detail },
      },
    );
  }
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

function correlationIdOf(body: unknown, headers: Record<string, string | string[] | undefined>): string | undefined {
  const fromBody = body && typeof body === 'object' ? (body as Record<string, unknown>).correlation_id : undefined;
  if (typeof fromBody === 'string') return fromBody;
  for (const name of ['bet-correlation-id', 'x-correlation-id', 'x-request-id']) {
    const v = headers[name];
    if (typeof v === 'string') return v;
  }
  return undefined;
}
