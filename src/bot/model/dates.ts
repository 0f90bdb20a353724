import { TZDate, tz } from '@date-fns/tz';
// One module per function: the package index loads all of date-fns (about 300 modules) at every start.
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';

/** An instant as Discord shows it, in each reader's own time zone (`<t:unix:f>`: "28 November 2026 00:12"). */
export const discordTime = (ms: number): string => `<t:${Math.floor(ms / 1000)}:f>`;

/** A time of day to the second as Discord shows it (`<t:unix:T>`: "18:28:05"), to follow "at". */
export const clockTime = (ms: number): string => `<t:${Math.floor(ms / 1000)}:T>`;

/** The patterns the desk shows an instant in, in a zone (date-fns's tokens, its en-US names). */
type Shown = 'yyyy-MM-dd' | 'HH:mm' | 'EEE d MMM' | 'd MMM' | 'd MMM HH:mm';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * An instant in a zone as date-fns writes `pattern`. In UTC (every server's zone until an admin sets one) it is
 * read off the UTC fields here: `tz()` builds an Intl.DateTimeFormat even for UTC, and a process's first Intl call
 * pages in the node binary's ICU data (about 7 MB resident, issue 47). Years outside 1-9999 and invalid instants
 * go to date-fns, which writes or refuses them as before.
 */
function shownIn(instant: number, pattern: Shown, zone: string): string {
  const d = new Date(instant);
  const year = d.getUTCFullYear();
  if (zone !== 'UTC' || !(year >= 1 && year <= 9999)) return format(instant, pattern, { in: tz(zone) });
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  const dayMonth = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  switch (pattern) {
    case 'yyyy-MM-dd':
      return `${String(year).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
    case 'HH:mm':
      return time;
    case 'EEE d MMM':
      return `${WEEKDAYS[d.getUTCDay()]} ${dayMonth}`;
    case 'd MMM':
      return dayMonth;
    case 'd MMM HH:mm':
      return `${dayMonth} ${time}`;
  }
}

/** "19:00 UTC", "06:00 GMT+11": an instant's time of day in a zone, with the zone's short name (a menu's text). */
export function timeOfDayIn(instant: number, zone: string): string {
  // UTC's short name is "UTC"; asked of Intl only for other zones (see shownIn).
  const name =
    zone === 'UTC'
      ? 'UTC'
      : (new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
          .formatToParts(instant)
          .find((p) => p.type === 'timeZoneName')?.value ?? zone);
  return `${shownIn(instant, 'HH:mm', zone)} ${name}`;
}

/**
 * When an instant falls, said from `now` in a zone, as a menu or a list line says it: "today 19:00 UTC",
 * "tomorrow 00:30 UTC", "yesterday 23:00 UTC", else "Mon 30 Nov 19:00 UTC". Tonight's late games read "tomorrow
 * 00:30" in UTC: the day is the server's, said, so nobody needs to know where a day ends.
 */
export function whenIn(instant: number, now: number, zone: string): string {
  const day = dayIn(instant, zone);
  const rel = (days: number) => dayIn(addDays(now, days).getTime(), zone);
  const named =
    day === rel(0)
      ? 'today'
      : day === rel(1)
        ? 'tomorrow'
        : day === rel(-1)
          ? 'yesterday'
          : shownIn(instant, 'EEE d MMM', zone);
  return `${named} ${timeOfDayIn(instant, zone)}`;
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayIn(instant: number, zone: string): string {
  return shownIn(instant, 'yyyy-MM-dd', zone);
}

export type DayChoice = { ok: true; day: string } | { ok: false; message: string };

/**
 * The /events `date` option: empty (today), "today", "tomorrow" or YYYY-MM-DD in the viewer's zone.
 * Past days are refused with what to type instead, unless `opts.past` (finished events live in the past).
 */
export function chooseDay(
  input: string | null | undefined,
  now: number,
  zone: string,
  opts: { past?: boolean } = {},
): DayChoice {
  const today = dayIn(now, zone);
  const text = (input ?? '').trim().toLowerCase();
  if (text === '' || text === 'today') return { ok: true, day: today };
  if (text === 'tomorrow') return { ok: true, day: dayIn(addDays(now, 1).getTime(), zone) };
  if (text === 'yesterday') {
    const day = dayIn(addDays(now, -1).getTime(), zone);
    if (opts.past) return { ok: true, day };
    return {
      ok: false,
      message: `Yesterday (${day}) is in the past: past days need status:finished, which lists their results. Add it, or pick today or a later day.`,
    };
  }
  const parsed = parse(text, 'yyyy-MM-dd', new Date(0));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !isValid(parsed)) {
    return { ok: false, message: `"${input}" is not a date. Use today, tomorrow or YYYY-MM-DD (e.g. ${today}).` };
  }
  if (text < today && !opts.past) {
    return {
      ok: false,
      message: `${text} is in the past (today is ${today} in ${zone}). Pick today or a later day, or add status:finished for results.`,
    };
  }
  return { ok: true, day: text };
}

/** UTC days that can hold events of `day` in `zone` (zones reach ±14 h). */
export function utcWindowFor(day: string): { since: string; until: string } {
  const mid = Date.parse(`${day}T12:00:00Z`);
  return { since: dayIn(mid - 86_400_000, 'UTC'), until: dayIn(mid + 86_400_000, 'UTC') };
}

/** Start of a YYYY-MM-DD day in a time zone (epoch ms), or undefined when it is not such a date. */
export function dayStart(day: string, zone: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new TZDate(y, mo - 1, d, zone).getTime();
  return Number.isFinite(t) && dayIn(t, zone) === day.trim() ? t : undefined;
}

/** A chart's time-axis tick in a zone: "30 Nov" when ticks are days apart, else "30 Nov 19:00". */
export function chartTickIn(instant: number, zone: string, withTime: boolean): string {
  return shownIn(instant, withTime ? 'd MMM HH:mm' : 'd MMM', zone);
}

/** The zone's offset from UTC at an instant (ms, east positive), so a chart's ticks fall on round local times. */
export function zoneOffsetMs(instant: number, zone: string): number {
  if (zone === 'UTC') return 0;
  return -new TZDate(instant, zone).getTimezoneOffset() * 60_000;
}
