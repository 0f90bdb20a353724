import { z } from 'zod';
import {
  callbackUrl,
  isoDay,
  nonEmpty,
  numberish,
  positiveInt,
  positiveMoney,
  positiveOdds,
  raceType,
  randomDelay,
  sportsSelectionFields,
} from './common.js';

const racingMarket = z.enum(['win', 'place'], {
  error: (issue) =>
    issue.input === 'each_way'
      ? "each_way is not supported by the gateway: use 'win' or 'place'"
      : "must be 'win' or 'place'",
});

export const BetType = z.enum([
  'non_promo',
  'bonus',
  '2',
  '2/3',
  '2/3/4',
  'bonus_betboost_25pc',
  'bonus_betboost_50pc',
  'pump',
]);

/** Fields every place_bet body may carry. */
const betCommon = {
  session_id: nonEmpty,
  stake: positiveMoney,
  target_odds: positiveOdds,
  max_odds: positiveOdds.nullable().optional(),
  use_boost: z.boolean().optional(),
  betboost: z.boolean().optional(),
  use_bonus_bet: z.boolean().optional(),
  promo_name: z.string().optional(),
  skip_if_no_promo: z.boolean().optional(),
  bet_type: BetType.optional(),
  callback_url: callbackUrl.optional(),
  random_delay: randomDelay.optional(),
};

const racingRace = {
  category: z.literal('racing'),
  track: nonEmpty,
  race_num: positiveInt,
  race_type: raceType.optional(),
  country: z.string().optional(),
  date: isoDay,
};

const maxOddsRule = <T extends { target_odds: number; max_odds?: number | null | undefined }>(b: T) =>
  b.max_odds == null || b.max_odds >= b.target_odds;
const maxOddsIssue = { message: 'must be at least target_odds (or null for no ceiling)', path: ['max_odds'] };

export const RacingSingleBet = z
  .strictObject({ ...betCommon, ...racingRace, runner: nonEmpty, market: racingMarket })
  .refine(maxOddsRule, maxOddsIssue);

export const RacingLeg = z.strictObject({ runner: nonEmpty, market: racingMarket });

export const RacingSameRaceMulti = z
  .strictObject({
    ...betCommon,
    ...racingRace,
    is_same_event_multi: z.literal(true),
    legs: z.array(RacingLeg).min(2, 'a same-race multi needs at least 2 legs'),
  })
  .refine(maxOddsRule, maxOddsIssue);

export const SportsSelectionBet = z
  .strictObject({
    ...betCommon,
    category: z.literal('sports'),
    ...sportsSelectionFields,
  })
  .refine(maxOddsRule, maxOddsIssue);

export const SportsMarketRefBet = z
  .strictObject({
    ...betCommon,
    category: z.literal('sports'),
    market_ref: nonEmpty,
    epk: z.string().min(1, 'is required with market_ref (send the event key of the card)'),
    sport: z.string().min(1, 'is required with market_ref'),
    site_event_id: z.string().optional(),
  })
  .refine(maxOddsRule, maxOddsIssue);

export const PlaceBetRequest = z.union([RacingSingleBet, RacingSameRaceMulti, SportsSelectionBet, SportsMarketRefBet]);
export type RacingSingleBet = z.input<typeof RacingSingleBet>;
export type RacingSameRaceMulti = z.input<typeof RacingSameRaceMulti>;
export type SportsSelectionBet = z.input<typeof SportsSelectionBet>;
export type SportsMarketRefBet = z.input<typeof SportsMarketRefBet>;
/** Body of POST /v3/place_bet: a racing single, a same-race multi, a sports bet by selection or by market_ref. */
export type PlaceBetRequest = RacingSingleBet | RacingSameRaceMulti | SportsSelectionBet | SportsMarketRefBet;
/** What `bets.placeRacing()` takes: a racing bet with `category` implied by the method. */
export type RacingBetRequest =
  | (Omit<RacingSingleBet, 'category'> & { category?: 'racing' })
  | (Omit<RacingSameRaceMulti, 'category'> & { category?: 'racing' });
/** What `bets.placeSports()` takes: a sports bet with `category` implied by the method. */
export type SportsBetRequest =
  | (Omit<SportsMarketRefBet, 'category'> & { category?: 'sports' })
  | (Omit<SportsSelectionBet, 'category'> & { category?: 'sports' });

/** Picks the one variant a body is meant to be, so errors name the field instead of listing four unions. */
export function placeBetSchemaFor(input: unknown) {
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (body.category === 'racing') return body.is_same_event_multi === true ? RacingSameRaceMulti : RacingSingleBet;
  if (body.category === 'sports') return 'market_ref' in body ? SportsMarketRefBet : SportsSelectionBet;
  return z.strictObject({ category: z.enum(['racing', 'sports'], { error: "must be 'racing' or 'sports'" }) });
}

/** Poll/webhook result of a placed bet; the webhook example carries the receipt flat, polls nest it. */
export const BetReceipt = z.looseObject({
  success: z.boolean(),
  bet_id: z.string().nullish(),
  odds: z.number().nullish(),
  stake: z.number().nullish(),
  potential_return: z.number().nullish(),
  error: z.string().nullish(),
});

export const BetResult = z.looseObject({
  success: z.boolean(),
  bet_result: BetReceipt.optional(),
  bet_id: z.string().nullish(),
  odds: z.number().nullish(),
  stake: z.number().nullish(),
  potential_return: z.number().nullish(),
  error: z.string().nullish(),
  soft_miss: z.boolean().optional(),
  dispatched: z.looseObject({ site_event_id_source: z.string().nullish() }).optional(),
});
export type BetResult = z.infer<typeof BetResult>;

/** @deprecated Older synchronous shape of /api/place_bet. */
export const LegacyBetResponse = z.looseObject({
  success: z.boolean(),
  bet_id: numberish.nullish(),
  bookie_bet_id: numberish.nullish(),
  stake: numberish.nullish(),
  odds: numberish.nullish(),
  potential_return: numberish.nullish(),
  status: z.string().optional(),
});
export type LegacyBetResponse = z.infer<typeof LegacyBetResponse>;
