import { z } from 'zod';

/** 202 body of every single-job async endpoint. */
export const AsyncEnvelope = z.looseObject({
  status: z.string(),
  correlation_id: z.string().min(1),
  submitted_at: z.string().optional(),
  timeout_at: z.string().optional(),
  session_id: z.string().optional(),
  bookie: z.string().optional(),
  username: z.string().optional(),
  callback_url: z.string().nullish(),
  amount: z.number().optional(),
  trace_id: z.string().nullish(),
  promo_id: z.number().optional(),
});
export type AsyncEnvelope = z.infer<typeof AsyncEnvelope>;

export const JobStatus = z.enum(['pending', 'completed', 'timeout', 'unknown']);
export type JobStatus = z.infer<typeof JobStatus>;

/** Element of `statuses` from POST /api/bet_status. `result` shape depends on the operation. */
export const PollEntry = z.looseObject({
  correlation_id: z.string(),
  status: z.string(),
  session_id: z.string().nullish(),
  bookie: z.string().nullish(),
  username: z.string().nullish(),
  submitted_at: z.string().nullish(),
  timeout_at: z.string().nullish(),
  result: z.unknown().optional(),
});
export type PollEntry = z.infer<typeof PollEntry>;

export const BetStatusRequest = z.strictObject({
  correlation_ids: z.array(z.string().min(1)).min(1, 'must list at least one correlation id'),
});
export type BetStatusRequest = z.infer<typeof BetStatusRequest>;

export const BetStatusResponse = z.looseObject({ statuses: z.array(PollEntry) });
export type BetStatusResponse = z.infer<typeof BetStatusResponse>;
