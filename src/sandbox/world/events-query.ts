// GET /odds/v1/events: query validation, windows, filters and cursor paging (pure).
import { addDays, dayOf, dayStartMs, daysBetween, isDay, iso } from './dates.js';
import { LEAGUE_BY_KEY, leagueKey, SPORT_GROUPS, sportKey } from './leagues.js';
import { type EventStatus, statusAt } from './lifecycle.js';
import type { SportEvent } from './sports.js';

export const FINISHED_HISTORY_FROM = '2026-08-26';
const STATUSES: readonly EventStatus[] = ['prematch', 'in_play', 'finished'];
const MAX_FINISHED_PER_PAGE = 200;
const MAX_WINDOW_DAYS = 31;

/** A 400 answer naming the query parameter at fault. */
export class QueryError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return { detail: this.message, field: this.parameter, ...this.extra };
  }
}

export interface EventsFilters {
  sport: string | null;
  league: string | null;
  country: string | null;
  status: EventStatus | null;
  includeOutrights: boolean;
  since: string | null;
  until: string | null;
}

export interface EventsQuery {
  filters: EventsFilters;
  limit: number;
  after: { startMs: number; epk: string } | null;
}

function parseBool(name: string, text: string): boolean {
  const t = text.toLowerCase();
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  throw new QueryError(name, `${name} must be true or false`);
}

function parseDay(name: string, text: string): string {
  if (!isDay(text)) throw new QueryError(name, `${name} must be a date written YYYY-MM-DD, e.g. 2026-09-01`);
  return text;
}

function one(query: URLSearchParams, name: string): string | null {
  const v = query.get(name);
  return v === null || v === '' ? null : v;
}

/** The filters as the caller wrote them (the cursor is bound to these). */
function fingerprint(query: URLSearchParams): string {
  const names = ['sport', 'league', 'country', 'date', 'since', 'until', 'status', 'include_outrights'];
  return names.map((n) => `${n}=${one(query, n) ?? ''}`).join('&');
}

interface CursorBody {
  v: 1;
  f: string;
  s: string | null;
  u: string | null;
  t: number;
  e: string;
}

export function encodeCursor(c: CursorBody): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(text: string): CursorBody {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as CursorBody;
    if (c.v === 1 && typeof c.f === 'string' && typeof c.t === 'number' && typeof c.e === 'string') return c;
  } catch {
    // fall through to the error below
  }
  throw new QueryError(
    'cursor',
    'cursor is not a next_cursor this service issued; drop it to start from the first page',
  );
}

