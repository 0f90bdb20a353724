import type { JobHandle } from '../jobs.js';
import type { AsyncEnvelope } from '../schemas/jobs.js';
import {
  PriceCheckResult,
  type PriceCheckSubmission,
  PriceCheckSubmission as PriceCheckSubmissionSchema,
  type RacingPriceCheckRequest,
  RacingPriceCheckRequest as RacingSchema,
  type SportsPriceCheckRequest,
  sportsPriceCheckSchemaFor,
} from '../schemas/price-checks.js';
import { parseResponse } from '../validate.js';
import type { ResourceContext } from './context.js';

export interface PriceCheckJobs {
  submission: PriceCheckSubmission;
  /** One job per session, in the order of `queries`. */
  jobs: JobHandle<PriceCheckResult>[];
}

/** Fields of a query that belong to the resolved payload rather than to the job bookkeeping. */
const isResolved = (status: string | undefined) => status === 'success' || status === 'failure';

/** Price checks are reads: one job per session; sports queries may come back already resolved. */
export class PriceChecks {
  constructor(private readonly ctx: ResourceContext) {}

  async racing(req: RacingPriceCheckRequest): Promise<PriceCheckJobs> {
    return this.#jobs(
      await this.ctx.post('/v3/price_check', RacingSchema, req, PriceCheckSubmissionSchema, { idempotent: true }),
    );
  }

  async sports(req: SportsPriceCheckRequest): Promise<PriceCheckJobs> {
    const schema = sportsPriceCheckSchemaFor(req);
    return this.#jobs(
      await this.ctx.post('/v3/price_check', schema, req, PriceCheckSubmissionSchema, { idempotent: true }),
    );
  }

  #jobs(submission: PriceCheckSubmission): PriceCheckJobs {
    const jobs = submission.queries.map((query, i) => {
      const envelope: AsyncEnvelope = {
        status: 'pending',
        correlation_id: query.correlation_id ?? `${query.session_id}#resolved-${i}`,
        session_id: query.session_id,
        submitted_at: query.submitted_at ?? submission.submitted_at,
        timeout_at: query.timeout_at ?? submission.timeout_at,
        ...(typeof query.bookie === 'string' ? { bookie: query.bookie } : {}),
      };
      if (isResolved(query.status)) {
        const { correlation_id: _id, timeout_at: _t, submitted_at: _s, ...payload } = query;
        const result = parseResponse(
          PriceCheckResult,
          { category: submission.category, ...payload },
          {
            method: 'POST',
            path: '/v3/price_check',
            status: 202,
          },
        );
        return this.ctx.jobs.resolved(envelope, result);
      }
      return this.ctx.jobs.handle(envelope, PriceCheckResult);
    });
    return { submission, jobs };
  }
}
