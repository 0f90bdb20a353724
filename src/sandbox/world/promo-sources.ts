// What the world offers the promo book: racing meetings, a race's field and upcoming fixtures. A leaf, so
// accounts/ can read these shapes without importing the world.

export interface RacingMeeting {
  track: string;
  race_type: 'R' | 'G' | 'H';
  country: string;
  races: number;
  /** The meeting's date: the track's local date. */
  date: string;
  /** When each race jumps (UTC ms), race 1 first. */
  starts: number[];
}

/** One race's field, for a racing bet-boost card (the runner it boosts needs a name and a price). */
export interface PromoRace {
  /** The racing event key `<track>/<race_num>/<race_type>/<country>/<date>`. */
  epk: string;
  track: string;
  race_num: number;
  race_type: 'R' | 'G' | 'H';
  date: string;
  runners: { number: number; name: string; win: number }[];
}

export interface PromoSportsEvent {
  epk: string;
  sport: string;
  competition: string;
  event: string;
  date: string;
  selection: string;
  base_odds: number;
}
