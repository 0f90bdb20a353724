import { z } from 'zod';
import { nonEmpty, openEnum, positiveInt, sessionScoped } from './common.js';

/** Body of POST /v3/transactions. */
export const TransactionsRequest = z.strictObject({
  ...sessionScoped,
  /** Days of history, > 0. Default 7. */
  days_back: positiveInt.optional(),
  /** Most rows, > 0. Default 50. */
  limit: positiveInt.optional(),
});
/** Body of POST /v3/transactions. */
export type TransactionsRequest = z.input<typeof TransactionsRequest>;

/** @deprecated GET /v2/transactions query (days_back at most 30, limit at most 500). */
export const LegacyTransactionsQuery = z.strictObject({
  /** The session. */
  session_id: nonEmpty,
  /** Days of history, at most 30. Default 7. */
  days_back: positiveInt.max(30, 'must be at most 30 on /v2/transactions').optional(),
  /** Most rows, at most 500. Default 50. */
  limit: positiveInt.max(500, 'must be at most 500 on /v2/transactions').optional(),
});
/** @deprecated GET /v2/transactions query (days_back at most 30, limit at most 500). */
export type LegacyTransactionsQuery = z.input<typeof LegacyTransactionsQuery>;

/** `won`, `lost` or `pending`. */
export type SelectionResult = 'won' | 'lost' | 'pending';

/** One selection of a transaction. */
export const TransactionSelection = z.looseObject({
  /** Event name. */
  event: z.string().optional(),
  /** Selection name. */
  selection: z.string().optional(),
  /** Market name. */
  market: z.string().optional(),
  /** Decimal odds. */
  odds: z.number().optional(),
  /** `won`, `lost` or `pending`. */
  result: openEnum<SelectionResult>().optional(),
});
/** One selection of a transaction. */
export type TransactionSelection = z.infer<typeof TransactionSelection>;

/** `bet`, `deposit` or `withdrawal`. */
export type TransactionType = 'bet' | 'deposit' | 'withdrawal';
/** `won`, `lost`, `pending`, `void` or `cashed_out`. */
export type TransactionStatus = 'won' | 'lost' | 'pending' | 'void' | 'cashed_out';

/** A bet, deposit or withdrawal on the account. */
export const Transaction = z.looseObject({
  /** Transaction id (a bet's id for bets). */
  id: z.string(),
  /** `bet`, `deposit` or `withdrawal`. */
  type: openEnum<TransactionType>(),
  /** `won`, `lost`, `pending`, `void` or `cashed_out`. */
  status: openEnum<TransactionStatus>(),
  /** Stake in dollars. */
  stake: z.number().nullish(),
  /** Decimal odds; null while pending. */
  odds: z.number().nullish(),
  /** Profit and loss in dollars: positive for won, negative for lost (0 for a lost bonus bet). */
  pnl: z.number().nullish(),
  /** Whether a bonus token paid the stake. */
  is_bonus_bet: z.boolean().optional(),
  /** When placed. */
  placed_at: z.string().nullish(),
  /** When settled; null while pending. */
  settled_at: z.string().nullish(),
  /** The bet's selections. */
  selections: z.array(TransactionSelection).optional(),
});
/** A bet, deposit or withdrawal on the account. */
export type Transaction = z.infer<typeof Transaction>;

/** Result of a transactions job (and the inline v2 answer). */
export const TransactionsResult = z.looseObject({
  /** Whether the history was read. */
  success: z.boolean(),
  /** Newest first. */
  transactions: z.array(Transaction),
  /** Rows matching in total. */
  total_count: z.number().optional(),
  /** More rows than limit. */
  has_more: z.boolean().optional(),
});
/** Result of a transactions job (and the inline v2 answer). */
export type TransactionsResult = z.infer<typeof TransactionsResult>;
