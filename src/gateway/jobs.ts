import type { z } from 'zod';
import { GatewayError } from './errors.js';
import type { AsyncEnvelope, PollEntry } from './schemas/jobs.js';
import type { WebhookBody } from './schemas/webhooks.js';
import { parseResponse } from './validate.js';

export type JobOutcome<T = unknown> =
  | { status: 'completed'; result: T; entry: PollEntry }
  | { status: 'timeout' | 'unknown'; entry: PollEntry };

export interface JobHandle<T = unknown> {
  readonly envelope: AsyncEnvelope;
  readonly correlationId: string;
  /** Registers the job with the client's one poller and resolves when it leaves pending (or passes timeout_at). */
  wait(opts?: { signal?: AbortSignal }): Promise<JobOutcome<T>>;
}

export interface PollerOptions {
  /** Cadence of the batched bet_status call; the spec asks for 1 to 3 s. */
  intervalMs?: number;
  /** Most correlation ids per bet_status request. */
  maxBatch?: number;
  /** Told about failed poll requests; the jobs stay pending and the next tick retries. */
  onError?: (err: unknown) => void;
  now?: () => number;
}

type AnySchema = z.ZodType;

interface Tracked {
  id: string;
  envelope: AsyncEnvelope;
  timeoutAtMs: number | undefined;
  schema: AnySchema | undefined;
  promise: Promise<JobOutcome>;
  resolve: (o: JobOutcome) => void;
  reject: (e: unknown) => void;
}

const RECENT_LIMIT = 2_000;

/**
 * One poller per client: every pending correlation id goes into one POST /api/bet_status per tick, on a single
 * timer that exists only while something is pending. timeout/unknown are reported, never resubmitted.
 */
export class JobTracker {
  readonly #fetch: (ids: string[]) => Promise<PollEntry[]>;
  readonly #intervalMs: number;
  readonly #maxBatch: number;
  readonly #onError: ((err: unknown) => void) | undefined;
  readonly #now: () => number;
  readonly #jobs = new Map<string, Tracked>();
  /** Outcomes that arrived (by webhook or fast path) before anyone waited; bounded. */
  readonly #recent = new Map<string, JobOutcome>();
  #timer: NodeJS.Timeout | undefined;
  /** When the next batched poll is due; undefined while idle. */
  #pollDueAt: number | undefined;
  #ticking = false;
  #closed = false;

  constructor(fetchStatuses: (ids: string[]) => Promise<PollEntry[]>, opts: PollerOptions = {}) {
    const interval = opts.intervalMs ?? 1_500;
    if (!Number.isFinite(interval) || interval <= 0) {
      throw new GatewayError(
        `poller.intervalMs must be a positive number of milliseconds (got ${interval}); the spec asks for 1000 to 3000.`,
      );
    }
    this.#fetch = fetchStatuses;
    this.#intervalMs = interval;
    this.#maxBatch = opts.maxBatch ?? 1_000;
    this.#onError = opts.onError;
    this.#now = opts.now ?? Date.now;
  }

  /** Number of jobs the poller is currently waiting on. */
  get pendingCount(): number {
    return this.#jobs.size;
  }

  /** True while a poll timer exists (it is cleared whenever nothing is pending). */
  get hasTimer(): boolean {
    return this.#timer !== undefined;
  }

  /** A handle over a 202 envelope; polling starts on the first wait(). */
  handle<T>(envelope: AsyncEnvelope, schema?: z.ZodType<T>): JobHandle<T> {
    const tracker = this;
    let waiting: Promise<JobOutcome<T>> | undefined;
    return {
      envelope,
      correlationId: envelope.correlation_id,
      wait(opts) {
        waiting ??= tracker.track(envelope, schema);
        return opts?.signal ? withAbort(waiting, opts.signal) : waiting;
      },
    };
  }

  /** A handle whose outcome is already known (sports price checks resolved in the 202). */
  resolved<T>(envelope: AsyncEnvelope, result: T): JobHandle<T> {
    const outcome: JobOutcome<T> = { status: 'completed', result, entry: entryFrom(envelope, 'completed', result) };
    const done = Promise.resolve(outcome);
    return {
      envelope,
      correlationId: envelope.correlation_id,
      wait: (opts) => (opts?.signal ? withAbort(done, opts.signal) : done),
    };
  }

