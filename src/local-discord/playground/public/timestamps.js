// Discord's <t:…> timestamps, drawn against a given clock: the playground passes the sandbox clock, so a time
// the bot wrote on that clock reads as a member of a real server would read it. No DOM here; tested in Node.

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** "in 5 minutes", "2 hours ago", "a few seconds ago": what Discord shows for a <t:…:R> timestamp at `now`. */
export function relativeTime(ms, now = Date.now()) {
  if (Math.abs(ms - now) < 45_000) return ms >= now ? 'in a few seconds' : 'a few seconds ago';
  const diff = Math.round((ms - now) / MINUTE_MS);
  if (Math.abs(diff) < 60) return rtf.format(diff, 'minute');
  if (Math.abs(diff) < 48 * 60) return rtf.format(Math.round(diff / 60), 'hour');
  return rtf.format(Math.round(diff / 1440), 'day');
}

const formatters = new Map();
/** One cached formatter per options and zone (building them is slow and a page draws many times). */
function format(ms, options, timeZone) {
  const key = `${JSON.stringify(options)}|${timeZone ?? ''}`;
  if (!formatters.has(key)) formatters.set(key, new Intl.DateTimeFormat('en-US', { ...options, timeZone }));
  return formatters.get(key).format(ms);
}

/** The calendar day of `ms` in the zone, as a whole number of days, so two days can be compared. */
function dayNumber(ms, timeZone) {
  const [month, day, year] = format(ms, { year: 'numeric', month: 'numeric', day: 'numeric' }, timeZone)
    .split('/')
    .map(Number);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

const DAY_WORDS = { '-1': 'Yesterday', 0: 'Today', 1: 'Tomorrow' };
const TIME = { hour: 'numeric', minute: '2-digit' };

/**
 * What Discord shows for `<t:…:style>` at `now` in `timeZone` (the viewer's zone when undefined):
 * "8:30 PM" (t), "8:30:00 PM" (T), "11/25/2026" (d), "November 25, 2026" (D), "Today at 8:30 PM" or
 * "November 27, 2026 at 8:30 PM" (f), the same with the weekday (F), and "in 2 hours" (R).
 */
export function formatTimestamp(ms, style = 'f', { now = Date.now(), timeZone } = {}) {
  switch (style) {
    case 'R':
      return relativeTime(ms, now);
    case 't':
      return format(ms, TIME, timeZone);
    case 'T':
      return format(ms, { ...TIME, second: '2-digit' }, timeZone);
    case 'd':
      return format(ms, { year: 'numeric', month: '2-digit', day: '2-digit' }, timeZone);
    case 'D':
      return format(ms, { dateStyle: 'long' }, timeZone);
    default: {
      const word = DAY_WORDS[dayNumber(ms, timeZone) - dayNumber(now, timeZone)];
      if (word) return `${word} at ${format(ms, TIME, timeZone)}`;
      return format(ms, { dateStyle: style === 'F' ? 'full' : 'long', timeStyle: 'short' }, timeZone);
    }
  }
}

/** The full date and time Discord shows when the pointer rests on a timestamp. */
export function timestampTitle(ms, timeZone) {
  return format(ms, { dateStyle: 'full', timeStyle: 'short' }, timeZone);
}

/** Draws every timestamp under `root` again at `now` (the page calls it on a timer and when the clock moves). */
export function refreshTimestamps(root, now = Date.now(), timeZone = undefined) {
  for (const el of root.querySelectorAll('time.md-time[data-style]')) {
    const ms = Date.parse(el.getAttribute('datetime') ?? '');
    el.textContent = formatTimestamp(ms, el.getAttribute('data-style') ?? 'f', { now, timeZone });
  }
}
