import { tz } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { describe, expect, it } from 'vitest';
import { chartTickIn, dayIn, timeOfDayIn, whenIn, zoneOffsetMs } from '../../../src/bot/model/dates.js';
import { grouped } from '../../../src/bot/model/grouped.js';

// Issue 47, figure 7: UTC days and times and grouped numbers are written without Intl. What they write must be what
// date-fns over @date-fns/tz and toLocaleString('en-US') write, so the oracle here is those, called directly.

/** Instants 97 h 13 min 7 s apart from 1969 to 2035 (every hour, weekday, month and leap day is met), and edges. */
const INSTANTS = [
  ...Array.from({ length: 6_000 }, (_, i) => Date.UTC(1969, 0, 1) + i * (97 * 3_600_000 + 13 * 60_000 + 7_000)),
  Date.UTC(2028, 1, 29, 23, 59, 59, 999),
  Date.UTC(2026, 11, 31, 23, 59),
  Date.UTC(1, 0, 1),
  Date.UTC(9999, 11, 31, 23, 59),
  -1,
  0,
];
const utc = { in: tz('UTC') };

describe('UTC days and times without Intl', () => {
  it('dayIn, timeOfDayIn and chartTickIn in UTC write what date-fns in tz("UTC") writes, at every instant', () => {
    for (const t of INSTANTS) {
      expect(dayIn(t, 'UTC'), String(t)).toBe(format(t, 'yyyy-MM-dd', utc));
      expect(timeOfDayIn(t, 'UTC'), String(t)).toBe(`${format(t, 'HH:mm', utc)} UTC`);
      expect(chartTickIn(t, 'UTC', false), String(t)).toBe(format(t, 'd MMM', utc));
      expect(chartTickIn(t, 'UTC', true), String(t)).toBe(format(t, 'd MMM HH:mm', utc));
    }
  });

  it('whenIn in UTC says what it says in Etc/UTC (the same zone, through Intl): today, tomorrow, yesterday, a date', () => {
    const now = Date.UTC(2026, 10, 28, 23, 30);
    expect(whenIn(now + 3_600_000, now, 'UTC')).toBe('tomorrow 00:30 UTC');
    expect(whenIn(now + 48 * 3_600_000, now, 'UTC')).toBe('Mon 30 Nov 23:30 UTC');
    for (let h = -80; h <= 80; h += 1) {
      const t = now + h * 3_600_000 + 7 * 60_000;
      expect(whenIn(t, now, 'UTC'), String(t)).toBe(whenIn(t, now, 'Etc/UTC'));
    }
  });

  it('years outside 1-9999 and invalid instants go to date-fns as before', () => {
    const far = Date.UTC(12_000, 0, 1);
    expect(dayIn(far, 'UTC')).toBe(format(far, 'yyyy-MM-dd', utc));
    expect(() => dayIn(Number.NaN, 'UTC')).toThrow(RangeError);
  });

  it('UTC is 0 ms from UTC', () => {
    expect(zoneOffsetMs(Date.UTC(2026, 5, 1), 'UTC')).toBe(0);
  });
});

describe('grouped', () => {
  it('writes every integer as toLocaleString("en-US") does', () => {
    const values = [
      0,
      -0,
      1,
      -1,
      999,
      1000,
      -1000,
      12_345,
      999_999,
      1_000_000,
      -1_234_567,
      2 ** 53 - 1,
      -(2 ** 53 - 1),
    ];
    for (let n = 1; n < 1e16; n = n * 7 + 3) values.push(n, -n);
    for (const n of [...values, 2 ** 60, 1e21, 1.5, -2.25, 1234.5678, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(grouped(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});
