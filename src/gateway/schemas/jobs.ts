import { z } from 'zod';
import { openEnum } from './common.js';

/** 202 body of every single-job async endpoint. */
export const AsyncEnvelope = z.looseObject({
  /** Always `pending` at submission. */
  status: z.string(),
  /** Used to fetch the result (POST /api/bet_status) and named by the webhook. */
  correlation_id: z.string().min(1),
  /** Submission timestamp. */
  submitted_at: z.string().optional(),
  /** Deadline timestamp (about 5 minutes after submission); polling stops there. */
  timeout_at: z.string().optional(),
  /** Echo of the session. */
  session_id: z.string().optional(),
  /** Echo of the session's bookmaker. */
  bookie: z.string().optional(),
  /** Echo of the session's login name. */
  username: z.string().optional(),
  /** The registered callback, or null if absent or registration failed (then poll). */
  callback_url: z.string().nullish(),
  /** withdraw_balance only: the amount. */
  amount: z.number().optional(),
  /** place_promo only: echo of the caller's trace_id. */
  trace_id: z.string().nullish(),
  /** place_promo only. */
  promo_id: z.number().optional(),
});
/** 202 body of every single-job async endpoint. */
export type AsyncEnvelope = z.infer<typeof AsyncEnvelope>;

/** `pending`, `completed`, `timeout` (the gateway gave up; transient) or `unknown` (id older than 30 minutes). */
export const JobStatus = z.enum(['pending', 'completed', 'timeout', 'unknown']);
/** `pending`, `completed`, `timeout` (the gateway gave up; transient) or `unknown` (id older than 30 minutes). */
export type JobStatus = z.infer<typeof JobStatus>;

/** Element of `statuses` from POST /api/bet_status. `result` shape depends on the operation. */
export const PollEntry = z.looseObject({
  /** The job. */
  correlation_id: z.string(),
  /** `pending`, `completed`, `timeout` or `unknown`. */
  status: openEnum<JobStatus>(),
  /** As in the envelope. */
  session_id: z.string().nullish(),
  /** As in the envelope. */
  bookie: z.string().nullish(),
  /** As in the envelope. */
  username: z.string().nullish(),
  /** As in the envelope. */
  submitted_at: z.string().nullish(),
  /** As in the envelope. */
  timeout_at: z.string().nullish(),
  /** Present when completed; shape depends on the operation. */
  result: z.unknown().optional(),
});
/** Element of `statuses` from POST /api/bet_status. `result` shape depends on the operation. */
export type PollEntry = z.infer<typeof PollEntry>;

/** Body of POST /api/bet_status. */
export const BetStatusRequest = z.strictObject({
  /** Jobs to read (any async endpoint's). */
  correlation_ids: z.array(z.string().min(1)).min(1, 'must list at least one correlation id'),
});
/** Body of POST /api/bet_status. */
export type BetStatusRequest = z.infer<typeof BetStatusRequest>;

/** Answer of POST /api/bet_status. */
export const BetStatusResponse = z.looseObject({
  /** One entry per known id. */
  statuses: z.array(PollEntry),
});
/** Answer of POST /api/bet_status. */
export type BetStatusResponse = z.infer<typeof BetStatusResponse>;
