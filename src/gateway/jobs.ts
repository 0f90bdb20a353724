import type { z } from 'zod';
import { ClientClosedError, GatewayError } from './errors.js';
import { parseResponse } from './internal/validate.js';
import type { AsyncEnvelope, PollEntry } from './schemas/jobs.js';
import type { WebhookBody } from './schemas/webhooks.js';

/**
 * What a job came to. `completed` carries the parsed result; `timeout` and `unknown` are transient (the gateway
 * gave up waiting, or the id expired): re-poll or reconcile, never resubmit a state-changing call.
 */
export type JobOutcome<T = unknown> =
  | {
      status: 'completed';
      /** The job's result, checked against the documented shape of the operation. */
      result: T;
      /** The poll entry (or webhook) it came from; undefined for a price check answered in the 202. */
      entry: PollEntry | undefined;
    }
  | { status: 'timeout' | 'unknown'; entry: PollEntry };

/** Options of one wait on a job. */
export interface WaitOptions {
  /** Stops this wait (rejecting with the signal's reason); polling for the job stops when no other wait remains. */
  signal?: AbortSignal | undefined;
}

/** A submitted asynchronous job (the 202 envelope) and the way to its outcome. */
export interface JobHandle<T = unknown> {
  /** The 202 body: persist it to pick the job up again after a restart (`client.jobs.track(envelope)`). */
  readonly envelope: AsyncEnvelope;
  /** The gateway's correlation id for the job. */
  readonly correlationId: string;
  /** Registers the job with the client's one poller and resolves when it leaves pending (or passes timeout_at). */
  wait(opts?: WaitOptions): Promise<JobOutcome<T>>;
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
  /** Waits still interested; the job leaves the poll batch when the last one aborts. */
  waiters: number;
}

/** A joined wait: the shared outcome, and release() for a waiter that gives up. */
interface Subscription<T> {
  promise: Promise<JobOutcome<T>>;
  release(): void;
}

