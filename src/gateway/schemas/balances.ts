import { z } from 'zod';
import { nonEmpty, sessionScoped } from './common.js';

export const BalanceRequest = z.strictObject({ session_id: nonEmpty });
export type BalanceRequest = z.infer<typeof BalanceRequest>;

export const BalanceRecord = z.looseObject({
  session_id: z.string().optional(),
  bookie: z.string().optional(),
  username: z.string().optional(),
  balance: z.number(),
  bonus_balance: z.number().optional(),
  withdrawable_balance: z.number().optional(),
  retrieved_at: z.string().nullish(),
});
export type BalanceRecord = z.infer<typeof BalanceRecord>;

/** @deprecated POST /api/balance, the legacy synchronous shape. */
export const LegacyBalance = z.looseObject({
  bookie: z.string().optional(),
  username: z.string().optional(),
  balance: z.number(),
  bonus_balance: z.number().optional(),
});
export type LegacyBalance = z.infer<typeof LegacyBalance>;

export const WithdrawalRequest = z.strictObject({
  ...sessionScoped,
  amount: z.number().finite().positive('must be a positive number of dollars'),
});
export type WithdrawalRequest = z.infer<typeof WithdrawalRequest>;

export const WithdrawalResult = z.looseObject({
  success: z.boolean(),
  message: z.string().optional(),
  withdrawal_id: z.string().nullish(),
  status: z.string().optional(),
  bookie: z.string().optional(),
});
export type WithdrawalResult = z.infer<typeof WithdrawalResult>;
