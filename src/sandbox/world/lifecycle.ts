// Event status and scores as a pure function of the event, the sandbox time and forced finishes.
import { iso, MINUTE_MS } from './dates.js';
import { hashKey, intBetween, rngFor } from './prng.js';
import type { SportEvent } from './sports.js';

export type EventStatus = 'prematch' | 'in_play' | 'finished';

export interface FinalScore {
  home: number;
  away: number;
}

export interface Score {
  status: 'scheduled' | 'live' | 'final';
  home_score: number;
  away_score: number;
  source: string;
  source_game_id: string;
}

/** When the event finishes: its natural end, or earlier when forced by settle(). */
export function finishMs(ev: SportEvent, forcedAt: number | undefined): number {
  const natural = ev.startMs + ev.durationMs;
  return forcedAt !== undefined && forcedAt < natural ? forcedAt : natural;
}

export function statusAt(ev: SportEvent, nowMs: number, forcedAt?: number): EventStatus {
  if (nowMs >= finishMs(ev, forcedAt)) return 'finished';
  if (nowMs >= ev.startMs) return 'in_play';
  return 'prematch';
}

// Typical final scores per sport: [winner mean, winner spread, max margin].
const SCORING: Record<string, [number, number, number]> = {
  basketball: [112, 10, 25],
  american_football: [26, 7, 21],
  baseball: [6, 2, 5],
  ice_hockey: [4, 1, 3],
  aussie_rules: [92, 18, 50],
  rugby_league: [26, 8, 24],
  rugby_union: [28, 8, 24],
  soccer: [2, 1, 3],
  tennis: [2, 0, 2],
  cricket: [280, 40, 90],
};

/** The final score, seeded per event; the higher-rated side wins more often. Null without a home/away. */
export function finalScore(seed: number, ev: SportEvent): FinalScore | null {
  if (ev.isOutright) return null;
  const rng = rngFor(seed, 'final', ev.epk);
  const [mean, spread, maxMargin] = SCORING[ev.sport] ?? [3, 1, 3];
  const draws = ev.def.draws === true;
  const roll = rng();
  if (draws && roll < 0.24) {
    const g = intBetween(rng, 0, 2);
    return { home: g, away: g };
  }
  const homeWins = draws ? roll < 0.24 + ev.homeWinChance * 0.76 : roll < ev.homeWinChance;
  let winner: number;
  let loser: number;
  if (ev.sport === 'tennis') {
    winner = 2;
    loser = intBetween(rng, 0, 1);
  } else {
    winner = Math.max(1, Math.round(mean + (rng() - 0.5) * 2 * spread));
    loser = Math.max(0, winner - intBetween(rng, 1, maxMargin));
  }
  return homeWins ? { home: winner, away: loser } : { home: loser, away: winner };
}

/** The score object of the listing: null before the start and for leagues without coverage. */
export function scoreAt(
  seed: number,
  ev: SportEvent,
  status: EventStatus,
  nowMs: number,
  forcedAt?: number,
): Score | null {
  if (status === 'prematch' || !ev.def.scores) return null;
  const final = finalScore(seed, ev);
  if (!final) return null;
  const base = {
    source: 'sandbox_feed',
    source_game_id: `sbx-${hashKey(seed, 'game', ev.epk).toString(36)}`,
  };
  if (status === 'finished') return { status: 'final', home_score: final.home, away_score: final.away, ...base };
  const elapsed = nowMs - ev.startMs;
  // The feed picks a game up a few minutes after it starts.
  if (elapsed < 3 * MINUTE_MS) return { status: 'scheduled', home_score: 0, away_score: 0, ...base };
  const f = Math.min(1, elapsed / (finishMs(ev, forcedAt) - ev.startMs));
  return { status: 'live', home_score: Math.floor(final.home * f), away_score: Math.floor(final.away * f), ...base };
}

/** The event row of GET /odds/v1/events. */
export function eventRow(seed: number, ev: SportEvent, nowMs: number, forcedAt?: number): Record<string, unknown> {
  const status = statusAt(ev, nowMs, forcedAt);
  const linked = ev.links.filter((l) => l.linkedFromMs <= nowMs).map((l) => l.bookie);
  const row: Record<string, unknown> = {
    event_id: ev.epk,
    sport: ev.sport,
    league: ev.league,
    country: ev.country,
    name: ev.name,
    home: ev.home,
    away: ev.away,
    participants: ev.isOutright ? [] : [ev.home, ev.away],
    competitors: ev.competitors,
    is_outright: ev.isOutright,
    start_time: iso(ev.startMs),
    status,
    books: linked,
    score: scoreAt(seed, ev, status, nowMs, forcedAt),
  };
  if (status === 'finished') {
    const off = offOf(seed, ev, forcedAt);
    row.off_at = iso(off.offMs);
    row.off_source = linked.length >= 2 ? 'quorum' : linked.length === 1 ? 'single_witness' : 'scheduled';
    row.has_closing = off.hasClosing;
  }
  return row;
}

/**
 * When the event went off (a few minutes after the scheduled start, never after its end) and whether its closing
 * prices are recorded: false when no book held a card at the off; null on about 5% of the rest ("could not be
 * checked", the spec's third value); true otherwise.
 */
export function offOf(seed: number, ev: SportEvent, forcedAt?: number): { offMs: number; hasClosing: boolean | null } {
  const rng = rngFor(seed, 'off', ev.epk);
  const offMs = Math.min(ev.startMs + intBetween(rng, 0, 4) * MINUTE_MS, finishMs(ev, forcedAt));
  const books = ev.links.filter((l) => l.linkedFromMs <= offMs).length;
  return { offMs, hasClosing: books === 0 ? false : rng() < 0.05 ? null : true };
}
