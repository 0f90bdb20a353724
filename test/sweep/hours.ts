// The wall-clock starts `npm run sweep` runs the fixture-reading tests at, most telling first (`--hours N`
// takes the first N). Together they cover twelve hours of the UTC day, both sides of a UTC midnight, both
// sides of the racing tracks' local midnight (13:00 UTC in Australian summer time, 14:00 UTC in winter) and
// the two days Australia's clocks change.

export interface SweepStart {
  /** UTC, as faketime reads it: `YYYY-MM-DD HH:MM:SS`. */
  at: string;
  why: string;
}

export const SWEEP_STARTS: readonly SweepStart[] = [
  { at: '2026-11-25 19:40:00', why: 'three events start 5 minutes later (the cards of the first fixtures went)' },
  { at: '2026-11-25 23:50:00', why: 'just before UTC midnight' },
  { at: '2026-11-26 00:10:00', why: 'just after UTC midnight' },
  { at: '2026-11-26 12:50:00', why: 'just before the tracks’ local midnight (AEDT)' },
  { at: '2026-11-26 13:10:00', why: 'just after the tracks’ local midnight (AEDT)' },
  { at: '2026-09-16 14:05:00', why: 'just after the tracks’ local midnight in winter (AEST)' },
  { at: '2026-10-03 15:50:00', why: 'ten minutes before Australian daylight saving starts' },
  { at: '2027-04-03 16:10:00', why: 'ten minutes after Australian daylight saving ends' },
  { at: '2026-11-30 21:30:00', why: 'month end (already December at the tracks)' },
  { at: '2026-11-26 03:00:00', why: 'the tracks’ racing afternoon' },
  { at: '2026-11-26 06:30:00', why: 'the tracks’ last races' },
  { at: '2026-11-26 09:45:00', why: 'no racing left today at the tracks' },
];

/** The first `n` starts (all when n is undefined; none for 0, the CPU leg alone); refuses a count outside 0..12. */
export function sweepStarts(n?: number): SweepStart[] {
  if (n === undefined) return [...SWEEP_STARTS];
  if (!Number.isInteger(n) || n < 0 || n > SWEEP_STARTS.length)
    throw new Error(`--hours takes a whole number from 0 to ${SWEEP_STARTS.length}, got ${n}`);
  return SWEEP_STARTS.slice(0, n);
}

/** The start as epoch ms (the text is UTC). */
export function startMs(start: SweepStart): number {
  return Date.parse(`${start.at.replace(' ', 'T')}Z`);
}
