import type { Event } from '../../gateway/index.js';
import { dayIn, utcWindowFor } from '../model/dates.js';
import type { Catalog } from './catalog.js';

export interface EventsQueryRef {
  league: string;
  day: string;
  status?: 'prematch' | 'in_play' | 'finished';
  timezone: string;
}

/** Events of `league` whose start falls on `day` in `timezone` (the gateway's days are UTC days). */
export async function eventsForDay(ctx: { catalog: Catalog }, q: EventsQueryRef): Promise<Event[]> {
  const window = utcWindowFor(q.day);
  const events = await ctx.catalog.loadEvents({
    league: q.league,
    ...window,
    ...(q.status ? { status: q.status } : {}),
  });
  return events
    .filter((e) => dayIn(Date.parse(e.start_time), q.timezone) === q.day)
    .sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time));
}
