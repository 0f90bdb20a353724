// Types for the page's timestamp module, so tests can import it under strict TypeScript.
export type TimestampStyle = 't' | 'T' | 'd' | 'D' | 'f' | 'F' | 'R';
export interface Clock {
  now?: number;
  timeZone?: string;
}
export function relativeTime(ms: number, now?: number): string;
export function formatTimestamp(ms: number, style?: string, clock?: Clock): string;
export function timestampTitle(ms: number, timeZone?: string): string;
export function refreshTimestamps(
  root: {
    querySelectorAll(
      selector: string,
    ): Iterable<{ textContent: string | null; getAttribute(name: string): string | null }>;
  },
  now?: number,
  timeZone?: string,
): void;
export function postedTime(iso: string, clock?: Clock): string;
export function refreshPostedTimes(
  root: {
    querySelectorAll(selector: string): Iterable<{ timestamp?: unknown; getAttribute(name: string): string | null }>;
  },
  now?: number,
  timeZone?: string,
): void;
