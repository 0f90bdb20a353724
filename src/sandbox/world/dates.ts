// Day arithmetic on YYYY-MM-DD strings in UTC (the API's event days are UTC dates).

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`);
}

export function addDays(day: string, days: number): string {
  return dayOf(dayStartMs(day) + days * DAY_MS);
}

/** True for a real calendar day written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  if (!DAY_RE.test(text)) return false;
  const ms = dayStartMs(text);
  return Number.isFinite(ms) && dayOf(ms) === text;
}

/** Inclusive count of days from `since` to `until`. */
export function daysBetween(since: string, until: string): number {
  return Math.round((dayStartMs(until) - dayStartMs(since)) / DAY_MS) + 1;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
