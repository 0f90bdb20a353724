// Async jobs: the 202 envelope, the simulated bookmaker delay, completed / timeout / unknown, webhooks.

import { randomUUID } from 'node:crypto';
import type { Account, Session } from '../accounts/types.js';
import { acceptCallbackUrl } from './callback-url.js';
import type { SandboxClock } from './clock.js';
import { DEFAULT_HOLD_MS, type FaultState } from './faults.js';
import { ApiError } from './reply.js';
import { createRng } from './rng.js';
import { type WebhookFault, WebhookSender } from './webhooks.js';

export const JOB_TIMEOUT_MS = 5 * 60_000;
export const JOB_LIFETIME_MS = 30 * 60_000;
/** Simulated bookmaker work: 300–1500 ms of sandbox time. */
export const WORK_DELAY_MS = { min: 300, max: 1_500 };

export type JobStatus = 'pending' | 'completed' | 'timeout' | 'unknown';

export interface Envelope {
  status: 'pending';
  correlation_id: string;
  submitted_at: string;
  timeout_at: string;
  session_id?: string;
  bookie?: string;
  username?: string;
  callback_url: string | null;
  [extra: string]: unknown;
}

export interface PollEntry {
  correlation_id: string;
  status: JobStatus;
  session_id?: string;
  bookie?: string;
  username?: string;
  submitted_at?: string;
  timeout_at?: string;
  result?: unknown;
}

export interface SubmitOptions {
  account: Account;
  session?: Session;
  /** Raw `callback_url` from the body: validated here (loopback only; otherwise null in the envelope). */
  callbackUrl?: unknown;
  /** Envelope extras such as amount, trace_id, promo_id. */
  extra?: Record<string, unknown>;
  /** Runs after the simulated bookmaker delay; its return value is the poll `result`. */
  work: () => unknown | Promise<unknown>;
  /** Sandbox ms before the work runs; default 300–1500 ms. Work that would start at or after timeout_at never runs. */
  delayMs?: number;
  /** The route path (fault rules match it). */
  path?: string;
}

interface Job {
  envelope: Envelope;
  accountId: string;
  /** Keys the webhook signature; held by reference so the key is never copied into job state. */
  account: Account;
  submittedMs: number;
  timeoutMs: number;
  status: 'pending' | 'completed';
  result?: unknown;
  cancel?: () => void;
  /** Sandbox time the bookmaker work is due; undefined when it never runs (stuck, or past timeout_at). */
  dueMs?: number;
  work?: SubmitOptions['work'];
  callbackUrl: string | null;
  /** Route the job came in on (fault rules match it). */
  path?: string;
  /** A betting fault on this job's webhook, decided at submission. */
  webhookFault?: WebhookFault;
}

/** A job as plain data (snapshot). */
export interface JobDump {
  envelope: Envelope;
  accountId: string;
  submittedMs: number;
  timeoutMs: number;
  status: 'pending' | 'completed';
  callbackUrl: string | null;
  result?: unknown;
  dueMs?: number;
  path?: string;
  webhookFault?: WebhookFault;
}

export class Jobs {
  private jobs = new Map<string, Job>();
  private readonly waiters = new Map<string, ((entry: PollEntry) => void)[]>();
  private readonly rng: () => number;
  readonly webhooks: WebhookSender;
  /** Counts of what happened, for /_sandbox/state. */
  readonly stats = { submitted: 0, completed: 0, stuck: 0, pastDeadline: 0 };

  constructor(
    private readonly clock: SandboxClock,
    private readonly faults: FaultState,
    seed: number,
    onWebhook: (outcome: 'delivered' | 'dead_lettered') => void = () => {},
  ) {
    this.rng = createRng(seed ^ 0x10b5);
    this.webhooks = new WebhookSender(clock, faults, onWebhook);
  }

