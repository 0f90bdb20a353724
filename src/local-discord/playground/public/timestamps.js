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

// Discord as a British English reader has it: a 24-hour clock and the day before the month, the voice of the bot's
// menus ("11-28 19:00 UTC") and of the Sandbox panel's clock, so one time never reads as "7:00 PM" beside "19:00".
const LOCALE = 'en-GB';
const formatters = new Map();
/** One cached formatter per options and zone (building them is slow and a page draws many times). */
function format(ms, options, timeZone) {
  const key = `${JSON.stringify(options)}|${timeZone ?? ''}`;
  if (!formatters.has(key)) formatters.set(key, new Intl.DateTimeFormat(LOCALE, { ...options, timeZone }));
  return formatters.get(key).format(ms);
}

/** The calendar day of `ms` in the zone, as a whole number of days, so two days can be compared. */
function dayNumber(ms, timeZone) {
  const [day, month, year] = format(ms, { year: 'numeric', month: 'numeric', day: 'numeric' }, timeZone)
    .split('/')
    .map(Number);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

const DAY_WORDS = { '-1': 'Yesterday', 0: 'Today', 1: 'Tomorrow' };
const TIME = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
const FULL_DATE = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' };

/**
 * What Discord shows a British English reader for `<t:…:style>` at `now` in `timeZone` (the viewer's zone when
 * undefined): "20:30" (t), "20:30:00" (T), "25/11/2026" (d), "25 November 2026" (D), "Today at 20:30" or
 * "27 November 2026 at 20:30" (f), the same with the weekday (F), and "in 2 hours" (R).
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
      const date = format(ms, style === 'F' ? FULL_DATE : { dateStyle: 'long' }, timeZone);
      return `${date} at ${format(ms, TIME, timeZone)}`;
    }
  }
}

/** The full date and time Discord shows when the pointer rests on a timestamp. */
export function timestampTitle(ms, timeZone) {
  return `${format(ms, FULL_DATE, timeZone)} at ${format(ms, TIME, timeZone)}`;
}

/** Draws every timestamp under `root` again at `now` (the page calls it on a timer and when the clock moves). */
export function refreshTimestamps(root, now = Date.now(), timeZone = undefined) {
  for (const el of root.querySelectorAll('time.md-time[data-style]')) {
    const ms = Date.parse(el.getAttribute('datetime') ?? '');
    el.textContent = formatTimestamp(ms, el.getAttribute('data-style') ?? 'f', { now, timeZone });
  }
}

/**
 * A message's time in its header and an embed's footer time, as Discord writes them ("Today at 17:18",
 * "27 November 2026 at 09:05"): drawn against the page's clock, like the times in the text.
 */
export function postedTime(iso, clock = {}) {
  return formatTimestamp(Date.parse(iso), 'f', clock);
}

/** Draws every header and footer time under `root` again at `now` (its element keeps the ISO time in data-posted). */
export function refreshPostedTimes(root, now = Date.now(), timeZone = undefined) {
  for (const el of root.querySelectorAll('[data-posted]')) {
    el.timestamp = postedTime(el.getAttribute('data-posted') ?? '', { now, timeZone });
  }
}
