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
export type RacingPriceCheckRequest = z.input<typeof RacingPriceCheckRequest>;

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

export type SportsPriceCheckRequest =
  | z.input<typeof SportsPriceCheckByRef>
  | z.input<typeof SportsPriceCheckBySelection>;

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

export const RacingPriceSelection = z.looseObject({
  runner: z.string(),
  prices: z.array(z.looseObject({ market: z.string(), price: z.number().nullable() })),
});

export const SportsPriceSelection = z.looseObject({
  selection: z.string().optional(),
  label: z.string().optional(),
  market: z.string().optional(),
  price: z.number().nullish(),
  market_ref: z.string().nullish(),
  line: numberish.nullish(),
  player: z.string().nullish(),
});

/** Resolved price-check payload; racing rows carry `prices`, sports rows a single `price`. */
export const PriceCheckResult = z.looseObject({
  status: z.string(),
  category: z.string().optional(),
  session_id: z.string().optional(),
  bookie: z.string().optional(),
  error: z.string().nullish(),
  selections: z.array(z.union([RacingPriceSelection, SportsPriceSelection])).optional(),
});
export type PriceCheckResult = z.infer<typeof PriceCheckResult>;
