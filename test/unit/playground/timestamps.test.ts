import { describe, expect, it } from 'vitest';
import {
  formatTimestamp,
  postedTime,
  refreshPostedTimes,
  refreshTimestamps,
  relativeTime,
} from '../../../src/local-discord/playground/public/timestamps.js';

// A clock a day ahead of the real one, as the sandbox's after "Advance 1 day"; times in UTC so the test reads
// the same on every machine.
const NOW = Date.parse('2026-11-22T12:00:00Z');
const at = (ms: number, style: string) => formatTimestamp(ms, style, { now: NOW, timeZone: 'UTC' });
const HOUR = 3_600_000;

describe('relative timestamps (<t:…:R>)', () => {
  it('read against the given clock, as Discord reads them against its own', () => {
    expect(relativeTime(NOW + 2 * 60_000, NOW)).toBe('in 2 minutes');
    expect(relativeTime(NOW - 2 * HOUR, NOW)).toBe('2 hours ago');
    expect(relativeTime(NOW + 42 * 60_000, NOW)).toBe('in 42 minutes');
    expect(relativeTime(NOW + 3 * 24 * HOUR, NOW)).toBe('in 3 days');
  });

  it('say "a few seconds ago" for a moment ago, not "in 24 hours" or "0 minutes"', () => {
    expect(relativeTime(NOW - 5_000, NOW)).toBe('a few seconds ago');
  });
});

describe('absolute timestamps', () => {
  it('read "Today", "Tomorrow" and "Yesterday at" a time by the calendar day of the given clock (f)', () => {
    expect(at(NOW + 8.5 * HOUR, 'f')).toBe('Today at 20:30');
    expect(at(NOW + 20 * HOUR, 'f')).toBe('Tomorrow at 08:00');
    expect(at(NOW - 13 * HOUR, 'f')).toBe('Yesterday at 23:00');
  });

  it('read as a date further away (f, F)', () => {
    expect(at(NOW + 3 * 24 * HOUR, 'f')).toBe('25 November 2026 at 12:00');
    expect(at(NOW + 3 * 24 * HOUR, 'F')).toBe('Wednesday, 25 November 2026 at 12:00');
  });

  it('read times and dates alone as Discord writes them for a British English reader (t, T, d, D)', () => {
    // A 24-hour clock, as the bot's menus ("11-22 20:30 UTC") and the Sandbox panel's clock read.
    expect(at(NOW + 8.5 * HOUR, 't')).toBe('20:30');
    expect(at(NOW + 8.5 * HOUR, 'T')).toBe('20:30:00');
    expect(at(NOW, 'd')).toBe('22/11/2026');
    expect(at(NOW, 'D')).toBe('22 November 2026');
  });

  it('follow the zone they are read in', () => {
    // 20:30 today in UTC is 05:30 the next day in Tokyo, where it is 21:00 now.
    expect(formatTimestamp(NOW + 8.5 * HOUR, 'f', { now: NOW, timeZone: 'Asia/Tokyo' })).toBe('Tomorrow at 05:30');
  });
});

describe('drawing timestamps again', () => {
  it('redraws each by its style at the new clock', () => {
    const el = (style: string) => {
      const attrs: Record<string, string> = { datetime: '2026-11-22T12:05:00.000Z', 'data-style': style };
      return { textContent: '', getAttribute: (name: string) => attrs[name] ?? null };
    };
    const relative = el('R');
    const full = el('f');
    refreshTimestamps({ querySelectorAll: () => [relative, full] }, NOW + 10 * 60_000 + 24 * HOUR, 'UTC');
    expect(relative.textContent).toBe('24 hours ago');
    expect(full.textContent).toBe('Yesterday at 12:05');
  });
});

describe("a message's own time (its header) and an embed's footer time", () => {
  it('read on the given clock as Discord writes them, not as a US date', () => {
    // A post made at 12:05 on the sandbox clock, read that day and, after "Advance 1 day", the next.
    expect(postedTime('2026-11-22T12:05:00.000Z', { now: NOW, timeZone: 'UTC' })).toBe('Today at 12:05');
    expect(postedTime('2026-11-22T12:05:00.000Z', { now: NOW + 3 * 24 * HOUR, timeZone: 'UTC' })).toBe(
      '22 November 2026 at 12:05',
    );
  });

  it('are drawn again at the new clock', () => {
    const header = {
      timestamp: 'Today at 12:05' as unknown,
      getAttribute: (name: string) => (name === 'data-posted' ? '2026-11-22T12:05:00.000Z' : null),
    };
    refreshPostedTimes({ querySelectorAll: () => [header] }, NOW + 24 * HOUR, 'UTC');
    expect(header.timestamp).toBe('Yesterday at 12:05');
  });
});