const RECENT_LIMIT = 2_000;
const noop = () => {};

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
  readonly #clean: (value: unknown) => unknown;
  readonly #jobs = new Map<string, Tracked>();
  /** Outcomes that arrived (by webhook or fast path) before anyone waited; bounded. */
  readonly #recent = new Map<string, JobOutcome>();
  #timer: NodeJS.Timeout | undefined;
  /** When the next batched poll is due; undefined while idle. */
  #pollDueAt: number | undefined;
  #ticking = false;
  #closed = false;

  constructor(
    fetchStatuses: (ids: string[]) => Promise<PollEntry[]>,
    opts: PollerOptions = {},
    /** Strips the API key from anything an error keeps (a hostile or broken gateway may echo it into results). */
    clean: (value: unknown) => unknown = (v) => v,
  ) {
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
    this.#clean = clean;
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
    // Once settled, later waits read the same outcome instead of polling again.
    let settled: Promise<JobOutcome<T>> | undefined;
    return {
      envelope,
      correlationId: envelope.correlation_id,
      wait(opts) {
        const signal = opts?.signal;
        if (settled) return signal ? withAbort(settled, signal, noop) : settled;
        const sub = tracker.#subscribe(envelope, schema);
        sub.promise.then(
          () => {
            settled = sub.promise;
          },
          (err: unknown) => {
            if (!(err instanceof ClientClosedError)) settled = sub.promise;
          },
        );
        return signal ? withAbort(sub.promise, signal, sub.release) : sub.promise;
      },
    };
  }

  /** Tracks a (possibly persisted) envelope; resolves with its outcome. Tracking the same id twice shares one poll. */
  track<T = unknown>(envelope: AsyncEnvelope, schema?: z.ZodType<T>, opts?: WaitOptions): Promise<JobOutcome<T>> {
    const sub = this.#subscribe(envelope, schema);
    return opts?.signal ? withAbort(sub.promise, opts.signal, sub.release) : sub.promise;
  }

  /** Waits on a bare correlation id (no timeout_at known: polls until the gateway says it left pending). */
  wait<T = unknown>(correlationId: string, schema?: z.ZodType<T>, opts?: WaitOptions): Promise<JobOutcome<T>> {
    return this.track({ status: 'pending', correlation_id: correlationId }, schema, opts);
  }

  #subscribe<T>(envelope: AsyncEnvelope, schema: z.ZodType<T> | undefined): Subscription<T> {
    if (this.#closed) {
      return {
        promise: Promise.reject(new ClientClosedError(`Waiting for job ${envelope.correlation_id}`, { detail: '' })),
        release: noop,
      };
    }
    const id = envelope.correlation_id;
    const early = this.#recent.get(id);
    if (early && !this.#jobs.has(id)) {
      this.#recent.delete(id);
      const promise = new Promise<JobOutcome>((res) => res(this.#parsed(id, early, schema))) as Promise<JobOutcome<T>>;
      return { promise, release: noop };
    }
    let job = this.#jobs.get(id);
    if (!job) {
      let resolve!: (o: JobOutcome) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<JobOutcome>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const at = envelope.timeout_at ? Date.parse(envelope.timeout_at) : Number.NaN;
      job = {
        id,
        envelope,
        timeoutAtMs: Number.isNaN(at) ? undefined : at,
        schema,
        promise,
        resolve,
        reject,
        waiters: 0,
      };
      this.#jobs.set(id, job);
      this.#arm();
    }
    const tracked = job;
    tracked.waiters++;
    let released = false;
    return {
      promise: tracked.promise as Promise<JobOutcome<T>>,
      release: () => {
        if (released) return;
        released = true;
        tracked.waiters--;
        // The last waiter gave up: stop polling this job (it stays pollable at the gateway for 30 minutes).
        if (tracked.waiters <= 0 && this.#jobs.get(id) === tracked) {
          this.#jobs.delete(id);
          tracked.promise.catch(noop);
          this.#disarmIfIdle();
        }
      },
    };
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

  /** Clears the timer and rejects every waiter at once with ClientClosedError. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#pollDueAt = undefined;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const job of this.#jobs.values()) {
      job.reject(
        new ClientClosedError(`Waiting for job ${job.id}`, {
          detail:
            ' before the job left pending; it stays pollable at the gateway for 30 minutes (client.jobs.track(envelope) on a new client)',
          correlationId: job.id,
        }),
      );
    }
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
      if (!this.#closed) this.#onError?.(err);
      return;
    }
    for (const entry of entries) {
      const job = this.#jobs.get(entry.correlation_id);
      if (!job || entry.status === 'pending') continue;
      if (entry.status === 'timeout' || entry.status === 'unknown') {
        this.#settle(job, { status: entry.status as 'timeout' | 'unknown', entry });
      } else if (entry.status === 'completed' || entry.result !== undefined) {
        this.#settle(job, { status: 'completed', result: entry.result, entry });
      } else this.#settle(job, { status: 'unknown', entry });
    }
  }

  #settle(job: Tracked, outcome: JobOutcome): void {
    this.#jobs.delete(job.id);
    try {
      job.resolve(this.#parsed(job.id, outcome, job.schema));
    } catch (err) {
      job.reject(err);
    }
    this.#disarmIfIdle();
  }

  #parsed(id: string, outcome: JobOutcome, schema: AnySchema | undefined): JobOutcome {
    if (outcome.status !== 'completed' || !schema) return outcome;
    const result = parseResponse(
      schema,
      outcome.result,
      { method: 'POST', path: '/api/bet_status', status: 200 },
      this.#clean,
      undefined,
      { correlationId: id },
    );
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

function entryFrom(envelope: AsyncEnvelope, status: string): PollEntry {
  return {
    correlation_id: envelope.correlation_id,
    status,
    session_id: envelope.session_id ?? null,
    bookie: envelope.bookie ?? null,
    username: envelope.username ?? null,
    submitted_at: envelope.submitted_at ?? null,
    timeout_at: envelope.timeout_at ?? null,
  };
}

/** The promise, or the signal's reason if it aborts first; `release` tells the tracker this waiter left. */
export function withAbort<T>(promise: Promise<T>, signal: AbortSignal, release: () => void): Promise<T> {
  if (signal.aborted) {
    release();
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      release();
      reject(signal.reason);
    };
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
