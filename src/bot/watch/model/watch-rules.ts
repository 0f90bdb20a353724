import { UserFacingError } from '../../model/user-facing-error.js';

/**
 * The rules of a watch, pure: when a price, an edge or a move opens an alert episode, and when the episode ends so
 * the next crossing may alert again (the hysteresis band, docs/decisions/1850-watch-read-scheduler.md).
 */

export type WatchKind = 'price' | 'value' | 'moves' | 'league';

/** A price watch alerts when the price reaches the target from the side named. */
export interface PriceRule {
  kind: 'price';
  /** Decimal odds. */
  target: number;
  /** above: the price is at or above the target (a longer price); below: at or under it. */
  direction: 'above' | 'below';
}

/** A value watch alerts when a book's price beats the fair price by at least `edgePct` %. */
export interface ValueRule {
  kind: 'value';
  edgePct: number;
}

/** A moves watch alerts when the consensus price moves by at least `movePct` % within `windowMs`. */
export interface MovesRule {
  kind: 'moves';
  movePct: number;
  windowMs: number;
  /** When set, only a steam move alerts: at least this many books moved the same way by movePct inside the window. */
  steamBooks: number | null;
}

/**
 * A server's value rule over whole leagues (an admin's, posted in the alerts channel): any selection of any market
 * at any book with at least `edgePct` % edge, on every prematch event of `leagues` starting within `horizonMs`.
 * The scheduler judges it as a value watch on each such event, each selection its own episode.
 */
export interface LeagueValueRule {
  kind: 'league';
  /** League keys as the gateway lists them (lowercase, underscores). */
  leagues: string[];
  edgePct: number;
  horizonMs: number;
}

export type WatchRule = PriceRule | ValueRule | MovesRule | LeagueValueRule;

/** The longest window a moves watch may take (minutes): how much price history the store keeps for it. */
export const MOVES_MAX_WINDOW_MINUTES = 240;

/** Hours a league rule may look ahead: the gateway lists a week of events. */
export const LEAGUE_RULE_MAX_HOURS = 168;

/**
 * Every number /watch takes, with the range the server holds it to whatever the interaction carries (Discord's
 * option bounds are the same figures, but a modified client can send anything): docs/members.md lists them.
 */
export const WATCH_RANGES = {
  target: { min: 1.01, max: 1000, integer: false, what: 'decimal odds' },
  edge: { min: 0.1, max: 100, integer: false, what: '% of edge' },
  move: { min: 1, max: 90, integer: false, what: '% of move' },
  minutes: { min: 1, max: MOVES_MAX_WINDOW_MINUTES, integer: true, what: 'whole minutes' },
  steam_books: { min: 2, max: 10, integer: true, what: 'books' },
  hours: { min: 1, max: LEAGUE_RULE_MAX_HOURS, integer: true, what: 'whole hours' },
} as const;

export type WatchNumber = keyof typeof WATCH_RANGES;

/**
 * A /watch number as sent, checked against its range: the number, or a refusal naming the option, the range and
 * what was sent (absent is left to the caller's default: undefined).
 */
export function watchNumber(name: WatchNumber, sent: unknown): number | undefined {
  if (sent === undefined) return undefined;
  const r = WATCH_RANGES[name];
  const ok =
    typeof sent === 'number' &&
    Number.isFinite(sent) &&
    sent >= r.min &&
    sent <= r.max &&
    (!r.integer || Number.isInteger(sent));
  if (ok) return sent;
  const shown = typeof sent === 'number' ? String(sent) : JSON.stringify(sent);
  throw new UserFacingError(
    `\`${name}\` must be ${r.integer ? 'a whole number' : 'a number'} from ${r.min} to ${r.max} (${r.what}); ` +
      `got ${(shown ?? 'nothing').slice(0, 24)}. Run /watch again with a value in that range.`,
  );
}

/** A /watch text option with fixed choices, checked as the numbers are (undefined: absent). */
export function watchChoice<T extends string>(name: string, sent: unknown, choices: readonly T[]): T | undefined {
  if (sent === undefined || sent === null) return undefined;
  if (typeof sent === 'string' && (choices as readonly string[]).includes(sent)) return sent as T;
  throw new UserFacingError(
    `\`${name}\` must be one of ${choices.join(', ')}; got ${JSON.stringify(sent).slice(0, 24)}. Run /watch again.`,
  );
}

/** Whether an event (start in ms) falls inside a league rule's horizon at `now`. */
export function inHorizon(rule: LeagueValueRule, startsAt: number, now: number): boolean {
  return startsAt > now && startsAt <= now + rule.horizonMs;
}

/** A price episode ends once the price is this share back past the target (2 %: a 3.00 target re-arms under 2.94). */
export const PRICE_BAND = 0.02;
/** A value episode ends once the edge is this many points under the rule's (a 3 % rule re-arms under 2 %). */
export const VALUE_BAND_POINTS = 1;
/** A moves episode ends once the move inside the window is under this share of the rule's (half). */
export const MOVES_REARM_SHARE = 0.5;

