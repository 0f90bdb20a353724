import { z } from 'zod';
import { sessionScoped } from './common.js';

export const SessionJobRequest = z.strictObject({ ...sessionScoped });
export type SessionJobRequest = z.input<typeof SessionJobRequest>;

export const SplitBonusBetRequest = z.strictObject({
  ...sessionScoped,
  max_amount: z.number().finite().positive('must be a positive number of dollars (largest piece)'),
});
export type SplitBonusBetRequest = z.input<typeof SplitBonusBetRequest>;

export const BonusToken = z.looseObject({
  id: z.string(),
  amount: z.number(),
  status: z.string(),
  split_options: z.array(z.number()).optional(),
  split_amounts: z.array(z.number()).optional(),
  expiry: z.string().nullish(),
  description: z.string().nullish(),
});
export type BonusToken = z.infer<typeof BonusToken>;

export const BonusBetsResult = z.looseObject({
  success: z.boolean(),
  bonus_bets: z.array(BonusToken),
  total_bonus: z.number().optional(),
  count: z.number().optional(),
});
export type BonusBetsResult = z.infer<typeof BonusBetsResult>;

/** v3 names new_amount_per_bet/num_splits; the deprecated v2 names new_amount/num_pieces. */
export const SplitResult = z.looseObject({
  success: z.boolean(),
  message: z.string().optional(),
  original_amount: z.number().optional(),
  new_amount_per_bet: z.number().optional(),
  num_splits: z.number().optional(),
  new_amount: z.number().optional(),
  num_pieces: z.number().optional(),
  token_id: z.string().optional(),
});
export type SplitResult = z.infer<typeof SplitResult>;
