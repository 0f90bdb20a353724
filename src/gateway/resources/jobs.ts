import type { z } from 'zod';
import type { APIPromise } from '../api-promise.js';
import { parseRequest } from '../internal/validate.js';
import type { JobOutcome, JobTracker, WaitOptions } from '../jobs.js';
import type { RequestOptions } from '../request-options.js';
import { type AsyncEnvelope, BetStatusRequest, BetStatusResponse, type PollEntry } from '../schemas/jobs.js';
import { type WebhookBody, WebhookBody as WebhookBodySchema } from '../schemas/webhooks.js';
import type { ResourceContext } from './context.js';

/** client.jobs: direct status reads plus the shared poller. */
export class Jobs {
  constructor(
    private readonly ctx: ResourceContext,
    private readonly tracker: JobTracker,
  ) {}

  /** One POST /api/bet_status for the given ids (a read: retried on transient failures). */
  status(correlationIds: string[], options?: RequestOptions): APIPromise<PollEntry[]> {
    return this.ctx
      .post(
        '/api/bet_status',
        BetStatusRequest,
        { correlation_ids: correlationIds },
        BetStatusResponse,
        { idempotent: true },
        options,
      )
      .map((r) => r.statuses);
  }

  /** Re-tracks a persisted 202 envelope (e.g. after a restart); polling stops at its timeout_at. */
  track<T = unknown>(
    envelope: AsyncEnvelope,
    resultSchema?: z.ZodType<T>,
    options?: WaitOptions,
  ): Promise<JobOutcome<T>> {
    return this.tracker.track(envelope, resultSchema, options);
  }

  /** Waits on a bare correlation id (no timeout_at known: polls until the gateway says it left pending). */
  wait<T = unknown>(correlationId: string, resultSchema?: z.ZodType<T>, options?: WaitOptions): Promise<JobOutcome<T>> {
    return this.tracker.wait(correlationId, resultSchema, options);
  }

  untrack(correlationId: string): boolean {
    return this.tracker.untrack(correlationId);
  }

  /** Feeds a VERIFIED webhook body (see parseWebhook) into the poller; true when a tracked job resolved. */
  resolveFromWebhook(body: WebhookBody | unknown): boolean {
    return this.tracker.resolveFromWebhook(parseRequest(WebhookBodySchema, body, 'jobs.resolveFromWebhook'));
  }

  get pendingCount(): number {
    return this.tracker.pendingCount;
  }

  /** True while the poll timer exists; it is cleared whenever nothing is pending. */
  get pollerActive(): boolean {
    return this.tracker.hasTimer;
  }
}
