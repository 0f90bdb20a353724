import { z } from 'zod';
import {
  callbackUrl,
  isoDay,
  nonEmpty,
  positiveInt,
  positiveMoney,
  positiveOdds,
  raceType,
  randomDelay,
} from './common.js';

/** A leg of a multi in a stacked SRM. */
export const SrmLeg = z.strictObject({
  /** Runner name, fuzzy-matched to the race card. */
  runner: nonEmpty,
  /** `win` (default), `top2`, `top3`, `top4` (aliases 2nd, 3rd, 4th). */
  position: z.enum(['win', 'top2', 'top3', 'top4', '2nd', '3rd', '4th']).optional(),
});
/** A leg of a multi in a stacked SRM. */
export type SrmLeg = z.input<typeof SrmLeg>;

/** One same-race multi of a stacked SRM. */
export const StackedSrmBet = z.strictObject({
  /** Stake in dollars; positive. */
  stake: positiveMoney,
  /** At least 2 legs. */
  legs: z.array(SrmLeg).min(2, 'each multi needs at least 2 legs'),
  /** Floor on the combined odds: below it the whole stack is aborted before placement. */
  target_odds: positiveOdds.optional(),
  /** `non_promo` (default) or `bonus`. */
  bet_type: z.enum(['non_promo', 'bonus']).optional(),
  /** Same as bet_type bonus. */
  use_bonus_bet: z.boolean().optional(),
  /** Apply a boost. */
  use_boost: z.boolean().optional(),
});
/** One same-race multi of a stacked SRM. */
export type StackedSrmBet = z.input<typeof StackedSrmBet>;

/** Body of POST /v3/stacked_srm (bookie_a sessions only). */
export const StackedSrmRequest = z.strictObject({
  /** A bookie_a session. */
  session_id: nonEmpty,
  /** Track name. */
  track: nonEmpty,
  /** Race number. */
  race_num: positiveInt,
  /** `(R)` (default), `(G)` or `(H)`. */
  race_type: raceType.optional(),
  /** Race day, YYYY-MM-DD. */
  date: isoDay,
  /** Region code. */
  country: z.string().optional(),
  /** `{min, max}` seconds of random wait before placing. */
  random_delay: randomDelay.optional(),
  /** http(s) URL the signed result is POSTed to. */
  callback_url: callbackUrl.optional(),
  /** At least 2 multis, all on this race. */
  bets: z
    .array(StackedSrmBet)
    .min(2, 'needs at least 2 multis (a single multi goes to bets.place with is_same_event_multi)'),
});
/** Body of POST /v3/stacked_srm (bookie_a sessions only). */
export type StackedSrmRequest = z.input<typeof StackedSrmRequest>;

/** A leg of a placed multi. */
export const SrmResultLeg = z.looseObject({
  /** Runner name. */
  runner: z.string().optional(),
  /** Position. */
  position: z.string().nullish(),
  /** Runner number. */
  number: z.number().nullish(),
  /** Leg odds. */
  odds: z.number().nullish(),
  /** The bookmaker's proposition id. */
  proposition_id: z.string().nullish(),
});
/** A leg of a placed multi. */
export type SrmResultLeg = z.infer<typeof SrmResultLeg>;

/** One submitted multi's outcome, in submission order. */
export const SrmBetResult = z.looseObject({
  /** Whether this multi was placed. */
  success: z.boolean(),
  /** Bet id; null on failure. */
  bet_id: z.string().nullish(),
  /** Combined odds. */
  odds: z.number().nullish(),
  /** Stake in dollars. */
  stake: z.number().nullish(),
  /** `srm`. */
  market: z.string().optional(),
  /** Track name. */
  track: z.string().optional(),
  /** Race number. */
  race_num: z.number().optional(),
  /** The legs as placed. */
  legs: z.array(SrmResultLeg).optional(),
  /** Why it was refused. */
  error: z.string().nullish(),
});
/** One submitted multi's outcome, in submission order. */
export type SrmBetResult = z.infer<typeof SrmBetResult>;

/** Result of a stacked_srm job. success false with empty results: a pre-confirm failure, nothing placed. */
export const StackedSrmResult = z.looseObject({
  /** True if at least one multi was placed. */
  success: z.boolean(),
  /** Multis placed. */
  placed: z.number().optional(),
  /** Multis refused. */
  failed: z.number().optional(),
  /** Why the stack failed before placement. */
  error: z.string().nullish(),
  /** One entry per submitted multi, in order. */
  results: z.array(SrmBetResult).optional(),
});
/** Result of a stacked_srm job. success false with empty results: a pre-confirm failure, nothing placed. */
export type StackedSrmResult = z.infer<typeof StackedSrmResult>;
