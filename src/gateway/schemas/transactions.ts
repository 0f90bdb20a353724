import { z } from 'zod';
import { nonEmpty, positiveInt, sessionScoped } from './common.js';

export const TransactionsRequest = z.strictObject({
  ...sessionScoped,
  days_back: positiveInt.optional(),
  limit: positiveInt.optional(),
});
export type TransactionsRequest = z.input<typeof TransactionsRequest>;

/** @deprecated GET /v2/transactions query (days_back at most 30, limit at most 500). */
export const LegacyTransactionsQuery = z.strictObject({
  session_id: nonEmpty,
  days_back: positiveInt.max(30, 'must be at most 30 on /v2/transactions').optional(),
  limit: positiveInt.max(500, 'must be at most 500 on /v2/transactions').optional(),
});
export type LegacyTransactionsQuery = z.input<typeof LegacyTransactionsQuery>;

export const TransactionSelection = z.looseObject({
  event: z.string().optional(),
  selection: z.string().optional(),
  market: z.string().optional(),
  odds: z.number().optional(),
  result: z.string().optional(),
});

export const Transaction = z.looseObject({
  id: z.string(),
  type: z.string(),
  status: z.string(),
  stake: z.number().nullish(),
  odds: z.number().nullish(),
  pnl: z.number().nullish(),
  is_bonus_bet: z.boolean().optional(),
  placed_at: z.string().nullish(),
  settled_at: z.string().nullish(),
  selections: z.array(TransactionSelection).optional(),
});
export type Transaction = z.infer<typeof Transaction>;

export const TransactionsResult = z.looseObject({
  success: z.boolean(),
  transactions: z.array(Transaction),
  total_count: z.number().optional(),
  has_more: z.boolean().optional(),
});
export type TransactionsResult = z.infer<typeof TransactionsResult>;
