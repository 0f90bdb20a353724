import { z } from 'zod';

/** `metadata` of a webhook delivery: the session the job ran on. */
export const WebhookMetadata = z.looseObject({
  /** Bookmaker identifier. */
  bookie: z.string().nullish(),
  /** Account login name at the bookmaker. */
  username: z.string().nullish(),
  /** The session the job ran on. */
  session_id: z.string().nullish(),
});
/** `metadata` of a webhook delivery: the session the job ran on. */
export type WebhookMetadata = z.infer<typeof WebhookMetadata>;

/** Body POSTed to a callback_url when a job leaves pending (verify and parse it with parseWebhook). */
export const WebhookBody = z.looseObject({
  /** The job's correlation id (also sent as the Bet-Correlation-Id header). */
  correlation_id: z.string().min(1),
  /**
   * Same content as the poll entry's `result`; for a placed bet the receipt fields may be flat (see
   * betOutcomeOf). Absent when the delivery reports a job that did not complete (`status` timeout/unknown).
   */
  result: z.unknown().optional(),
  /** bookie, username, session_id of the job's session. */
  metadata: WebhookMetadata.optional(),
  /** When the gateway sent this delivery (ISO 8601 UTC); parseWebhook refuses a stale one. */
  delivered_at: z.string().optional(),
  /** Job status when the delivery reports a non-completed job (`timeout`, `unknown`); absent means completed. */
  status: z.string().optional(),
});
/** Body POSTed to a callback_url when a job leaves pending (verify and parse it with parseWebhook). */
export type WebhookBody = z.infer<typeof WebhookBody>;
