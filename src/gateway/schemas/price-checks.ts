import { z } from 'zod';
import { callbackUrl, isoDay, nonEmpty, numberish, positiveInt, raceType, sportsSelectionFields } from './common.js';

const sessionIds = z
  .array(nonEmpty, { error: 'is required: a list of session ids' })
  .min(1, 'must list at least one session id');

/** Body of a racing price check (POST /v3/price_check). */
export const RacingPriceCheckRequest = z.strictObject({
  /** Sessions to price on: one job per session. */
  session_ids: sessionIds,
  /** Constant `racing` (implied by priceChecks.racing). */
  category: z.literal('racing'),
  /** Track name. */
  track: nonEmpty,
  /** Race number. */
  race_num: positiveInt,
  /** `(R)` (default), `(G)` or `(H)`. */
  race_type: raceType.optional(),
  /** Race day, YYYY-MM-DD. */
  date: isoDay,
  /** Only this runner. */
  runner: z.string().optional(),
  /** http(s) URL each query's signed result is POSTed to. */
  callback_url: callbackUrl.optional(),
});
/** Body of a racing price check (POST /v3/price_check with category `racing`). */
export type RacingPriceCheckRequest = z.input<typeof RacingPriceCheckRequest>;
/** What `priceChecks.racing()` takes: the body with `category` implied by the method. */
export type RacingPriceCheckParams = Omit<RacingPriceCheckRequest, 'category'> & { category?: 'racing' };

const sportsHead = {
  /** Sessions to price on: one job per session. */
  session_ids: sessionIds,
  /** Constant `sports` (implied by priceChecks.sports). */
  category: z.literal('sports'),
  /** http(s) URL each query's signed result is POSTed to. */
  callback_url: callbackUrl.optional(),
};

/** Sports price check by market_ref (from a market card). */
export const SportsPriceCheckByRef = z.strictObject({
  ...sportsHead,
  /** Exact selection id from GET /v3/markets. */
  market_ref: nonEmpty,
  /** Event key of the card. */
  epk: z.string().min(1, 'is required with market_ref'),
  /** Preset sport/league key. */
  sport: z.string().min(1, 'is required with market_ref'),
  /** The bookmaker's own event id, for an event not linked yet. */
  site_event_id: z.string().optional(),
});

/** Sports price check naming the outcome by text. */
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
  /** The session this query runs on. */
  session_id: z.string(),
  /** The query's job; absent when it was answered in the 202. */
  correlation_id: z.string().nullish(),
  /** `success`/`failure` when answered in the 202 (then the payload fields sit beside it). */
  status: z.string().optional(),
  /** Deadline of the query's job. */
  timeout_at: z.string().optional(),
  /** Submission time of the query's job. */
  submitted_at: z.string().optional(),
});
export type PriceCheckQuery = z.infer<typeof PriceCheckQuery>;

/** 202 body of POST /v3/price_check. */
export const PriceCheckSubmission = z.looseObject({
  /** `pending`. */
  status: z.string(),
  /** `racing` or `sports`. */
  category: z.string().optional(),
  /** Racing: the race priced. */
  race: z
    .looseObject({
      track: z.string().optional(),
      race_num: z.number().optional(),
      race_type: z.string().optional(),
      date: z.string().optional(),
    })
    .optional(),
  /** One query per session, in the order of session_ids. */
  queries: z.array(PriceCheckQuery),
  /** Submission time. */
  submitted_at: z.string().optional(),
  /** Deadline of the queries' jobs. */
  timeout_at: z.string().optional(),
});
/** 202 body of POST /v3/price_check. */
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
