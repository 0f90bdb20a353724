import { z } from 'zod';
import { checked } from '../internal/shape-check.js';
import { nonEmpty, openEnum } from './common.js';

/** How comparable a market is across books: `popular` (curated grid), `other` (named), `unmapped` (one book's wording). */
export const Tier = z.enum(['popular', 'other', 'unmapped'], { error: "must be 'popular', 'other' or 'unmapped'" });
/** How comparable a market is across books: `popular` (curated grid), `other` (named), `unmapped` (one book's wording). */
export type Tier = z.infer<typeof Tier>;

/** Query of GET /v3/markets. */
export const MarketCardQuery = z.strictObject({
  /** Event key from the event listing. */
  epk: z.string().min(1, 'is required: the event key from events.list'),
  /** Bookmaker; must be one of the event's books. */
  bookie: nonEmpty,
  /** Only this tier. */
  tier: Tier.optional(),
  /** Only this market key. */
  market: z.string().min(1).optional(),
  /** Also list selections that cannot be placed (with bettable false and a reason). Default false. */
  include_unbettable: z.boolean().optional(),
  /** The bookmaker's own event id: reads a card before the event is linked (the caller vouches for it). */
  site_event_id: z.string().min(1).optional(),
});
/** Query of GET /v3/markets. */
export type MarketCardQuery = z.input<typeof MarketCardQuery>;

/** One selection of a market row. */
export const MarketSelection = z.looseObject({
  /** Display label. */
  label: z.string(),
  /** Decimal price at the last scrape (confirm with a price check); null when none. */
  odds: z.number().nullable(),
  /** Line of an over/under or handicap, or null. */
  line: z.number().nullish(),
  /** Player of a player prop, or null. */
  player: z.string().nullish(),
  /** Stable slug of the selection. */
  slug: z.string().optional(),
  /** Exact id to bet or price by (only on bettable rows; valid for this card's bookmaker and event). */
  market_ref: z.string().optional(),
  /** The bookmaker's proposition id, or null. */
  proposition_id: z.string().nullish(),
  /** Whether it can be placed now. */
  bettable: z.boolean(),
  /** Why not bettable: `no_proposition_id` or `ambiguous_proposition_id`. */
  reason: openEnum<'no_proposition_id' | 'ambiguous_proposition_id'>().optional(),
});
/** One selection of a market row. */
export type MarketSelection = z.infer<typeof MarketSelection>;

/** One market of a card. */
export const MarketRow = z.looseObject({
  /** Our market key (for `unmapped`, a slug of one bookmaker's wording: never compare it across books). */
  market: z.string(),
  /** Display label. */
  label: z.string(),
  /** The bookmaker's own title of the market. */
  raw_market_name: z.string().optional(),
  /** `popular`, `other` or `unmapped`. */
  tier: openEnum<Tier>(),
  /** Bettable selections in the row. */
  n_bettable: z.number().optional(),
  /** The row's selections (by default bettable ones only). */
  selections: z.array(MarketSelection),
});
/** One market of a card. */
export type MarketRow = z.infer<typeof MarketRow>;

/** With site_event_id: `unbound`, `confirmed`, `conflict` or `no_card` (see the spec's markets rule 8). */
export type SiteEventIdCheck = 'unbound' | 'confirmed' | 'conflict' | 'no_card';

const MarketCardShape = z.looseObject({
  /** Event key. */
  epk: z.string(),
  /** Bookmaker. */
  bookie: z.string(),
  /** The bookmaker's event id, when known. */
  site_event_id: z.string().nullish(),
  /** False: the bookmaker is not attached to the event and no bet can be routed (no markets). */
  bound: z.boolean(),
  /** False: market_ref bets are refused with 422 for this bookmaker; read it once before looping. */
  market_ref_betting_enabled: z.boolean(),
  /** Markets on the card. */
  n_markets: z.number().optional(),
  /** Selections on the card. */
  n_selections: z.number().optional(),
  /** Bettable selections on the card. */
  n_bettable_selections: z.number().optional(),
  /** Echo of the query's include_unbettable. */
  include_unbettable: z.boolean().optional(),
  /** The filters applied: tier, market, include_unbettable. */
  filters: z
    .looseObject({
      tier: z.string().nullish(),
      market: z.string().nullish(),
      include_unbettable: z.boolean().nullish(),
    })
    .optional(),
  /** Popular first, then other, then unmapped; within a tier most bettable selections first. */
  markets: z.array(MarketRow),
  /** `caller` when the caller supplied site_event_id. */
  site_event_id_source: z.string().optional(),
  /** The linked event's site_event_id, or null. */
  spine_site_event_id: z.string().nullish(),
  /** Outcome of checking the caller's site_event_id. */
  site_event_id_check: openEnum<SiteEventIdCheck>().optional(),
});
/** Checked by a generated validator; safeParse returns the body itself (see shape-check.ts). */
export const MarketCard = checked(MarketCardShape);
/** A bookmaker's market card for one event (GET /v3/markets). */
export type MarketCard = z.infer<typeof MarketCardShape>;
