import { describe, expect, it } from 'vitest';
import { FINISHED_HISTORY_FROM } from '../../src/sandbox/world/events-query.js';
import { localDay, TRACKS } from '../../src/sandbox/world/racing.js';
import { SWEEP_STARTS, startMs, sweepStarts } from '../sweep/hours.js';

const HOUR = 3_600_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const times = SWEEP_STARTS.map(startMs);

/** Two starts under an hour apart that fall on different days by `dayOf`. */
function straddles(dayOf: (ms: number) => string): boolean {
  return times.some((a) => times.some((b) => b > a && b - a < HOUR && dayOf(a) !== dayOf(b)));
}

describe('the sweep’s start hours', () => {
  it('are twelve valid UTC times on twelve different hours of the day', () => {
    expect(times.every(Number.isFinite)).toBe(true);
    expect(new Set(times.map((ms) => new Date(ms).getUTCHours())).size).toBe(12);
  });

  it('cover both sides of a UTC midnight', () => {
    expect(straddles(utcDay)).toBe(true);
  });

  it('cover both sides of every racing track’s local midnight', () => {
    for (const track of TRACKS)
      expect(
        straddles((ms) => localDay(track, ms)),
        track.track,
      ).toBe(true);
  });

  it('include a start within an hour of each of Australia’s clock changes', () => {
    const offset = (ms: number) =>
      new Intl.DateTimeFormat('en-AU', { timeZone: 'Australia/Melbourne', timeZoneName: 'shortOffset' })
        .formatToParts(ms)
        .find((p) => p.type === 'timeZoneName')?.value;
    for (const change of ['2026-10-03T16:00:00Z', '2027-04-03T16:00:00Z']) {
      const at = Date.parse(change);
      expect(offset(at - HOUR), change).not.toBe(offset(at + HOUR)); // it is a change
      expect(
        times.some((t) => Math.abs(t - at) < HOUR),
        change,
      ).toBe(true);
    }
  });

  it('start a week or more after the gateway’s finished history begins, so past days have finished events', () => {
    // The spec lists finished events from 2026-08-26 only; the tests read the past week's.
    const earliest = Date.parse(`${FINISHED_HISTORY_FROM}T00:00:00Z`) + 7 * 24 * HOUR;
    expect(times.filter((t) => t < earliest).map((t) => new Date(t).toISOString())).toEqual([]);
  });

  it('takes the first N for --hours N and refuses a count outside 0..12', () => {
    expect(sweepStarts(3).map((s) => s.at)).toEqual(SWEEP_STARTS.slice(0, 3).map((s) => s.at));
    expect(sweepStarts()).toHaveLength(12);
    expect(sweepStarts(0)).toEqual([]);
    expect(() => sweepStarts(-1)).toThrow(/--hours takes a whole number from 0 to 12/);
    expect(() => sweepStarts(13)).toThrow(/from 0 to 12/);
    expect(() => sweepStarts(1.5)).toThrow(/from 0 to 12/);
  });
});
