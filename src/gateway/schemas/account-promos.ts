import { z } from 'zod';
import { callbackUrl, nonEmpty, openEnum, positiveMoney } from './common.js';

/** Query of GET /v3/account_promos. */
export const AccountPromosQuery = z.strictObject({
  /** Only this session's account (must be the caller's, else 403); omit for all accounts on the key. */
  session_id: z.string().min(1).optional(),
  /** Only this bookmaker. */
  bookie: z.string().min(1).optional(),
});
/** Query of GET /v3/account_promos. */
export type AccountPromosQuery = z.input<typeof AccountPromosQuery>;

/** An active promo on one of the key's accounts (element of GET /v3/account_promos). */
export const AccountPromo = z.looseObject({
  /** Id for place_promo. */
  promo_id: z.number().int(),
  /** The requested session, else the caller's first active session on the account (null if none running). */
  session_id: z.string().nullable().optional(),
  /** All the caller's active sessions on the account. */
  session_ids: z.array(z.string()).optional(),
  /** Account id (UUID). */
  account_id: z.string().optional(),
  /** Bookmaker. */
  bookie: z.string(),
  /** Code such as `bet_boost`, `boost`, `2/3`, `bonus`. */
  promo: openEnum<'bet_boost' | 'boost' | '2/3' | 'bonus'>(),
  /** Display label. */
  label: z.string().nullish(),
  /** label, headline and detail. */
  summary: z
    .looseObject({ label: z.string().nullish(), headline: z.string().nullish(), detail: z.string().nullish() })
    .nullish(),
  /** `racing`, `sports` or `deposit`. */
  kind: openEnum<'racing' | 'sports' | 'deposit'>().optional(),
  /** Racing rows: track. */
  track: z.string().nullish(),
  /** Racing rows: race number. */
  race_num: z.number().nullish(),
  /** Racing rows: race type. */
  race_type: z.string().nullish(),
  /** Sports rows: sport. */
  sport: z.string().nullish(),
  /** Sports rows: competition. */
  competition: z.string().nullish(),
  /** Sports rows: event. */
  event: z.string().nullish(),
  /** Day of the race or fixture. */
  date: z.string().nullish(),
  /** Event key, when present. */
  epk: z.string().nullish(),
  /** Bet-boost cards: card id. */
  card_id: z.string().nullish(),
  /** Bet-boost cards: voucher type. */
  voucher_type: z.string().nullish(),
  /** Bet-boost cards: the selection. */
  selection: z.string().nullish(),
  /** Bet-boost cards: odds before the boost. */
  base_odds: z.number().nullish(),
  /** Bet-boost cards: boosted odds; absent until captured. */
  boosted_odds: z.number().nullish(),
  /** True only for a single-fixture bet-boost card (bookie_c) whose boosted price has been captured. */
  placeable_by_id: z.boolean(),
  /** `{endpoint: /v3/place_promo}`, `{endpoint: /v3/place_bet, promo_name, note}` or `{endpoint: null, note}`. */
  how_to_bet: z
    .looseObject({ endpoint: z.string().nullable(), promo_name: z.string().nullish(), note: z.string().nullish() })
    .optional(),
});
/** An active promo on one of the key's accounts (element of GET /v3/account_promos). */
export type AccountPromo = z.infer<typeof AccountPromo>;

/** Answer of GET /v3/account_promos. */
export const AccountPromosResult = z.looseObject({
  /** Whether the promos were read. */
  success: z.boolean(),
  /** Number of promos. */
  count: z.number().optional(),
  /** Active promos only; no bookmaker is contacted. */
  promos: z.array(AccountPromo),
});
/** Answer of GET /v3/account_promos. */
export type AccountPromosResult = z.infer<typeof AccountPromosResult>;

/** Body of POST /v3/place_promo. */
export const PlacePromoRequest = z.strictObject({
  /** Active session on the account holding the promo. */
  session_id: nonEmpty,
  /** promo_id from accountPromos.list(). */
  promo_id: z.number().int('must be a whole number (promo_id from accountPromos.list)'),
  /** Stake in dollars. */
  stake: positiveMoney,
  /** http(s) URL the signed result is POSTed to. */
  callback_url: callbackUrl.optional(),
  /** 1 to 200 characters: a retry with the same key returns the same job and places nothing new. Generated when absent. */
  idempotency_key: z.string().min(1, 'must be 1 to 200 characters').max(200, 'must be 1 to 200 characters').optional(),
  /** Echoed back in the envelope. */
  trace_id: z.string().optional(),
});
/** Body of POST /v3/place_promo. */
export type PlacePromoRequest = z.input<typeof PlacePromoRequest>;

/** Result of a place_promo job (and of bonus bets): the receipt flat on `result`. */
export const PromoBetResult = z.looseObject({
  /** Whether the bet was placed. */
  success: z.boolean(),
  /** The bookmaker's bet id. */
  bet_id: z.string().nullish(),
  /** Decimal odds struck. */
  odds: z.number().nullish(),
  /** Stake in dollars. */
  stake: z.number().nullish(),
  /** Whether a bonus token paid the stake. */
  is_bonus_bet: z.boolean().optional(),
  /** The token spent, when one was. */
  bonus_token_id: z.string().nullish(),
  /** Market name. */
  market: z.string().nullish(),
  /** Runner or selection. */
  runner: z.string().nullish(),
  /** Why it was not placed. */
  error: z.string().nullish(),
});
/** Result of a place_promo job (and of bonus bets): the receipt flat on `result`. */
export type PromoBetResult = z.infer<typeof PromoBetResult>;
