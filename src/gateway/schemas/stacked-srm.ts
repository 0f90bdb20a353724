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

export const SrmLeg = z.strictObject({
  runner: nonEmpty,
  position: z.enum(['win', 'top2', 'top3', 'top4', '2nd', '3rd', '4th']).optional(),
});

export const StackedSrmBet = z.strictObject({
  stake: positiveMoney,
  legs: z.array(SrmLeg).min(2, 'each multi needs at least 2 legs'),
  target_odds: positiveOdds.optional(),
  bet_type: z.enum(['non_promo', 'bonus']).optional(),
  use_bonus_bet: z.boolean().optional(),
  use_boost: z.boolean().optional(),
});

export const StackedSrmRequest = z.strictObject({
  session_id: nonEmpty,
  track: nonEmpty,
  race_num: positiveInt,
  race_type: raceType.optional(),
  date: isoDay,
  country: z.string().optional(),
  random_delay: randomDelay.optional(),
  callback_url: callbackUrl.optional(),
  bets: z
    .array(StackedSrmBet)
    .min(2, 'needs at least 2 multis (a single multi goes to bets.place with is_same_event_multi)'),
});
export type StackedSrmRequest = z.input<typeof StackedSrmRequest>;

export const SrmResultLeg = z.looseObject({
  runner: z.string().optional(),
  position: z.string().nullish(),
  number: z.number().nullish(),
  odds: z.number().nullish(),
  proposition_id: z.string().nullish(),
});

export const StackedSrmResult = z.looseObject({
  success: z.boolean(),
  placed: z.number().optional(),
  failed: z.number().optional(),
  error: z.string().nullish(),
  results: z
    .array(
      z.looseObject({
        success: z.boolean(),
        bet_id: z.string().nullish(),
        odds: z.number().nullish(),
        stake: z.number().nullish(),
        market: z.string().optional(),
        track: z.string().optional(),
        race_num: z.number().optional(),
        legs: z.array(SrmResultLeg).optional(),
        error: z.string().nullish(),
      }),
    )
    .optional(),
});
export type StackedSrmResult = z.infer<typeof StackedSrmResult>;
