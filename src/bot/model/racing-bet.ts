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
}

/** A racing bet a member asks for: the leg at a book, the stake, the price floor and whether a bonus token pays. */
export interface RacingBet extends RacingLeg {
  bookie: string;
  /** Whole cents, read from what the member typed. */
  stakeCents: number;
  minOdds?: number;
  useBonusBet?: boolean;
}
