import { z } from 'zod';
import { openEnum, sessionScoped } from './common.js';

/** Body of the session-only async endpoints (POST /v3/bonus_bets, /v3/promos). */
export const SessionJobRequest = z.strictObject({ ...sessionScoped });
/** Body of the session-only async endpoints (POST /v3/bonus_bets, /v3/promos). */
export type SessionJobRequest = z.input<typeof SessionJobRequest>;

/** Body of POST /v3/split_bonus_bet. */
export const SplitBonusBetRequest = z.strictObject({
  ...sessionScoped,
  /** Largest value of a piece, in dollars; positive. */
  max_amount: z.number().finite().positive('must be a positive number of dollars (largest piece)'),
});
/** Body of POST /v3/split_bonus_bet. */
export type SplitBonusBetRequest = z.input<typeof SplitBonusBetRequest>;

/** A bonus token held by the session's account. */
export const BonusToken = z.looseObject({
  /** Token id. */
  id: z.string(),
  /** Value in dollars. */
  amount: z.number(),
  /** e.g. `AVAILABLE`, `USED`. */
  status: openEnum<'AVAILABLE' | 'USED'>(),
  /** Piece counts it can be split into. */
  split_options: z.array(z.number()).optional(),
  /** Value per piece, aligned with split_options. */
  split_amounts: z.array(z.number()).optional(),
  /** Expiry timestamp. */
  expiry: z.string().nullish(),
  /** Description. */
  description: z.string().nullish(),
});
/** A bonus token held by the session's account. */
export type BonusToken = z.infer<typeof BonusToken>;

/** Result of a bonus_bets job. */
export const BonusBetsResult = z.looseObject({
  /** Whether the tokens were read. */
  success: z.boolean(),
  /** The tokens. */
  bonus_bets: z.array(BonusToken),
  /** Sum of the tokens' values, in dollars. */
  total_bonus: z.number().optional(),
  /** Number of tokens. */
  count: z.number().optional(),
});
/** Result of a bonus_bets job. */
export type BonusBetsResult = z.infer<typeof BonusBetsResult>;

/** Result of a split: v3 names new_amount_per_bet/num_splits; the deprecated v2 names new_amount/num_pieces. */
export const SplitResult = z.looseObject({
  /** Whether the token was split. */
  success: z.boolean(),
  /** The gateway's message (why not, on failure). */
  message: z.string().optional(),
  /** The token's value before. */
  original_amount: z.number().optional(),
  /** Value of each piece (v3). */
  new_amount_per_bet: z.number().optional(),
  /** Number of pieces (v3). */
  num_splits: z.number().optional(),
  /** Value of each piece (v2). */
  new_amount: z.number().optional(),
  /** Number of pieces (v2). */
  num_pieces: z.number().optional(),
  /** The token that was split. */
  token_id: z.string().optional(),
});
/** Result of a split: v3 names new_amount_per_bet/num_splits; the deprecated v2 names new_amount/num_pieces. */
export type SplitResult = z.infer<typeof SplitResult>;