  /** Accepts a job and answers the spec's 202 envelope; the work runs later. */
  submit(opts: SubmitOptions): Envelope {
    const callbackUrl = acceptCallbackUrl(opts.callbackUrl);
    const now = this.clock.nowMs();
    const envelope: Envelope = {
      status: 'pending',
      // Random, not seeded: a restarted sandbox must never reissue an id a client may still hold.
      correlation_id: randomUUID(),
      submitted_at: new Date(now).toISOString(),
      timeout_at: new Date(now + JOB_TIMEOUT_MS).toISOString(),
      ...(opts.session
        ? { session_id: opts.session.session_id, bookie: opts.session.bookie, username: opts.session.username }
        : {}),
      callback_url: callbackUrl,
      ...opts.extra,
    };
    const job: Job = {
      envelope,
      accountId: opts.account.id,
      account: opts.account,
      submittedMs: now,
      timeoutMs: now + JOB_TIMEOUT_MS,
      status: 'pending',
      callbackUrl,
      ...(opts.path ? { path: opts.path } : {}),
    };
    const hookFault = callbackUrl ? this.webhookFault(opts.path, opts.session?.session_id) : undefined;
    if (hookFault) job.webhookFault = hookFault;
    this.jobs.set(envelope.correlation_id, job);
    this.stats.submitted += 1;
    this.prune(now);
    if (this.faults.jobStuck()) {
      this.stats.stuck += 1;
      return envelope;
    }
    const delay = opts.delayMs ?? WORK_DELAY_MS.min + this.rng() * (WORK_DELAY_MS.max - WORK_DELAY_MS.min);
    // The bookmaker work (random_delay included) is bounded by timeout_at: work that would start at or after
    // the deadline never runs, so a job that reads `timeout` can never complete (or place a bet) later.
    if (now + delay >= job.timeoutMs) {
      this.stats.pastDeadline += 1;
      return envelope;
    }
    job.work = opts.work;
    this.schedule(job, now + delay);
    return envelope;
  }

  private webhookFault(path: string | undefined, sessionId: string | undefined): WebhookFault | undefined {
    const ids = sessionId ? [sessionId] : [];
    if (this.faults.strike('webhook_lost', path, ids)) return { kind: 'lost' };
    if (this.faults.strike('webhook_duplicated', path, ids)) return { kind: 'duplicated' };
    const held = this.faults.strike('webhook_out_of_order', path, ids);
    if (held) return { kind: 'out_of_order', holdMs: held.hold_ms ?? DEFAULT_HOLD_MS };
    return undefined;
  }

  private schedule(job: Job, dueMs: number): void {
    job.dueMs = dueMs;
    const work = job.work;
    if (!work) return;
    const timer = this.clock.schedule(dueMs - this.clock.nowMs(), () => void this.run(job, work, job.callbackUrl));
    job.cancel = () => timer.cancel();
  }

  /** Poll entries for `ids`, in order; ids of other accounts, expired or never issued are `unknown`. */
  status(account: Account, ids: string[]): PollEntry[] {
    const now = this.clock.nowMs();
    return ids.map((id) => {
      const job = this.jobs.get(id);
      if (!job || job.accountId !== account.id || now - job.submittedMs > JOB_LIFETIME_MS) {
        return { correlation_id: id, status: 'unknown' };
      }
      const { session_id, bookie, username, submitted_at, timeout_at } = job.envelope;
      const base = { correlation_id: id, session_id, bookie, username, submitted_at, timeout_at };
      if (job.status === 'completed') return { ...base, status: 'completed', result: job.result };
      return { ...base, status: now >= job.timeoutMs ? 'timeout' : 'pending' };
    });
  }

  /** Summary for /_sandbox/state. */
  snapshot(): { correlation_id: string; status: JobStatus; account_id: string }[] {
    const now = this.clock.nowMs();
    return [...this.jobs.values()].map((j) => ({
      correlation_id: j.envelope.correlation_id,
      account_id: j.accountId,
      status:
        now - j.submittedMs > JOB_LIFETIME_MS
          ? 'unknown'
          : j.status === 'completed'
            ? 'completed'
            : now >= j.timeoutMs
              ? 'timeout'
              : 'pending',
    }));
  }

  /**
   * Resolves with the job's poll entry once it leaves pending: completed, or timeout at timeout_at
   * (used by the inline v2 routes). Resolves `unknown` for an id never issued or on reset/close.
   */
  settled(account: Account, id: string): Promise<PollEntry> {
    const job = this.jobs.get(id);
    if (!job || job.status === 'completed' || job.accountId !== account.id) {
      return Promise.resolve(this.status(account, [id])[0]!);
    }
    return new Promise((resolve) => {
      const timer = this.clock.schedule(job.timeoutMs - this.clock.nowMs(), () => this.wake(id, account));
      const list = this.waiters.get(id) ?? [];
      list.push((entry) => {
        timer.cancel();
        resolve(entry);
      });
      this.waiters.set(id, list);
    });
  }

