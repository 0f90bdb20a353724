// Sports bets and price checks named by text: event, market, selection, player and line (the spec's
// sports rules 1, 3, 4, 5, 8). Pure: the caller hands in the world's events and the book's card.
import type { CardMarket, CardSelection } from './cards.js';
import { leagueKey } from './leagues.js';
import { looseName } from './slug.js';
import type { SportEvent } from './sports.js';

export interface TextQuery {
  competition?: string;
  event?: string;
  market?: string;
  selection?: string;
  player?: string;
  line?: number | string;
  epk?: string;
  start_time_iso?: string;
}

export type MatchFailure = { ok: false; error: string; softMiss?: boolean };

// Ids callers send that differ from our card keys (rule 5), and player_ spellings of the stat families.
const MARKET_ALIASES: Record<string, string> = {
  match_result_3way: 'head_to_head',
  h2h: 'head_to_head',
  passing_yards: 'player_passing_yards',
  rushing_yards: 'player_rushing_yards',
  receiving_yards: 'player_receiving_yards',
  touchdown_scorer: 'anytime_touchdown_scorer',
  first_touchdown_scorer: 'anytime_touchdown_scorer',
  last_touchdown_scorer: 'anytime_touchdown_scorer',
  player_points: 'points',
  player_rebounds: 'rebounds',
  player_assists: 'assists',
  player_threes: 'threes',
  player_disposals: 'disposals',
  player_marks: 'marks',
  player_tackles: 'tackles',
};

export function canonicalMarket(market: string): string {
  const m = market.trim().toLowerCase();
  return MARKET_ALIASES[m] ?? m;
}

/** Splits 'Home v Away' (also 'vs', '-', and 'Away @ Home'). */
function eventSides(text: string): [string, string] | null {
  const at = text.split(/\s+@\s+/);
  if (at.length === 2) return [at[1] as string, at[0] as string];
  const parts = text.split(/\s+(?:v|vs|vs\.|-)\s+/i);
  return parts.length === 2 ? [parts[0] as string, parts[1] as string] : null;
}

function sameTeam(a: string, b: string): boolean {
  const x = looseName(a);
  const y = looseName(b);
  return x.length > 0 && y.length > 0 && (x === y || x.includes(y) || y.includes(x));
}

/** Rule 1: the epk if it resolves, else competition + event text (nearest start when the day repeats). */
export function resolveEvent(
  events: readonly SportEvent[],
  q: TextQuery,
  find: (epk: string) => SportEvent | undefined,
  nowMs: number,
): SportEvent | undefined {
  if (q.epk) {
    const ev = find(q.epk);
    if (ev) return ev;
  }
  if (!q.event) return undefined;
  const league = q.competition ? leagueKey(q.competition) : null;
  const sides = eventSides(q.event);
  const target = q.start_time_iso ? Date.parse(q.start_time_iso) : nowMs;
  const candidates = events.filter((ev) => {
    if (ev.isOutright || !ev.home || !ev.away) return false;
    if (league && ev.league !== league) return false;
    if (sides) return sameTeam(ev.home, sides[0]) && sameTeam(ev.away, sides[1]);
    return looseName(ev.name) === looseName(q.event as string);
  });
  const ref = Number.isFinite(target) ? target : nowMs;
  return candidates.sort((a, b) => Math.abs(a.startMs - ref) - Math.abs(b.startMs - ref))[0];
}

function lineOf(q: TextQuery): number | null {
  if (q.line === undefined || q.line === null || q.line === '') return null;
  const n = typeof q.line === 'number' ? q.line : Number(q.line);
  return Number.isFinite(n) ? n : null;
}

function sameLine(a: number | null, b: number | null): boolean {
  return a !== null && b !== null && Math.abs(a - b) < 1e-6;
}

/**
 * Rule 7: any market string the book's own catalogue offers, i.e. our key (or an alias of it) or the book's own
 * title (`raw_market_name`, e.g. bookie_b's "Match Winner"). `byTitle` says which matched.
 */
export function findMarket(
  card: readonly CardMarket[],
  text: string,
): { market: CardMarket; byTitle: boolean } | undefined {
  const key = canonicalMarket(text);
  const byKey = card.find((m) => m.market === key);
  if (byKey) return { market: byKey, byTitle: false };
  const title = looseName(text);
  const byTitle = title === '' ? undefined : card.find((m) => looseName(m.rawName) === title);
  return byTitle ? { market: byTitle, byTitle: true } : undefined;
}

/** Rules 3, 4 and 8: the selection on the card, or why not (soft miss when the market is not carried). */
export function resolveSelection(
  ev: SportEvent,
  card: readonly CardMarket[],
  q: TextQuery,
): { ok: true; market: CardMarket; selection: CardSelection } | MatchFailure {
  const found = findMarket(card, q.market ?? '');
  const market = found?.market;
  if (!market) {
    const available = card.filter((m) => m.tier !== 'unmapped').map((m) => m.market);
    return {
      ok: false,
      softMiss: true,
      error: `market_not_carried: '${q.market}' is not offered for this event; available: ${available.join(', ')}`,
    };
  }
  // Rule 3: our slug of one book's wording is not a name to bet by; the book's own title is (rule 7).
  if (market.tier === 'unmapped' && !found.byTitle) {
    return {
      ok: false,
      error: `unmapped_market: '${market.market}' can only be bet by market_ref from GET /v3/markets, or by the book's own title '${market.rawName}'`,
    };
  }
  let wanted = (q.selection ?? '').trim();
  let line = lineOf(q);
  // Rule 3: an N+ threshold is `over` with line N - 0.5.
  const plus = /^(\d+(?:\.\d+)?)\+$/.exec(wanted);
  if (plus && market.selections.some((s) => s.outcome.kind === 'total')) {
    line = Number(plus[1]) - 0.5;
    wanted = 'over';
  }
  const w = looseName(wanted);
  const player = q.player ? looseName(q.player) : null;
  const fits = (s: CardSelection): boolean => {
    if (player && (!s.player || looseName(s.player) !== player)) return false;
    const o = s.outcome;
    if (o.kind === 'side') {
      if (
        !(
          w === o.side ||
          (o.side === 'home' && ev.home && sameTeam(ev.home, wanted)) ||
          (o.side === 'away' && ev.away && sameTeam(ev.away, wanted)) ||
          looseName(s.label) === w
        )
      )
        return false;
      return true;
    }
    if (o.kind === 'line') {
      const sideOk =
        w === o.side ||
        (o.side === 'home' ? !!ev.home && sameTeam(ev.home, wanted) : !!ev.away && sameTeam(ev.away, wanted));
      return sideOk && (line === null || sameLine(line, o.line));
    }
    if (o.kind === 'total') return w === o.side && (line === null || sameLine(line, o.line));
    // Scorer thresholds and named outcomes: the player (or label) with the literal threshold.
    if (s.player) {
      const named = w === looseName(s.player) || player === looseName(s.player);
      return named && (line === null ? s.line === 1 || s.line === null : sameLine(line, s.line));
    }
    return looseName(s.label) === w || looseName(s.slug) === w;
  };
  const selection = market.selections.find(fits);
  if (!selection) {
    return {
      ok: false,
      error: `selection_not_found: no '${q.selection}'${q.player ? ` for ${q.player}` : ''}${line !== null ? ` at line ${line}` : ''} in ${market.market}`,
    };
  }
  return { ok: true, market, selection };
}