/** Validates the query against the spec's rules. `today` is the sandbox clock's UTC day. */
export function parseEventsQuery(query: URLSearchParams, today: string): EventsQuery & { fingerprint: string } {
  const rawSport = one(query, 'sport');
  const sport = rawSport === null ? null : sportKey(rawSport);
  if (rawSport !== null && sport === null) {
    throw new QueryError('sport', `unknown sport '${rawSport}'`, { valid_sports: SPORT_GROUPS });
  }
  const rawLeague = one(query, 'league');
  const league = rawLeague === null ? null : leagueKey(rawLeague);
  if (rawLeague !== null && league === null) {
    throw new QueryError('league', `unknown league '${rawLeague}'`, { valid_leagues: [...LEAGUE_BY_KEY.keys()] });
  }
  const country = one(query, 'country')?.toLowerCase() ?? null;
  const rawStatus = one(query, 'status');
  if (rawStatus !== null && !(STATUSES as readonly string[]).includes(rawStatus)) {
    throw new QueryError('status', `status must be one of ${STATUSES.join(', ')}`, { valid_statuses: STATUSES });
  }
  const status = rawStatus as EventStatus | null;
  const rawOutrights = one(query, 'include_outrights');
  const includeOutrights = rawOutrights === null ? false : parseBool('include_outrights', rawOutrights);

  const rawLimit = one(query, 'limit');
  let limit = 100;
  if (rawLimit !== null) {
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 500) {
      throw new QueryError('limit', 'limit must be a whole number from 1 to 500');
    }
    limit = Number(rawLimit);
  }

  const date = one(query, 'date');
  const rawSince = one(query, 'since');
  const rawUntil = one(query, 'until');
  let since: string | null = null;
  let until: string | null = null;
  if (date !== null) {
    if (rawSince !== null || rawUntil !== null) {
      throw new QueryError('date', 'date cannot be combined with since/until; send either date or since/until');
    }
    since = until = parseDay('date', date);
  } else if (rawSince !== null || rawUntil !== null) {
    since = rawSince === null ? null : parseDay('since', rawSince);
    until = rawUntil === null ? null : parseDay('until', rawUntil);
    // Only one given: until defaults to tomorrow, since to 6 days before until.
    if (until === null) until = addDays(today, 1);
    if (since === null) since = addDays(until, -6);
    if (since > until) throw new QueryError('since', 'since must not be after until');
    if (daysBetween(since, until) > MAX_WINDOW_DAYS) {
      throw new QueryError('until', `the window since..until is at most ${MAX_WINDOW_DAYS} days; narrow it`);
    }
  } else if (status === 'finished') {
    since = addDays(today, -6);
    until = today;
  }

  const fp = fingerprint(query);
  let after: EventsQuery['after'] = null;
  const rawCursor = one(query, 'cursor');
  if (rawCursor !== null) {
    const c = decodeCursor(rawCursor);
    if (c.f !== fp) {
      throw new QueryError(
        'cursor',
        'cursor belongs to a query with different filters; repeat the same filters or drop the cursor',
      );
    }
    // The window of the first page holds for the whole walk, even if the day rolls over meanwhile.
    since = c.s;
    until = c.u;
    after = { startMs: c.t, epk: c.e };
  }
  return {
    filters: { sport, league, country, status, includeOutrights, since, until },
    limit,
    after,
    fingerprint: fp,
  };
}

export interface EventsPage {
  rows: SportEvent[];
  truncated: boolean;
  nextCursor: string | null;
}

function before(a: SportEvent, t: number, e: string): boolean {
  return a.startMs < t || (a.startMs === t && a.epk <= e);
}

/** One page of matching events in start-time order. `events` must be sorted by (startMs, epk). */
export function pageEvents(
  events: readonly SportEvent[],
  q: EventsQuery & { fingerprint: string },
  nowMs: number,
  forced: ReadonlyMap<string, number>,
): EventsPage {
  const f = q.filters;
  const fromMs = f.since === null ? Number.NEGATIVE_INFINITY : dayStartMs(f.since);
  const toMs = f.until === null ? Number.POSITIVE_INFINITY : dayStartMs(addDays(f.until, 1));
  const historyFrom = dayStartMs(FINISHED_HISTORY_FROM);
  const rows: SportEvent[] = [];
  let finished = 0;
  let truncated = false;
  for (const ev of events) {
    if (q.after && before(ev, q.after.startMs, q.after.epk)) continue;
    if (ev.startMs < fromMs || ev.startMs >= toMs) continue;
    if (ev.isOutright && !f.includeOutrights) continue;
    if (f.sport && ev.sport !== f.sport) continue;
    if (f.league && ev.league !== f.league) continue;
    if (f.country && ev.country !== f.country) continue;
    const status = statusAt(ev, nowMs, forced.get(ev.epk));
    if (f.status && status !== f.status) continue;
    if (status === 'finished' && ev.startMs < historyFrom) continue;
    if (rows.length >= q.limit || (status === 'finished' && finished >= MAX_FINISHED_PER_PAGE)) {
      truncated = true;
      break;
    }
    if (status === 'finished') finished++;
    rows.push(ev);
  }
  const last = rows.at(-1);
  const nextCursor =
    truncated && last
      ? encodeCursor({ v: 1, f: q.fingerprint, s: f.since, u: f.until, t: last.startMs, e: last.epk })
      : null;
  return { rows, truncated, nextCursor };
}

export { dayOf, iso };
