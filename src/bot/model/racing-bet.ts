import type { MarginMethod } from './fair-price.js';
import type { LegPosition } from './multi-fair.js';
import type { RaceType } from './tracks.js';

/** A race as place_bet names it. */
export interface RaceKey {
  track: string;
  raceNum: number;
  raceType: RaceType;
  /** The track's local day, YYYY-MM-DD. */
  date: string;
}

/** What a racing slip bets: the race, the runner and the market (eventName is "Track R3", marketKey win|place). */
export interface RacingLeg extends RaceKey {
  runner: string;
  market: 'win' | 'place';
  /** An account promo that needs a chosen runner (its how_to_bet promo_name): sent as promo_name. */
  promoName?: string;
  /** A refund bet type the race's promo offers: the stake back if the runner finishes in those places. */
  refund?: RefundType;
  /** A boost: `strict` (use_boost, refused where the book cannot boost) or `if_offered` (betboost). */
  boost?: BoostAsk;
}

/** How a racing bet asks for a boost: strictly (use_boost) or when the book offers one (betboost). */
export type BoostAsk = 'strict' | 'if_offered';

/** A boost ask in a member's words. */
export const BOOST_WORDS: Record<BoostAsk, string> = {
  strict: 'boosted, or not placed',
  if_offered: 'boosted if the book offers it',
};

/** The spec's refund bet types: `2`, `2/3`, `2/3/4` refund the stake if the runner finishes in those places. */
export type RefundType = '2' | '2/3' | '2/3/4';

export const REFUND_TYPES: readonly RefundType[] = ['2', '2/3', '2/3/4'];

/** A refund type in a member's words. */
export const REFUND_WORDS: Record<RefundType, string> = {
  '2': 'money back if 2nd',
  '2/3': 'money back if 2nd or 3rd',
  '2/3/4': 'money back if 2nd, 3rd or 4th',
};

/** A racing bet a member asks for: the leg at a book, the stake, the price floor and whether a bonus token pays. */
export interface RacingBet extends RacingLeg {
  bookie: string;
  /** Whole cents, read from what the member typed. */
  stakeCents: number;
  minOdds?: number;
  useBonusBet?: boolean;
}

/** A leg of a same-race multi: a runner and where it must finish. */
export interface MultiLeg {
  runner: string;
  position: LegPosition;
}

/** A same-race multi a member asks for: the race, its legs at a book, the stake and the floor on its price. */
export interface RacingMultiBet extends RaceKey {
  bookie: string;
  legs: MultiLeg[];
  /** Whole cents, read from what the member typed. */
  stakeCents: number;
  /** The lowest combined price to take (sent as target_odds); none: the book's price, whatever it is. */
  minOdds?: number;
  /** Stake a bonus token worth exactly the stake instead of cash (use_bonus_bet). */
  useBonusBet?: boolean;
}

/** What a multi slip keeps: the race, each leg with the book's win price and its fair chance, the multi's fair. */
export interface MultiSlipInfo extends RaceKey {
  legs: Array<MultiLeg & { winPrice: number; probability?: number }>;
  /** The fair chance of every leg together (model/multi-fair.ts); absent when no book priced the whole field. */
  probability?: number;
  method: MarginMethod;
  /** How many books' win markets went into it. */
  books: number;
  /** How old the oldest of those win prices was when the slip was made, in whole seconds (decision 2050). */
  pricesAgeS?: number;
}

/** The books whose sessions take several multis on one race in one call (the spec: bookie_a sessions only). */
export const STACKING_BOOKS: readonly string[] = ['bookie_a'];

/** The most multis one stack slip holds (each is a field of the slip's message). */
export const MAX_STACK = 6;
