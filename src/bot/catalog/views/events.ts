import { createHash } from 'node:crypto';
import type { APIEmbedField } from 'discord.js';
import type { Event } from '../../../gateway/index.js';
import { pager, row, select } from '../../discord/components.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { COLOUR } from '../../model/colours.js';
import { timeOfDayIn, whenIn } from '../../model/dates.js';
import { leagueName } from '../../model/leagues.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { plural } from '../../model/plural.js';

export const EVENTS_PAGE_SIZE = 10;

export interface EventsViewInput {
  events: Event[];
  league: string;
  date: string;
  status?: string;
  timezone: string;
  /** A listing of what is coming up from this instant (no date asked for), not of a day. */
  from?: number;
  page: number;
  ref: string;
  /** Per event id, the books listing it that the desk knows take no bets on it (decisions 1995, 1996). */
  leftOut?: Readonly<Record<string, readonly string[]>>;
}

const STATUS_LABEL: Record<string, string> = { prematch: 'upcoming', in_play: '🔴 in play', finished: 'finished' };

/** An event's start in `zone`: its time of day in a day's listing, said from `from` in one of what is coming up. */
function startWords(e: Event, zone: string, from?: number): string {
  const start = Date.parse(e.start_time);
  return from === undefined ? timeOfDayIn(start, zone) : whenIn(start, from, zone);
}

/**
 * One event's line: its start in the server's zone (the zone the list's day is in, and its menu's), said from the
 * listing's instant when it lists what is coming up ("tomorrow 00:30 UTC"), and which of its books take bets on it.
 */
export function eventLine(e: Event, zone: string, from?: number, leftOut: readonly string[] = []): string {
  const parts = [startWords(e, zone, from), STATUS_LABEL[e.status] ?? e.status];
  if (e.score && (e.status === 'in_play' || e.status === 'finished')) {
    parts.push(`**${e.score.home_score ?? '–'}–${e.score.away_score ?? '–'}**`);
  }
  parts.push(booksWords(e.books ?? [], leftOut));
  return parts.join(' · ');
}

/**
 * "books: bookie_a; bookie_c takes no bets on it": the books that take bets on the event, then those that only list
 * it, in words, so nobody picks a book that would refuse the bet.
 */
function booksWords(books: readonly string[], leftOut: readonly string[]): string {
  if (books.length === 0) return 'no books yet';
  const takers = books.filter((b) => !leftOut.includes(b));
  const others = books.filter((b) => leftOut.includes(b));
  if (others.length === 0) return `books: ${takers.join(', ')}`;
  const refuse = `${others.join(', ')} ${others.length === 1 ? 'lists it but takes' : 'list it but take'} no bets on it`;
  return takers.length > 0 ? `books: ${takers.join(', ')}; ${refuse}` : `no book takes bets on it (${refuse})`;
}

/** The query (league, date, status) lives in the store under `ref`; the id carries only the ref. */
export function eventsPageId(ref: string, page: number): string {
  return encodeCustomId('ev', 'page', ref, page);
}

/** The event picker under a listing: its id carries the listing's ref. */
export function eventPickId(ref: string): string {
  return encodeCustomId('ev', 'pick', ref);
}

/**
 * A picked event's option value: its place in the listing and a tag of its id, so a listing that changed since
 * it was shown is noticed instead of opening another event.
 */
export function eventPickValue(index: number, eventId: string): string {
  return `${index}:${createHash('sha256').update(eventId).digest('hex').slice(0, 12)}`;
}

/** One page of a league's events for a day, with Prev/Next buttons that re-read the cached listing. */
export function eventsView(input: EventsViewInput): MessageView {
  const pages = Math.max(1, Math.ceil(input.events.length / EVENTS_PAGE_SIZE));
  const page = Math.min(Math.max(0, input.page), pages - 1);
  const slice = input.events.slice(page * EVENTS_PAGE_SIZE, (page + 1) * EVENTS_PAGE_SIZE);
  const fields: APIEmbedField[] = slice.map((e) => ({
    name: clip(e.name || e.event_id, LIMITS.fieldName),
    value: clip(eventLine(e, input.timezone, input.from, input.leftOut?.[e.event_id]), LIMITS.fieldValue),
  }));
  const statusText = input.status ? ` · ${STATUS_LABEL[input.status] ?? input.status}` : '';
  const what = input.from === undefined ? input.date : 'next 24 hours';
  return fitView({
    embeds: [
      {
        title: clip(`${leagueName(input.league)} — ${what}${statusText}`, LIMITS.embedTitle),
        description: listingWords(input),
        color: COLOUR.info,
        fields,
        footer: { text: `Page ${page + 1} of ${pages} · /markets to see a book's card` },
      },
    ],
    components: [
      ...eventPicker(input.events, page, input.ref, input.timezone, input.from),
      ...pager((p) => eventsPageId(input.ref, p), page, pages),
    ],
  });
}

/** What the listing holds and in which zone its times are: the server's, named, with how to change it. */
function listingWords(input: EventsViewInput): string {
  const zone = `times in ${input.timezone}, this server's time zone (/settings timezone)`;
  if (input.from !== undefined) {
    const until = whenIn(input.from + 24 * 3_600_000, input.from, input.timezone);
    return input.events.length === 0
      ? `No events for this league in play or starting by ${until}. Try date:tomorrow, a later date or another league.`
      : `${plural(input.events.length, 'event')} in play or starting by ${until}; ${zone}. date:today or a date lists a whole day.`;
  }
  return input.events.length === 0
    ? `No events for this league on ${input.date} (${input.timezone}). Try another date or league.`
    : `${plural(input.events.length, 'event')} on ${input.date}; ${zone}.`;
}

/**
 * A menu of this page's events that have a card (a book lists them): picking one opens its books' cards. Each start in
 * the server's zone, the zone the list's day is in (a menu's text cannot follow each reader's zone).
 */
function eventPicker(events: Event[], page: number, ref: string, zone: string, from?: number) {
  const options = events
    .map((e, index) => ({ e, index }))
    .slice(page * EVENTS_PAGE_SIZE, (page + 1) * EVENTS_PAGE_SIZE)
    .filter(({ e }) => (e.books?.length ?? 0) > 0)
    .map(({ e, index }) => ({
      label: e.name || e.event_id,
      value: eventPickValue(index, e.event_id),
      description: `${startWords(e, zone, from)} · ${plural(e.books?.length ?? 0, 'book')}`,
    }));
  return options.length === 0 ? [] : [row(select(eventPickId(ref), 'Open an event: its markets at a book', options))];
}