/** What one observation does to an episode: open it (alert), close it (re-arm), or nothing. */
export type EpisodeStep = 'open' | 'close' | null;

function step(open: boolean, crossed: boolean, backPastBand: boolean): EpisodeStep {
  if (!open && crossed) return 'open';
  if (open && backPastBand) return 'close';
  return null;
}

/** A price against a price rule, given whether its episode is open. */
export function priceStep(rule: PriceRule, open: boolean, price: number): EpisodeStep {
  if (rule.direction === 'above') {
    return step(open, price >= rule.target, price < rule.target * (1 - PRICE_BAND));
  }
  return step(open, price <= rule.target, price > rule.target * (1 + PRICE_BAND));
}

/** An edge (0.031 is 3.1 %) against a value rule. */
export function valueStep(rule: ValueRule, open: boolean, edge: number): EpisodeStep {
  const pct = edge * 100;
  return step(open, pct >= rule.edgePct, pct < rule.edgePct - VALUE_BAND_POINTS);
}

/** A price seen at a book at a time (decimal odds). */
export interface PricePoint {
  at: number;
  price: number;
}

/** One book's move inside the window: its price then (the last seen at or before the window's start) and now. */
export interface BookMove {
  bookie: string;
  before: number;
  now: number;
  /** Signed share: −0.1 is a price 10 % shorter. */
  change: number;
}

/** A book's move over the window, from its price history (oldest first); undefined without two points. */
export function bookMove(
  bookie: string,
  history: readonly PricePoint[],
  now: number,
  windowMs: number,
): BookMove | undefined {
  const last = history.at(-1);
  if (!last || history.length < 2) return undefined;
  const start = now - windowMs;
  // The price when the window opened: the last seen at or before its start, else the oldest seen inside it.
  let before = history[0]!;
  for (const p of history) if (p.at <= start) before = p;
  if (before === last) return undefined;
  return { bookie, before: before.price, now: last.price, change: last.price / before.price - 1 };
}

/** The consensus move (mean of the books' moves) and how many books moved at least movePct each way. */
export interface MoveReading {
  change: number;
  books: BookMove[];
  shortened: number;
  lengthened: number;
}

export function readMoves(moves: readonly BookMove[], movePct: number): MoveReading | undefined {
  if (moves.length === 0) return undefined;
  const change = moves.reduce((s, m) => s + m.change, 0) / moves.length;
  const threshold = movePct / 100;
  return {
    change,
    books: [...moves],
    shortened: moves.filter((m) => m.change <= -threshold).length,
    lengthened: moves.filter((m) => m.change >= threshold).length,
  };
}

/** Whether a move reading is steam: at least `books` books moved the same way by the rule's share. */
export function isSteam(reading: MoveReading, books: number): boolean {
  return reading.shortened >= books || reading.lengthened >= books;
}

/** A move reading against a moves rule. */
export function movesStep(rule: MovesRule, open: boolean, reading: MoveReading | undefined): EpisodeStep {
  if (!reading) return open ? 'close' : null;
  const size = Math.abs(reading.change) * 100;
  const steam = rule.steamBooks === null || isSteam(reading, rule.steamBooks);
  const crossed = size >= rule.movePct && steam;
  const calm = size < rule.movePct * MOVES_REARM_SHARE && (rule.steamBooks === null || !steam);
  return step(open, crossed, calm);
}

/** Odds as whole hundredths (the store keeps prices exact). */
export const oddsToHundredths = (odds: number): number => Math.round(odds * 100);
export const hundredthsToOdds = (h: number): number => h / 100;

/** What one alert says: the selection, the book, the price before and now, the fair price and edge, the start. */
export interface AlertFacts {
  alertId: string;
  kind: WatchRule['kind'];
  /** "Price reached 3.20", "Steam: 3 books shortened 21 % in 15 min". */
  headline: string;
  eventName: string;
  marketLabel: string;
  selectionLabel: string;
  bookie: string;
  before: number | null;
  now: number;
  fairOdds: number | null;
  edge: number | null;
  startsAt: number | null;
  /** Other books' moves (steam), "bookie_a 2.50 → 2.00". */
  books?: string[];
  /** Mentioned in the alert (a personal watch's member). */
  userId: string | null;
  /** The Bet button's book may take bets by market_ref (false: no button). */
  bettable: boolean;
  /** The book refused the event's sport lately: the Bet button goes to the best book that takes it (decision 1996). */
  bookRefusesSport?: boolean;
  /**
   * Sent by DM: no Bet button (a DM has no server, so no gate, caps or approvals to open a slip under; decision 1942),
   * but the /bet to run in the server the watch was made in and a link to its alerts channel (null: to the server).
   */
  dm?: { guildId: string; alertsChannelId: string | null };
}