  /** Every job as plain data, and the pending jobs' bookmaker work (functions: kept only in memory). */
  dump(): { jobs: JobDump[]; works: Map<string, SubmitOptions['work']> } {
    const jobs: JobDump[] = [];
    const works = new Map<string, SubmitOptions['work']>();
    for (const job of this.jobs.values()) {
      const { envelope, accountId, submittedMs, timeoutMs, status, result, dueMs, path, webhookFault, callbackUrl } =
        job;
      jobs.push(
        structuredClone({
          envelope,
          accountId,
          submittedMs,
          timeoutMs,
          status,
          callbackUrl,
          ...(result !== undefined ? { result } : {}),
          ...(dueMs !== undefined ? { dueMs } : {}),
          ...(path !== undefined ? { path } : {}),
          ...(webhookFault ? { webhookFault } : {}),
        }),
      );
      if (job.status === 'pending' && job.work) works.set(envelope.correlation_id, job.work);
    }
    return { jobs, works };
  }

  /**
   * Replaces every job with a dump (the clock already set to the snapshot's time). A pending job runs its work
   * when it is still held in memory; a pending job from a JSON document has none and reads `timeout` at its
   * timeout_at. Callers waiting on a replaced job hear `unknown`.
   */
  load(
    dumped: JobDump[],
    works: Map<string, SubmitOptions['work']> | undefined,
    accountOf: (id: string) => Account | undefined,
  ): void {
    this.reset();
    for (const d of structuredClone(dumped)) {
      const account = accountOf(d.accountId);
      if (!account) continue;
      const job: Job = { ...d, account };
      this.jobs.set(d.envelope.correlation_id, job);
      const work = works?.get(d.envelope.correlation_id);
      if (job.status === 'pending' && work && job.dueMs !== undefined && job.dueMs < job.timeoutMs) {
        job.work = work;
        this.schedule(job, job.dueMs);
      }
    }
  }

  reset(): void {
    for (const job of this.jobs.values()) job.cancel?.();
    this.jobs.clear();
    for (const [id, list] of this.waiters) for (const fn of list) fn({ correlation_id: id, status: 'unknown' });
    this.waiters.clear();
  }

  private wake(id: string, account: Account): void {
    const list = this.waiters.get(id);
    if (!list) return;
    this.waiters.delete(id);
    const entry = this.status(account, [id])[0]!;
    for (const fn of list) fn(entry);
  }

  async close(): Promise<void> {
    this.reset();
    await this.webhooks.close();
  }

  private async run(job: Job, work: SubmitOptions['work'], callbackUrl: string | null): Promise<void> {
    let result: unknown;
    try {
      result = await work();
    } catch (err) {
      // A refusal inside the work is a job-level failure, reported in the result (never a crash).
      const message =
        err instanceof ApiError && typeof err.body === 'object' && err.body !== null
          ? String(
              (err.body as Record<string, unknown>).detail ??
                (err.body as Record<string, unknown>).error ??
                err.message,
            )
          : (err as Error).message;
      result = { success: false, error: message };
    }
    if (this.jobs.get(job.envelope.correlation_id) !== job) return; // reset or restored while running
    // Asynchronous work that outlived the deadline is dropped: the job has already read `timeout`.
    if (this.clock.nowMs() >= job.timeoutMs) return;
    job.status = 'completed';
    job.work = undefined;
    job.result = result;
    this.stats.completed += 1;
    this.wake(job.envelope.correlation_id, job.account);
    if (callbackUrl) {
      const { session_id, bookie, username } = job.envelope;
      this.webhooks.deliver(
        callbackUrl,
        {
          correlation_id: job.envelope.correlation_id,
          result,
          metadata: { bookie: bookie ?? null, username: username ?? null, session_id: session_id ?? null },
        },
        job.account.key,
        job.webhookFault,
      );
    }
  }

  /**
   * Forgets jobs past their lifetime, oldest first, up to the first one still within it: the map keeps submission
   * order, so one submit costs the jobs it forgets, not a walk of every job of the last 30 minutes. (Reads check the
   * lifetime themselves: after a snapshot set the clock back, a job this leaves behind a younger one only lingers.)
   */
  private prune(now: number): void {
    for (const [id, job] of this.jobs) {
      if (now - job.submittedMs <= JOB_LIFETIME_MS) return;
      job.cancel?.();
      this.jobs.delete(id);
    }
  }
}
