import { z } from 'zod';
import { nonEmpty, positiveInt, raceType, sessionScoped } from './common.js';

export const PromoTokensRequest = z.strictObject({
  ...sessionScoped,
  track: nonEmpty,
  race_num: positiveInt,
  race_type: raceType.optional(),
  country: z.string().optional(),
});
export type PromoTokensRequest = z.input<typeof PromoTokensRequest>;

export const BoostTokenRequest = z.strictObject({
  session_id: nonEmpty,
  track: nonEmpty,
  race_num: positiveInt,
  race_type: raceType.optional(),
});
export type BoostTokenRequest = z.input<typeof BoostTokenRequest>;

export const BoostTokenResult = z.looseObject({ success: z.boolean(), boost_token_available: z.boolean() });
export type BoostTokenResult = z.infer<typeof BoostTokenResult>;

export const SessionPromoSummaryRequest = z.strictObject({ session_id: nonEmpty });
export type SessionPromoSummaryRequest = z.input<typeof SessionPromoSummaryRequest>;

/** The spec names /v2/session_promo_summary without a shape: only `success` is relied on, the rest is passed on. */
export const SessionPromoSummary = z.looseObject({ success: z.boolean() });
export type SessionPromoSummary = z.infer<typeof SessionPromoSummary>;

export const RacePromo = z.looseObject({
  track: z.string(),
  race_num: z.number(),
  race_type: z.string().optional(),
  promo_type: z.string().optional(),
  max_reward: z.number().nullish(),
  token_group_id: z.string().nullish(),
  valid_till: z.string().nullish(),
  event_url: z.string().nullish(),
  offer_name: z.string().nullish(),
  offer_type: z.string().nullish(),
});
export type RacePromo = z.infer<typeof RacePromo>;

export const PromosResult = z.looseObject({
  success: z.boolean(),
  promos: z.array(RacePromo),
  count: z.number().optional(),
});
export type PromosResult = z.infer<typeof PromosResult>;

export const PromoTokensResult = z.looseObject({
  success: z.boolean(),
  saver_tokens: z
    .array(
      z.looseObject({
        type: z.string(),
        max_reward: z.number().nullish(),
        is_race_specific: z.boolean().optional(),
        usage_restrictions: z.string().nullish(),
      }),
    )
    .optional(),
  bonus_boost: z
    .looseObject({
      available: z.boolean(),
      boost_percentage: z.number().nullish(),
      max_reward: z.number().nullish(),
    })
    .optional(),
});
export type PromoTokensResult = z.infer<typeof PromoTokensResult>;
