import { z } from 'zod';
import { callbackUrl, nonEmpty, positiveMoney } from './common.js';

export const AccountPromosQuery = z.strictObject({
  session_id: z.string().min(1).optional(),
  bookie: z.string().min(1).optional(),
});
export type AccountPromosQuery = z.input<typeof AccountPromosQuery>;

export const AccountPromo = z.looseObject({
  promo_id: z.number().int(),
  session_id: z.string().nullable().optional(),
  session_ids: z.array(z.string()).optional(),
  account_id: z.string().optional(),
  bookie: z.string(),
  promo: z.string(),
  label: z.string().nullish(),
  summary: z
    .looseObject({ label: z.string().nullish(), headline: z.string().nullish(), detail: z.string().nullish() })
    .nullish(),
  kind: z.string().optional(),
  track: z.string().nullish(),
  race_num: z.number().nullish(),
  race_type: z.string().nullish(),
  sport: z.string().nullish(),
  competition: z.string().nullish(),
  event: z.string().nullish(),
  date: z.string().nullish(),
  epk: z.string().nullish(),
  card_id: z.string().nullish(),
  voucher_type: z.string().nullish(),
  selection: z.string().nullish(),
  base_odds: z.number().nullish(),
  boosted_odds: z.number().nullish(),
  placeable_by_id: z.boolean(),
  how_to_bet: z
    .looseObject({ endpoint: z.string().nullable(), promo_name: z.string().nullish(), note: z.string().nullish() })
    .optional(),
});
export type AccountPromo = z.infer<typeof AccountPromo>;

export const AccountPromosResult = z.looseObject({
  success: z.boolean(),
  count: z.number().optional(),
  promos: z.array(AccountPromo),
});
export type AccountPromosResult = z.infer<typeof AccountPromosResult>;

export const PlacePromoRequest = z.strictObject({
  session_id: nonEmpty,
  promo_id: z.number().int('must be a whole number (promo_id from accountPromos.list)'),
  stake: positiveMoney,
  callback_url: callbackUrl.optional(),
  idempotency_key: z.string().min(1, 'must be 1 to 200 characters').max(200, 'must be 1 to 200 characters').optional(),
  trace_id: z.string().optional(),
});
export type PlacePromoRequest = z.input<typeof PlacePromoRequest>;

export const PromoBetResult = z.looseObject({
  success: z.boolean(),
  bet_id: z.string().nullish(),
  odds: z.number().nullish(),
  stake: z.number().nullish(),
  is_bonus_bet: z.boolean().optional(),
  bonus_token_id: z.string().nullish(),
  market: z.string().nullish(),
  runner: z.string().nullish(),
  error: z.string().nullish(),
});
export type PromoBetResult = z.infer<typeof PromoBetResult>;
