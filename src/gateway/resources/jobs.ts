import type { z } from 'zod';
import type { JobOutcome, JobTracker } from '../jobs.js';
import { type AsyncEnvelope, BetStatusRequest, BetStatusResponse, type PollEntry } from '../schemas/jobs.js';
import { type WebhookBody, WebhookBody as WebhookBodySchema } from '../schemas/webhooks.js';
import type { Transport } from '../transport.js';
import { parseRequest } from '../validate.js';

/** client.jobs: direct status reads plus the shared poller. */
export class Jobs {
  constructor(
    private readonly transport: Transport,
    private readonly tracker: JobTracker,
  ) {}

  /** One POST /api/bet_status for the given ids (a read: retried on transient failures). */
  async status(correlationIds: string[]): Promise<PollEntry[]> {
    const body = parseRequest(BetStatusRequest, { correlation_ids: correlationIds }, 'POST /api/bet_status');
    const res = await this.transport.request({
      method: 'POST',
      path: '/api/bet_status',
      body,
      schema: BetStatusResponse,
      idempotent: true,
    });
    return res.statuses;
  }

  /** Re-tracks a persisted 202 envelope (e.g. after a restart); polling stops at its timeout_at. */
  track<T = unknown>(envelope: AsyncEnvelope, resultSchema?: z.ZodType<T>): Promise<JobOutcome<T>> {
    return this.tracker.track(envelope, resultSchema);
  }

  wait<T = unknown>(correlationId: string, resultSchema?: z.ZodType<T>): Promise<JobOutcome<T>> {
    return this.tracker.wait(correlationId, resultSchema);
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
