import { z } from 'zod';
import { nonEmpty, openEnum, sessionScoped } from './common.js';

/** Body of POST /v3/balance (and the legacy /api/balance). */
export const BalanceRequest = z.strictObject({
  /** The session whose balance to read. */
  session_id: nonEmpty,
});
/** Body of POST /v3/balance (and the legacy /api/balance). */
export type BalanceRequest = z.infer<typeof BalanceRequest>;

/** A session's balance, from a cache seeded at session start and refreshed on each heartbeat. */
export const BalanceRecord = z.looseObject({
  /** The session. */
  session_id: z.string().optional(),
  /** Bookmaker identifier. */
  bookie: z.string().optional(),
  /** Account login name at the bookmaker. */
  username: z.string().optional(),
  /** Total in dollars, cash plus bonus. */
  balance: z.number(),
  /** Bonus/promo part, in dollars. */
  bonus_balance: z.number().optional(),
  /** Cash withdrawable now, in dollars. */
  withdrawable_balance: z.number().optional(),
  /** When the cached balance was last refreshed (ISO 8601). */
  retrieved_at: z.string().nullish(),
});
/** A session's balance, from a cache seeded at session start and refreshed on each heartbeat. */
export type BalanceRecord = z.infer<typeof BalanceRecord>;

/** @deprecated POST /api/balance, the legacy synchronous shape. */
export const LegacyBalance = z.looseObject({
  /** Bookmaker identifier. */
  bookie: z.string().optional(),
  /** Account login name. */
  username: z.string().optional(),
  /** Total in dollars. */
  balance: z.number(),
  /** Bonus part in dollars. */
  bonus_balance: z.number().optional(),
});
/** @deprecated POST /api/balance, the legacy synchronous shape. */
export type LegacyBalance = z.infer<typeof LegacyBalance>;

/** Body of POST /v3/withdraw_balance. */
export const WithdrawalRequest = z.strictObject({
  ...sessionScoped,
  /** Dollars to withdraw; positive. */
  amount: z.number().finite().positive('must be a positive number of dollars'),
});
/** Body of POST /v3/withdraw_balance. */
export type WithdrawalRequest = z.infer<typeof WithdrawalRequest>;

/** The bookmaker's own state of a withdrawal (separate from the job's state). */
export type WithdrawalStatus = 'pending' | 'completed' | 'failed';

/** Result of a withdraw_balance job. */
export const WithdrawalResult = z.looseObject({
  /** Accepted by the bookmaker. */
  success: z.boolean(),
  /** The bookmaker's message. */
  message: z.string().optional(),
  /** Bookmaker reference, when available. */
  withdrawal_id: z.string().nullish(),
  /** `pending`, `completed` or `failed`. */
  status: openEnum<WithdrawalStatus>().optional(),
  /** Bookmaker identifier. */
  bookie: z.string().optional(),
});
/** Result of a withdraw_balance job. */
export type WithdrawalResult = z.infer<typeof WithdrawalResult>;
