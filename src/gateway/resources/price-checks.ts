import type { z } from 'zod';
import type { APIPromise } from '../api-promise.js';
import { ResponseShapeError } from '../errors.js';
import { parseResponse } from '../internal/validate.js';
import { type JobHandle, type JobOutcome, type WaitOptions, withAbort } from '../jobs.js';
import type { RequestOptions } from '../request-options.js';
import type { AsyncEnvelope } from '../schemas/jobs.js';
import {
  type PriceCheckQuery,
  type PriceCheckSubmission,
  PriceCheckSubmission as PriceCheckSubmissionSchema,
  type RacingPriceCheckParams,
  RacingPriceCheckResult,
  RacingPriceCheckRequest as RacingSchema,
  type SportsPriceCheckParams,
  SportsPriceCheckResult,
  sportsPriceCheckSchemaFor,
} from '../schemas/price-checks.js';
import type { ResourceContext } from './context.js';

/** A price check still running at the gateway: a job handle with its real correlation id. */
export interface PendingPriceCheck<T> extends JobHandle<T> {
  /** False: the answer comes by polling (or webhook). */
  readonly resolved: false;
  /** The session this query runs on. */
  readonly sessionId: string;
}

/**
 * A price check the gateway answered in the 202 itself (a sports price fresher than 10 s). There is no job at the
 * gateway, so no correlation id is invented: `correlationId` is whatever the gateway sent, usually null.
 */
export interface ResolvedPriceCheck<T> {
  /** True: the result is already here; wait() resolves at once. */
  readonly resolved: true;
  /** The gateway's correlation id for the query, when it sent one (usually none). */
  readonly correlationId: string | null;
  /** The session the price was read on. */
  readonly sessionId: string;
  /** The resolved payload. */
  readonly result: T;
  /** The result as a completed outcome (same shape as a polled job's), for code that treats both alike. */
  wait(opts?: WaitOptions): Promise<JobOutcome<T>>;
}

/** One query of a price check: pending at the gateway, or answered in the 202. */
export type PriceCheckJob<T> = PendingPriceCheck<T> | ResolvedPriceCheck<T>;

/** The 202 of a price check and one job per session, in the order of `queries`. */
export interface PriceCheckJobs<T = RacingPriceCheckResult | SportsPriceCheckResult> {
  /** The 202 body as the gateway sent it. */
  submission: PriceCheckSubmission;
  /** One per session, in the order of `submission.queries`. */
  jobs: PriceCheckJob<T>[];
}

/** Fields of a query that belong to the resolved payload rather than to the job bookkeeping. */
const isResolved = (status: string | undefined) => status === 'success' || status === 'failure';

/** Price checks are reads: one job per session; sports queries may come back already resolved. */
export class PriceChecks {
  constructor(private readonly ctx: ResourceContext) {}

  /** POST /v3/price_check, category `racing` (implied): prices of a race's runners per session. */
  racing(req: RacingPriceCheckParams, options?: RequestOptions): APIPromise<PriceCheckJobs<RacingPriceCheckResult>> {
    const body = { ...req, category: 'racing' as const };
    return this.ctx
      .post('/v3/price_check', RacingSchema, body, PriceCheckSubmissionSchema, { idempotent: true }, options)
      .map((submission) => this.#jobs(submission, RacingPriceCheckResult, 'racing'));
  }

  /** POST /v3/price_check, category `sports` (implied): a live price by market_ref or by market and selection. */
  sports(req: SportsPriceCheckParams, options?: RequestOptions): APIPromise<PriceCheckJobs<SportsPriceCheckResult>> {
    const body = { ...req, category: 'sports' as const };
    return this.ctx
      .post(
        '/v3/price_check',
        sportsPriceCheckSchemaFor(body),
        body,
        PriceCheckSubmissionSchema,
        { idempotent: true },
        options,
      )
      .map((submission) => this.#jobs(submission, SportsPriceCheckResult, 'sports'));
  }

  #jobs<T>(submission: PriceCheckSubmission, schema: z.ZodType<T>, category: string): PriceCheckJobs<T> {
    const jobs = submission.queries.map((query): PriceCheckJob<T> => {
      if (isResolved(query.status)) return this.#resolved(submission, query, schema, category);
      const correlationId = query.correlation_id;
      if (typeof correlationId !== 'string' || correlationId === '') {
        throw new ResponseShapeError(
          `POST /v3/price_check answered 202 with a pending query for session ${query.session_id} but no correlation_id, so it cannot be polled. The gateway and this client disagree on the spec; report it.`,
          {
            method: 'POST',
            path: '/v3/price_check',
            status: 202,
            body: this.ctx.transport.redact(submission),
            issues: ['queries.correlation_id: missing on a pending query'],
          },
        );
      }
      const envelope: AsyncEnvelope = {
        status: 'pending',
        correlation_id: correlationId,
        session_id: query.session_id,
        ...((query.submitted_at ?? submission.submitted_at)
          ? { submitted_at: query.submitted_at ?? submission.submitted_at }
          : {}),
        ...((query.timeout_at ?? submission.timeout_at)
          ? { timeout_at: query.timeout_at ?? submission.timeout_at }
          : {}),
        ...(typeof query.bookie === 'string' ? { bookie: query.bookie } : {}),
      };
      const handle = this.ctx.jobs.handle(envelope, schema);
      return Object.assign(handle, { resolved: false as const, sessionId: query.session_id });
    });
    return { submission, jobs };
  }

  #resolved<T>(
    submission: PriceCheckSubmission,
    query: PriceCheckQuery,
    schema: z.ZodType<T>,
    category: string,
  ): ResolvedPriceCheck<T> {
    const { correlation_id, timeout_at: _t, submitted_at: _s, ...payload } = query;
    const result = parseResponse(
      schema,
      { category: submission.category ?? category, ...payload },
      { method: 'POST', path: '/v3/price_check', status: 202 },
      (v) => this.ctx.transport.redact(v),
    );
    const outcome: JobOutcome<T> = { status: 'completed', result, entry: undefined };
    const done = Promise.resolve(outcome);
    return {
      resolved: true,
      correlationId: typeof correlation_id === 'string' ? correlation_id : null,
      sessionId: query.session_id,
      result,
      wait: (opts) => (opts?.signal ? withAbort(done, opts.signal, () => {}) : done),
    };
  }
}
