// The Sandbox object every handler receives, and the World interface engineer W implements.
import type { Accounts } from '../accounts/accounts.js';
import type { Ledger } from '../accounts/ledger.js';
import type { PromoBook } from '../accounts/promo-book.js';
import type { SandboxClock } from './clock.js';
import type { FaultState } from './faults.js';
import type { Jobs } from './jobs.js';

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

export interface World {
  /** Lifecycle and settlement; called on every clock advance and every few real seconds. */
  tick(now: Date, sb: Sandbox): void;
  /** Finishes the event (or every started one) now and settles its bets (control route). */
  settle(sb: Sandbox, epk?: string): { settled: number };
  /** Meetings racing on the tracks' local `date` (YYYY-MM-DD). */
  racingMeetings(date: string): RacingMeeting[];
  /**
   * Each track's next racing day at `nowMs`: its local today while a race is still to run, else its local
   * tomorrow. The source of race promos, which cover races still to run.
   */
  upcomingMeetings(nowMs: number): RacingMeeting[];
  /** Upcoming single fixtures that carry bet-boost cards. */
  sportsEventsForPromos(): PromoSportsEvent[];
  /** Optional: an upcoming race and its field, so a racing bet-boost card can name its runner. */
  promoRace?(): PromoRace | undefined;
  /**
   * Optional: the event's status now (undefined for an unknown key). When present, place_promo refuses a
   * card whose event is no longer prematch (the bookmaker withdraws boosts at the off).
   */
  eventStatus?(epk: string): 'prematch' | 'in_play' | 'finished' | undefined;
}

export interface Counters {
  requests: number;
  errors: number;
  samples: number;
  jobs: number;
  webhooksDelivered: number;
  webhooksDeadLettered: number;
}

export interface Sandbox {
  clock: SandboxClock;
  accounts: Accounts;
  ledger: Ledger;
  jobs: Jobs;
  world: World;
  faults: FaultState;
  /** Account promos (bet-boost cards, tokens, offers) and place_promo idempotency. */
  promos: PromoBook;
  seed: number;
  counters: Counters;
  /** Logs without secrets; silent when started quiet. */
  log(message: string): void;
}
