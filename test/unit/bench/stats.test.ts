import { describe, expect, it } from 'vitest';
import { orderOf } from '../../../bench/lib/ab.js';
import { median, medianRatio, percentile, ratio, round } from '../../../bench/lib/stats.js';

describe('bench statistics', () => {
  it('median of an odd count is the middle sample, of an even count the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('percentile uses the nearest rank, so p99 of 100 samples is the 99th smallest', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
  });

  it('refuses an empty or non-finite sample list with a message that says what is missing', () => {
    expect(() => median([])).toThrow(/at least one measurement/);
    expect(() => percentile([1, Number.NaN], 50)).toThrow(/finite/);
    expect(() => percentile([1], 101)).toThrow(/0 to 100/);
  });

  it('a ratio against zero is null, not Infinity', () => {
    expect(ratio(3, 0)).toBeNull();
    expect(ratio(3, 2)).toBe(1.5);
  });

  it('rounds to three significant digits below 100 and to whole numbers above', () => {
    expect(round(1.23456)).toBe(1.23);
    expect(round(0.0012345)).toBe(0.00123);
    expect(round(1234.6)).toBe(1235);
  });

  it('alternates the order of the two sides each repeat so neither always runs first', () => {
    expect([0, 1, 2, 3].map(orderOf)).toEqual([
      ['a', 'b'],
      ['b', 'a'],
      ['a', 'b'],
      ['b', 'a'],
    ]);
  });
});

describe('interleaved A/B runs', () => {
  it('discards warm-up repeats, alternates the order, and takes the median of each side', async () => {
    const { interleave } = await import('../../../bench/lib/ab.js');
    const calls: string[] = [];
    let a = 0;
    let b = 0;
    const result = await interleave(
      { repeats: 3, warmup: 1 },
      () => {
        calls.push('a');
        return [100, 1, 3, 2][a++]!;
      },
      () => {
        calls.push('b');
        return [100, 10, 30, 20][b++]!;
      },
    );
    expect(calls).toEqual(['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a']);
    expect(result.a).toEqual([1, 3, 2]);
    expect(result.medianA).toBe(2);
    expect(result.medianB).toBe(20);
  });
});

describe('paired rounds', () => {
  it('lists every ordering of the sides once', async () => {
    const { permutations } = await import('../../../bench/lib/ab.js');
    const three = permutations(3).map((p) => p.join(''));
    expect(new Set(three).size).toBe(6);
    expect([...three].sort()).toEqual(['012', '021', '102', '120', '201', '210']);
  });

  it('runs each side once a round, cycling the order from the first measured round, and drops the warm-up', async () => {
    const { pairedRounds } = await import('../../../bench/lib/ab.js');
    const calls: string[] = [];
    let a = 0;
    let b = 0;
    const samples = await pairedRounds({ rounds: 4, warmup: 1 }, [
      () => {
        calls.push('a');
        return [100, 1, 2, 3, 4][a++]!;
      },
      () => {
        calls.push('b');
        return [100, 10, 20, 30, 40][b++]!;
      },
    ]);
    expect(calls).toEqual(['b', 'a', 'a', 'b', 'b', 'a', 'a', 'b', 'b', 'a']);
    expect(samples).toEqual([
      [1, 2, 3, 4],
      [10, 20, 30, 40],
    ]);
  });

  it('refuses a number of rounds that is not whole cycles of the orderings', async () => {
    const { pairedRounds } = await import('../../../bench/lib/ab.js');
    await expect(pairedRounds({ rounds: 4 }, [() => 1, () => 1, () => 1])).rejects.toThrow(
      'rounds must be a positive multiple of 6',
    );
  });

  it('takes the median of the per-round ratios, not the ratio of the medians', () => {
    // Per-round ratios 0.25, 1 and 3: their median is 1; the medians alone (5 / 4) would say 1.25.
    expect(medianRatio([1, 5, 6], [4, 5, 2])).toBe(1);
  });

  it('refuses unpaired samples', () => {
    expect(() => medianRatio([1, 2], [1])).toThrow('paired samples differ in length');
  });
});
