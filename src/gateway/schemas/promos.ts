import { z } from 'zod';
import { nonEmpty, positiveInt, raceType, sessionScoped } from './common.js';

/** Body of POST /v3/promo_tokens. */
export const PromoTokensRequest = z.strictObject({
  ...sessionScoped,
  /** Track name. */
  track: nonEmpty,
  /** Race number, > 0. */
  race_num: positiveInt,
  /** `(R)` (default), `(G)` or `(H)`. */
  race_type: raceType.optional(),
  /** Region code. */
  country: z.string().optional(),
});
/** Body of POST /v3/promo_tokens. */
export type PromoTokensRequest = z.input<typeof PromoTokensRequest>;

/** Body of POST /v2/boost_token (synchronous, not deprecated). */
export const BoostTokenRequest = z.strictObject({
  /** The session. */
  session_id: nonEmpty,
  /** Track name. */
  track: nonEmpty,
  /** Race number. */
  race_num: positiveInt,
  /** `(R)` (default), `(G)` or `(H)`. */
  race_type: raceType.optional(),
});
/** Body of POST /v2/boost_token (synchronous, not deprecated). */
export type BoostTokenRequest = z.input<typeof BoostTokenRequest>;

/** Answer of POST /v2/boost_token. */
export const BoostTokenResult = z.looseObject({
  /** Whether the check ran. */
  success: z.boolean(),
  /** Whether a boost token (2x, 3x winnings for extra stake) is available for the race. */
  boost_token_available: z.boolean(),
});
/** Answer of POST /v2/boost_token. */
export type BoostTokenResult = z.infer<typeof BoostTokenResult>;

/** Body of POST /v2/session_promo_summary. */
export const SessionPromoSummaryRequest = z.strictObject({
  /** The session. */
  session_id: nonEmpty,
});
/** Body of POST /v2/session_promo_summary. */
export type SessionPromoSummaryRequest = z.input<typeof SessionPromoSummaryRequest>;

/** The spec names /v2/session_promo_summary without a shape: only `success` is relied on, the rest is passed on. */
export const SessionPromoSummary = z.looseObject({
  /** Whether the summary was read. */
  success: z.boolean(),
});
/** The spec names /v2/session_promo_summary without a shape: only `success` is relied on, the rest is passed on. */
export type SessionPromoSummary = z.infer<typeof SessionPromoSummary>;

/** A race promo (element of the /v3/promos result). */
export const RacePromo = z.looseObject({
  /** Track name. */
  track: z.string(),
  /** Race number. */
  race_num: z.number(),
  /** Race type code R, G or H. */
  race_type: z.string().optional(),
  /** e.g. `2/3`. */
  promo_type: z.string().optional(),
  /** Largest reward in dollars. */
  max_reward: z.number().nullish(),
  /** Token group id. */
  token_group_id: z.string().nullish(),
  /** Valid until (timestamp). */
  valid_till: z.string().nullish(),
  /** Path of the event page. */
  event_url: z.string().nullish(),
  /** Offer name. */
  offer_name: z.string().nullish(),
  /** e.g. `stake_back`. */
  offer_type: z.string().nullish(),
});
/** A race promo (element of the /v3/promos result). */
export type RacePromo = z.infer<typeof RacePromo>;

/** Result of a promos job. */
export const PromosResult = z.looseObject({
  /** Whether the promos were read. */
  success: z.boolean(),
  /** Today's race promos. */
  promos: z.array(RacePromo),
  /** Number of promos. */
  count: z.number().optional(),
});
/** Result of a promos job. */
export type PromosResult = z.infer<typeof PromosResult>;

/** A saver token usable on a race. */
export const SaverToken = z.looseObject({
  /** Token kind. */
  type: z.string(),
  /** Largest reward in dollars. */
  max_reward: z.number().nullish(),
  /** Race-specific tokens come first. */
  is_race_specific: z.boolean().optional(),
  /** Restrictions in words. */
  usage_restrictions: z.string().nullish(),
});
/** A saver token usable on a race. */
export type SaverToken = z.infer<typeof SaverToken>;

/** Result of a promo_tokens job. */
export const PromoTokensResult = z.looseObject({
  /** Whether the tokens were read. */
  success: z.boolean(),
  /** Saver tokens, race-specific first. */
  saver_tokens: z.array(SaverToken).optional(),
  /** The race's bonus boost. */
  bonus_boost: z
    .looseObject({
      /** Whether a boost is available. */
      available: z.boolean(),
      /** Boost percentage. */
      boost_percentage: z.number().nullish(),
      /** Largest reward in dollars. */
      max_reward: z.number().nullish(),
    })
    .optional(),
});
/** Result of a promo_tokens job. */
export type PromoTokensResult = z.infer<typeof PromoTokensResult>;
