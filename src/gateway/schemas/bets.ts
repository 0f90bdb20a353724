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

/** Promo kind of a racing bet: `2`, `2/3`, `2/3/4` refund the stake on those places; `bonus_betboost_*` pay that share of winnings as a bonus bet; `pump` boosts odds with the uplift in cash. */
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
  /** The session to bet on: the key's account, and active. */
  session_id: nonEmpty,
  /** Stake in dollars. */
  stake: positiveMoney,
  /** Odds floor: the bet is refused below it. */
  target_odds: positiveOdds,
  /** Odds ceiling (at least target_odds): refused if the live matched price is above; null or omitted: none. */
  max_odds: positiveOdds.nullable().optional(),
  /** Strict boost: refuses a bet it cannot boost. */
  use_boost: z.boolean().optional(),
  /** Opportunistic boost: placed unboosted if none is offered. */
  betboost: z.boolean().optional(),
  /** Spend a bonus token whose value matches the stake; if none, the bet fails. */
  use_bonus_bet: z.boolean().optional(),
  /** A specific promo to attach. */
  promo_name: z.string().optional(),
  /** Reject instead of placing without the promo. */
  skip_if_no_promo: z.boolean().optional(),
  /** Promo kind (racing): non_promo, bonus, 2, 2/3, 2/3/4, bonus_betboost_25pc, bonus_betboost_50pc, pump. */
  bet_type: BetType.optional(),
  /** http(s) URL the signed result is POSTed to; omit to poll only. */
  callback_url: callbackUrl.optional(),
  /** `{min, max}` seconds of uniform random wait before placing. */
  random_delay: randomDelay.optional(),
};

const racingRace = {
  /** Constant `racing`. */
  category: z.literal('racing'),
  /** Track name. */
  track: nonEmpty,
  /** Race number. */
  race_num: positiveInt,
  /** `(R)` thoroughbred (default), `(G)` greyhound, `(H)` harness. */
  race_type: raceType.optional(),
  /** Region code (au, nz, gb, us); recommended: with date it resolves the exact race and the track's naming. */
  country: z.string().optional(),
  /** Race day, YYYY-MM-DD. */
  date: isoDay,
};

const maxOddsRule = <T extends { target_odds: number; max_odds?: number | null | undefined }>(b: T) =>
  b.max_odds == null || b.max_odds >= b.target_odds;
const maxOddsIssue = { message: 'must be at least target_odds (or null for no ceiling)', path: ['max_odds'] };

/** A single racing bet on one runner. */
export const RacingSingleBet = z
  .strictObject({
    ...betCommon,
    ...racingRace,
    /** Runner name. */
    runner: nonEmpty,
    /** `win` or `place` (each_way is refused). */
    market: racingMarket,
  })
  .refine(maxOddsRule, maxOddsIssue);

/** Where a multi's leg must finish: the single's markets, or the positions of the spec's stacked multis. */
const legMarket = z.enum(['win', 'place', 'top2', 'top3', 'top4'], {
  error: (issue) =>
    issue.input === 'each_way'
      ? "each_way is not supported by the gateway: use 'win' or 'place'"
      : "must be 'win', 'place', 'top2', 'top3' or 'top4'",
});

/** One leg of a same-race multi. */
export const RacingLeg = z.strictObject({
  /** Runner name. */
  runner: nonEmpty,
  /** `win`, `place`, or `top2`/`top3`/`top4` (the positions /v3/stacked_srm names; one multi alone goes here). */
  market: legMarket,
});
/** One leg of a same-race multi. */
export type RacingLeg = z.infer<typeof RacingLeg>;

/** A same-race multi: legs replace runner/market. */
export const RacingSameRaceMulti = z
  .strictObject({
    ...betCommon,
    ...racingRace,
    /** True for a same-race multi. */
    is_same_event_multi: z.literal(true),
    /** At least 2 legs. */
    legs: z.array(RacingLeg).min(2, 'a same-race multi needs at least 2 legs'),
  })
  .refine(maxOddsRule, maxOddsIssue);

/** A sports bet naming the outcome by text (competition, event, market, selection...). */
export const SportsSelectionBet = z
  .strictObject({
    ...betCommon,
    /** Constant `sports`. */
    category: z.literal('sports'),
    ...sportsSelectionFields,
  })
  .refine(maxOddsRule, maxOddsIssue);

/** A sports bet by market_ref, the exact id from a market card (valid for that card's bookmaker and event). */
export const SportsMarketRefBet = z
  .strictObject({
    ...betCommon,
    /** Constant `sports`. */
    category: z.literal('sports'),
    /** Exact selection id from GET /v3/markets; replaces market/selection. */
    market_ref: nonEmpty,
    /** Event key of the card (required with market_ref). */
    epk: z.string().min(1, 'is required with market_ref (send the event key of the card)'),
    /** Preset sport/league key (required with market_ref). */
    sport: z.string().min(1, 'is required with market_ref'),
    /** The bookmaker's own event id, for an event not linked yet (409 site_event_id_conflict if it names another match). */
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

/** The bookmaker's receipt of a bet (`result.bet_result` of a poll; flat on `result` in the webhook example). */
export const BetReceipt = z.looseObject({
  /** Whether the bet was placed. */
  success: z.boolean(),
  /** The bookmaker's bet id. */
  bet_id: z.string().nullish(),
  /** Decimal odds struck. */
  odds: z.number().nullish(),
  /** Stake in dollars. */
  stake: z.number().nullish(),
  /** Stake times odds, in dollars, when reported. */
  potential_return: z.number().nullish(),
  /** Why it was not placed. */
  error: z.string().nullish(),
});
/** The bookmaker's receipt of a bet (`result.bet_result` of a poll; flat on `result` in the webhook example). */
export type BetReceipt = z.infer<typeof BetReceipt>;

/** Result of a place_bet job. Read it with betOutcomeOf(), which knows both shapes. */
export const BetResult = z.looseObject({
  /** Whether the bet was placed. */
  success: z.boolean(),
  /** The receipt, nested (poll shape). */
  bet_result: BetReceipt.optional(),
  /** Bet id, when the receipt is flat (webhook example). */
  bet_id: z.string().nullish(),
  /** Odds, when flat. */
  odds: z.number().nullish(),
  /** Stake, when flat. */
  stake: z.number().nullish(),
  /** Potential return, when flat. */
  potential_return: z.number().nullish(),
  /** Why it failed; a soft miss starts with `market_not_carried`. */
  error: z.string().nullish(),
  /** True when the bookmaker does not carry the market (nothing placed). */
  soft_miss: z.boolean().optional(),
  /** How the bet went out; `site_event_id_source` is `caller_unbound` when it went on the caller's site_event_id. */
  dispatched: z.looseObject({ site_event_id_source: z.string().nullish() }).optional(),
});
export type BetResult = z.infer<typeof BetResult>;

/** @deprecated Older synchronous shape of /api/place_bet (numbers may arrive as strings). */
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
