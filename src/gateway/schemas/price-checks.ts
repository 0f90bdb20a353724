import { z } from 'zod';
import { callbackUrl, isoDay, nonEmpty, numberish, positiveInt, raceType, sportsSelectionFields } from './common.js';

const sessionIds = z
  .array(nonEmpty, { error: 'is required: a list of session ids' })
  .min(1, 'must list at least one session id');

export const RacingPriceCheckRequest = z.strictObject({
  session_ids: sessionIds,
  category: z.literal('racing'),
  track: nonEmpty,
  race_num: positiveInt,
  race_type: raceType.optional(),
  date: isoDay,
  runner: z.string().optional(),
  callback_url: callbackUrl.optional(),
});
/** Body of a racing price check (POST /v3/price_check with category `racing`). */
export type RacingPriceCheckRequest = z.input<typeof RacingPriceCheckRequest>;
/** What `priceChecks.racing()` takes: the body with `category` implied by the method. */
export type RacingPriceCheckParams = Omit<RacingPriceCheckRequest, 'category'> & { category?: 'racing' };

const sportsHead = {
  session_ids: sessionIds,
  category: z.literal('sports'),
  callback_url: callbackUrl.optional(),
};

export const SportsPriceCheckByRef = z.strictObject({
  ...sportsHead,
  market_ref: nonEmpty,
  epk: z.string().min(1, 'is required with market_ref'),
  sport: z.string().min(1, 'is required with market_ref'),
  site_event_id: z.string().optional(),
});

export const SportsPriceCheckBySelection = z.strictObject({
  ...sportsHead,
  ...sportsSelectionFields,
});

/** Sports price check by market_ref (from a market card); requires epk and sport. */
export type SportsPriceCheckByRef = z.input<typeof SportsPriceCheckByRef>;
/** Sports price check naming the outcome by text (competition, event, market, selection...). */
export type SportsPriceCheckBySelection = z.input<typeof SportsPriceCheckBySelection>;
/** Body of a sports price check (POST /v3/price_check with category `sports`). */
export type SportsPriceCheckRequest = SportsPriceCheckByRef | SportsPriceCheckBySelection;
/** What `priceChecks.sports()` takes: the body with `category` implied by the method. */
export type SportsPriceCheckParams =
  | (Omit<SportsPriceCheckByRef, 'category'> & { category?: 'sports' })
  | (Omit<SportsPriceCheckBySelection, 'category'> & { category?: 'sports' });

export function sportsPriceCheckSchemaFor(input: unknown) {
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  return 'market_ref' in body ? SportsPriceCheckByRef : SportsPriceCheckBySelection;
}

/** One query of the 202: pending (correlation id only) or already resolved on the sports fast path. */
export const PriceCheckQuery = z.looseObject({
  session_id: z.string(),
  correlation_id: z.string().nullish(),
  status: z.string().optional(),
  timeout_at: z.string().optional(),
  submitted_at: z.string().optional(),
});
export type PriceCheckQuery = z.infer<typeof PriceCheckQuery>;

export const PriceCheckSubmission = z.looseObject({
  status: z.string(),
  category: z.string().optional(),
  race: z
    .looseObject({
      track: z.string().optional(),
      race_num: z.number().optional(),
      race_type: z.string().optional(),
      date: z.string().optional(),
    })
    .optional(),
  queries: z.array(PriceCheckQuery),
  submitted_at: z.string().optional(),
  timeout_at: z.string().optional(),
});
export type PriceCheckSubmission = z.infer<typeof PriceCheckSubmission>;

/** One market's price for a runner. */
export const RacingPrice = z.looseObject({
  /** `win` or `place` (other markets tolerated). */
  market: z.string(),
  /** Decimal price; null when the bookmaker shows none. */
  price: z.number().nullable(),
});
/** One market's price for a runner. */
export type RacingPrice = z.infer<typeof RacingPrice>;

/** A runner and its prices, from a resolved racing price check. */
export const RacingPriceSelection = z.looseObject({
  /** Runner name. */
  runner: z.string(),
  /** One price per market the bookmaker offers for the runner. */
  prices: z.array(RacingPrice),
});
/** A runner and its prices, from a resolved racing price check. */
export type RacingPriceSelection = z.infer<typeof RacingPriceSelection>;

/** A priced sports outcome, from a resolved sports price check (the spec leaves its payload open). */
export const SportsPriceSelection = z.looseObject({
  /** The outcome: home, away, over, under, a team or a player, as the market names it. */
  selection: z.string().optional(),
  /** Display label of the outcome. */
  label: z.string().optional(),
  /** Market id. */
  market: z.string().optional(),
  /** Live decimal price; null or absent when the bookmaker shows none. */
  price: z.number().nullish(),
  /** The market_ref the price is for, when checked by market_ref. */
  market_ref: z.string().nullish(),
  /** Line of an over/under or handicap. */
  line: numberish.nullish(),
  /** Player of a player prop. */
  player: z.string().nullish(),
});
/** A priced sports outcome, from a resolved sports price check (the spec leaves its payload open). */
export type SportsPriceSelection = z.infer<typeof SportsPriceSelection>;

/** `success` or `failure` (other values tolerated). */
export type PriceCheckStatus = 'success' | 'failure' | (string & {});

const resolvedHead = {
  /** `success` or `failure`. */
  status: z.string() as z.ZodType<PriceCheckStatus>,
  /** `racing` or `sports`. */
  category: z.string().optional(),
  /** The session the price was read on. */
  session_id: z.string().optional(),
  /** Bookmaker of that session. */
  bookie: z.string().optional(),
  /** Why the check failed, when it did. */
  error: z.string().nullish(),
};

/** Resolved payload of a racing price check: one row per runner (or the one filtered runner). */
export const RacingPriceCheckResult = z.looseObject({
  ...resolvedHead,
  /** Runners with their prices per market. */
  selections: z.array(RacingPriceSelection).optional(),
});
/** Resolved payload of a racing price check: one row per runner (or the one filtered runner). */
export type RacingPriceCheckResult = z.infer<typeof RacingPriceCheckResult>;

/** Resolved payload of a sports price check. */
export const SportsPriceCheckResult = z.looseObject({
  ...resolvedHead,
  /** Priced outcomes; `price` is the live price. */
  selections: z.array(SportsPriceSelection).optional(),
});
/** Resolved payload of a sports price check. */
export type SportsPriceCheckResult = z.infer<typeof SportsPriceCheckResult>;

/** Either resolved payload (when the category is not known statically). */
export const PriceCheckResult = z.looseObject({
  ...resolvedHead,
  selections: z.array(z.union([RacingPriceSelection, SportsPriceSelection])).optional(),
});
/** Either resolved payload (when the category is not known statically). */
export type PriceCheckResult = RacingPriceCheckResult | SportsPriceCheckResult;
