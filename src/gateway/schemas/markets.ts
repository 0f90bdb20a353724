import { z } from 'zod';
import { checked } from '../shape-check.js';
import { nonEmpty } from './common.js';

export const Tier = z.enum(['popular', 'other', 'unmapped'], { error: "must be 'popular', 'other' or 'unmapped'" });

export const MarketCardQuery = z.strictObject({
  epk: z.string().min(1, 'is required: the event key from events.list'),
  bookie: nonEmpty,
  tier: Tier.optional(),
  market: z.string().min(1).optional(),
  include_unbettable: z.boolean().optional(),
  site_event_id: z.string().min(1).optional(),
});
export type MarketCardQuery = z.input<typeof MarketCardQuery>;

export const MarketSelection = z.looseObject({
  label: z.string(),
  odds: z.number().nullable(),
  line: z.number().nullish(),
  player: z.string().nullish(),
  slug: z.string().optional(),
  market_ref: z.string().optional(),
  proposition_id: z.string().nullish(),
  bettable: z.boolean(),
  reason: z.string().optional(),
});
export type MarketSelection = z.infer<typeof MarketSelection>;

export const MarketRow = z.looseObject({
  market: z.string(),
  label: z.string(),
  raw_market_name: z.string().optional(),
  tier: z.string(),
  n_bettable: z.number().optional(),
  selections: z.array(MarketSelection),
});
export type MarketRow = z.infer<typeof MarketRow>;

const MarketCardShape = z.looseObject({
  epk: z.string(),
  bookie: z.string(),
  site_event_id: z.string().nullish(),
  bound: z.boolean(),
  market_ref_betting_enabled: z.boolean(),
  n_markets: z.number().optional(),
  n_selections: z.number().optional(),
  n_bettable_selections: z.number().optional(),
  include_unbettable: z.boolean().optional(),
  filters: z
    .looseObject({
      tier: z.string().nullish(),
      market: z.string().nullish(),
      include_unbettable: z.boolean().nullish(),
    })
    .optional(),
  markets: z.array(MarketRow),
  site_event_id_source: z.string().optional(),
  spine_site_event_id: z.string().nullish(),
  site_event_id_check: z.string().optional(),
});
/** Checked by a generated validator; safeParse returns the body itself (see shape-check.ts). */
export const MarketCard = checked(MarketCardShape);
export type MarketCard = z.infer<typeof MarketCardShape>;
