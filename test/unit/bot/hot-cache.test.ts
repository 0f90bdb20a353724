import { afterEach, describe, expect, it, vi } from 'vitest';
import { HotCache } from '../../../src/bot/catalog/hot-cache.js';

/** A memory of `ms` and `max` entries on a clock the test moves. */
function memory(ms: number, max = 10) {
  let now = 1_000;
  const cache = new HotCache(ms, max, () => now);
  return { cache, advance: (by: number) => (now += by) };
}

describe('the catalog’s memory in front of the store’s cache (decision 2135)', () => {
  it('keeps a value for its span and answers nothing once the span has passed', () => {
    const { cache, advance } = memory(2_000);
    cache.set('k', { a: 1 });
    advance(1_999);
    expect(cache.get('k')).toEqual({ a: 1 });
    advance(1);
    expect(cache.get('k')).toBeUndefined();
  });

  it('never keeps a value past the store’s own expiry when that is sooner', () => {
    const { cache, advance } = memory(2_000);
    cache.set('k', 'v', 500);
    advance(500);
    expect(cache.get('k')).toBeUndefined();
  });

  it('keeps nothing for a value already expired, and forgets the older copy it held', () => {
    const { cache } = memory(2_000);
    cache.set('k', 'old');
    cache.set('k', 'new', 0);
    expect(cache.get('k')).toBeUndefined();
    cache.set('j', 'old');
    cache.set('j', undefined);
    expect(cache.get('j')).toBeUndefined();
  });

  it('freezes what it keeps, to the bottom: a reader cannot change another reader’s copy', () => {
    const { cache } = memory(2_000);
    const card = { markets: [{ selections: [{ odds: 2.1 }] }] };
    cache.set('card', card);
    const kept = cache.get<typeof card>('card')!;
    expect(() => {
      kept.markets[0]!.selections[0]!.odds = 9;
    }).toThrow(TypeError);
    expect(() => kept.markets.push({ selections: [] })).toThrow(TypeError);
    expect(cache.get<typeof card>('card')!.markets[0]!.selections[0]!.odds).toBe(2.1);
  });

  it('at its size, drops what has lapsed before anything still fresh', () => {
    const { cache, advance } = memory(2_000, 2);
    cache.set('short', 1, 100);
    cache.set('long', 2);
    advance(150);
    cache.set('third', 3);
    expect(cache.get('long')).toBe(2);
    expect(cache.get('third')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('at its size with nothing lapsed, drops the oldest kept', () => {
    const { cache } = memory(2_000, 2);
    cache.set('first', 1);
    cache.set('second', 2);
    cache.set('third', 3);
    expect(cache.get('first')).toBeUndefined();
    expect(cache.get('second')).toBe(2);
    expect(cache.get('third')).toBe(3);
  });

  describe('on a clock the timers follow', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('lets go of what has lapsed without being asked, so an idle process holds nothing', () => {
      vi.useFakeTimers({ now: 0 });
      const cache = new HotCache(2_000, 10, () => Date.now());
      cache.set('card', { big: 'x'.repeat(1_000) });
      cache.set('later', 1);
      vi.advanceTimersByTime(1_000);
      cache.set('last', 2);
      vi.advanceTimersByTime(1_001);
      expect(cache.size).toBe(1);
      vi.advanceTimersByTime(2_001);
      expect(cache.size).toBe(0);
    });
  });

  it('forgets one key, or everything', () => {
    const { cache } = memory(2_000);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.forget('a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    cache.forget();
    expect(cache.size).toBe(0);
  });
});