  /** Tracks a (possibly persisted) envelope; resolves with its outcome. Tracking the same id twice shares one poll. */
  track<T = unknown>(envelope: AsyncEnvelope, schema?: z.ZodType<T>): Promise<JobOutcome<T>> {
    if (this.#closed)
      return Promise.reject(new GatewayError('The gateway client is closed: create a new client to track jobs.'));
    const id = envelope.correlation_id;
    const existing = this.#jobs.get(id);
    if (existing) return existing.promise as Promise<JobOutcome<T>>;
    const early = this.#recent.get(id);
    if (early) {
      this.#recent.delete(id);
      return new Promise<JobOutcome>((res) => res(this.#parsed(early, schema))) as Promise<JobOutcome<T>>;
    }
    let resolve!: (o: JobOutcome) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<JobOutcome>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const at = envelope.timeout_at ? Date.parse(envelope.timeout_at) : Number.NaN;
    this.#jobs.set(id, {
      id,
      envelope,
      timeoutAtMs: Number.isNaN(at) ? undefined : at,
      schema,
      promise,
      resolve,
      reject,
    });
    this.#arm();
    return promise as Promise<JobOutcome<T>>;
  }

  /** Waits on a bare correlation id (no timeout_at known: polls until the gateway says it left pending). */
  wait<T = unknown>(correlationId: string, schema?: z.ZodType<T>): Promise<JobOutcome<T>> {
    return this.track({ status: 'pending', correlation_id: correlationId }, schema);
  }

  /** Stops tracking without an outcome; waiters are rejected. */
  untrack(correlationId: string): boolean {
    const job = this.#jobs.get(correlationId);
    if (!job) return false;
    this.#jobs.delete(correlationId);
    job.reject(new GatewayError(`Stopped tracking job ${correlationId}; poll it with client.jobs.status([id]).`));
    this.#disarmIfIdle();
    return true;
  }

  /**
   * Feeds a verified webhook body into the tracker: the job is resolved and leaves the poll batch at once.
   * Returns true when a tracked job was resolved; otherwise the outcome is kept for a later wait().
   */
  resolveFromWebhook(body: WebhookBody): boolean {
    const status = body.status === 'timeout' || body.status === 'unknown' ? body.status : 'completed';
    const meta = body.metadata ?? {};
    const entry: PollEntry = {
      correlation_id: body.correlation_id,
      status,
      session_id: meta.session_id ?? null,
      bookie: meta.bookie ?? null,
      username: meta.username ?? null,
      result: body.result,
    };
    const outcome: JobOutcome = status === 'completed' ? { status, result: body.result, entry } : { status, entry };
    const job = this.#jobs.get(body.correlation_id);
    if (!job) {
      this.#remember(body.correlation_id, outcome);
      return false;
    }
    this.#settle(job, outcome);
    return true;
  }

  /** Clears the timer and rejects every waiter. */
  close(): void {
    this.#closed = true;
    this.#pollDueAt = undefined;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const err = new GatewayError(
      'The gateway client was closed while jobs were pending; re-track them with client.jobs.track(envelope).',
    );
    for (const job of this.#jobs.values()) job.reject(err);
    this.#jobs.clear();
  }

  /** One timer: at the next poll, or earlier at the first timeout_at so a timeout is reported on time. */
  #arm(): void {
    if (this.#timer || this.#ticking || this.#closed || this.#jobs.size === 0) return;
    const now = this.#now();
    this.#pollDueAt ??= now + this.#intervalMs;
    let at = this.#pollDueAt;
    for (const job of this.#jobs.values())
      if (job.timeoutAtMs !== undefined && job.timeoutAtMs < at) at = job.timeoutAtMs;
    this.#timer = setTimeout(() => void this.#tick(), Math.max(0, at - now));
  }

  #disarmIfIdle(): void {
    if (this.#jobs.size > 0) return;
    this.#pollDueAt = undefined;
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  async #tick(): Promise<void> {
    this.#timer = undefined;
    this.#ticking = true;
    try {
      const now = this.#now();
      const due: string[] = [];
      for (const job of this.#jobs.values()) {
        // Never poll past timeout_at: the gateway has given up, so report the transient timeout.
        if (job.timeoutAtMs !== undefined && now >= job.timeoutAtMs) {
          this.#settle(job, { status: 'timeout', entry: entryFrom(job.envelope, 'timeout') });
        } else due.push(job.id);
      }
      // A tick woken early for a timeout leaves the others to the regular cadence (1 to 3 s per the spec).
      if (due.length > 0 && this.#pollDueAt !== undefined && now >= this.#pollDueAt - 2) {
        this.#pollDueAt = now + this.#intervalMs;
        for (let i = 0; i < due.length; i += this.#maxBatch) {
          await this.#pollBatch(due.slice(i, i + this.#maxBatch));
        }
      }
    } finally {
      this.#ticking = false;
      this.#arm();
    }
  }

  async #pollBatch(ids: string[]): Promise<void> {
    let entries: PollEntry[];
    try {
      entries = await this.#fetch(ids);
    } catch (err) {
      this.#onError?.(err);
      return;
    }
    for (const entry of entries) {
      const job = this.#jobs.get(entry.correlation_id);
      if (!job || entry.status === 'pending') continue;
      if (entry.status === 'timeout' || entry.status === 'unknown') this.#settle(job, { status: entry.status, entry });
      else if (entry.status === 'completed' || entry.result !== undefined) {
        this.#settle(job, { status: 'completed', result: entry.result, entry });
      } else this.#settle(job, { status: 'unknown', entry });
    }
  }

  #settle(job: Tracked, outcome: JobOutcome): void {
    this.#jobs.delete(job.id);
    try {
      job.resolve(this.#parsed(outcome, job.schema));
    } catch (err) {
      job.reject(err);
    }
    this.#disarmIfIdle();
  }

  #parsed(outcome: JobOutcome, schema: AnySchema | undefined): JobOutcome {
    if (outcome.status !== 'completed' || !schema) return outcome;
    const result = parseResponse(schema, outcome.result, { method: 'POST', path: '/api/bet_status', status: 200 });
    return { ...outcome, result };
  }

  #remember(id: string, outcome: JobOutcome): void {
    this.#recent.set(id, outcome);
    if (this.#recent.size > RECENT_LIMIT) {
      const oldest = this.#recent.keys().next().value;
      if (oldest !== undefined) this.#recent.delete(oldest);
    }
  }
}

function entryFrom(envelope: AsyncEnvelope, status: string, result?: unknown): PollEntry {
  return {
    correlation_id: envelope.correlation_id,
    status,
    session_id: envelope.session_id ?? null,
    bookie: envelope.bookie ?? null,
    username: envelope.username ?? null,
    submitted_at: envelope.submitted_at ?? null,
    timeout_at: envelope.timeout_at ?? null,
    ...(result === undefined ? {} : { result }),
  };
}

function withAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
