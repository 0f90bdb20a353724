import { describe, expect, it } from 'vitest';
import { coverage, readTimesByCard, waitsToRead, wastedReads } from '../../../bench/lib/watch-measures.js';

const changes = [
  { card: 'a', at: 100 },
  { card: 'a', at: 400 },
  { card: 'b', at: 100 },
];

describe('figure 27 measures of a read schedule', () => {
  it('waits from each change to its card first read at or after it; a change never read is left out', () => {
    const reads = readTimesByCard([
      { card: 'a', at: 250 },
      { card: 'a', at: 90 },
      { card: 'b', at: 100 },
    ]);
    expect(reads.get('a')).toEqual([90, 250]);
    expect(waitsToRead(changes, reads)).toEqual([150, 0]);
  });

  it('coverage counts a change read before the next cycle ends, not one read later or never', () => {
    const reads = readTimesByCard([
      { card: 'a', at: 399 },
      { card: 'b', at: 450 },
    ]);
    // a@100 read at 399 (inside 300), a@400 never, b@100 read at 450 (past 300).
    expect(coverage(changes, reads, 300)).toBeCloseTo(1 / 3);
    expect(() => coverage([], reads, 300)).toThrow(/no changes/);
  });

  it('a wasted read shows what the card previous read did; first reads and reads before `from` are not counted', () => {
    const log = [
      { card: 'a', at: 0, digest: 'x' },
      { card: 'a', at: 10, digest: 'x' },
      { card: 'b', at: 20, digest: 'y' },
      { card: 'a', at: 30, digest: 'z' },
      { card: 'a', at: 40, digest: 'z' },
    ];
    expect(wastedReads(log)).toBe(2);
    expect(wastedReads(log, 15)).toBe(1);
  });
});
