import type { Event } from '../../gateway/index.js';
import { dayIn, utcWindowFor } from '../model/dates.js';
import type { Catalog } from './catalog.js';

/** How far ahead a listing with no date looks: tonight's games whatever the hour and the server's day. */
export const COMING_UP_MS = 24 * 3_600_000;

export interface EventsQueryRef {
  league: string;
  /** The day listed in `timezone`; with `from`, the day the listing was asked on. */
  day: string;
  status?: 'prematch' | 'in_play' | 'finished';
  timezone: string;
  /** A listing with no date asked for: events in play or starting within COMING_UP_MS of this instant. */
  from?: number;
}

/**
 * Events of `league` whose start falls on `day` in `timezone` (the gateway's days are UTC days), or, with `from`,
 * those in play or still to start within a day of it (finished ones left out), soonest first.
 */
export async function eventsForDay(ctx: { catalog: Catalog }, q: EventsQueryRef): Promise<Event[]> {
  const from = q.from;
  const window = utcWindowFor(from === undefined ? q.day : dayIn(from, 'UTC'));
  const events = await ctx.catalog.loadEvents({
    league: q.league,
    ...window,
    ...(q.status ? { status: q.status } : {}),
  });
  const inListing = (e: Event) => {
    const start = Date.parse(e.start_time);
    if (from === undefined) return dayIn(start, q.timezone) === q.day;
    return e.status !== 'finished' && start < from + COMING_UP_MS && (start >= from || e.status === 'in_play');
  };
  return events.filter(inListing).sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time));
}
