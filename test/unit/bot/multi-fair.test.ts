import { describe, expect, it } from 'vitest';
import {
  harvilleJoint,
  multiFair,
  multiMargin,
  type NamedLeg,
  readPosition,
  WITHIN,
} from '../../../src/bot/model/multi-fair.js';

/** A 5-runner race: A 40 %, B 30 %, C, D and E 10 % each. */
const FIVE = [0.4, 0.3, 0.1, 0.1, 0.1];
const [A, B, C, , E] = [0, 1, 2, 3, 4];

describe('the Harville chance of a same-race multi', () => {
  it('A to win and B in the top 2 of three runners: A first, then B second (0.5 · 0.3/0.5 = 0.3)', () => {
    expect(
      harvilleJoint(
        [0.5, 0.3, 0.2],
        [
          { runner: 0, within: 1 },
          { runner: 1, within: 2 },
        ],
      ),
    ).toBeCloseTo(0.3, 12);
  });

  it('E in the top 3 of five runners: 1/10 first + 83/630 second + 11/56 third = 1079/2520', () => {
    // Second: Σ p_i · p_E/(1 − p_i) = 0.4·0.1/0.6 + 0.3·0.1/0.7 + 2 · 0.1·0.1/0.9 = 83/630.
    expect(harvilleJoint(FIVE, [{ runner: E, within: 3 }])).toBeCloseTo(1079 / 2520, 12);
  });

  it('A to win and E in the top 3 of five runners: 0.4 · (1/6 + 7/30) = 0.16', () => {
    // With A first (0.4), 0.6 is left: E second 0.1/0.6 = 1/6; E third after B (0.3/0.6 · 0.1/0.3 = 1/6) or after
    // C or D (2 · 0.1/0.6 · 0.1/0.5 = 1/15): 7/30. Not the product of the legs' own chances (0.4 · 0.428 = 0.171).
    const joint = harvilleJoint(FIVE, [
      { runner: A, within: 1 },
      { runner: E, within: 3 },
    ]);
    expect(joint).toBeCloseTo(0.16, 12);
    expect(joint).not.toBeCloseTo(0.4 * (1079 / 2520), 3);
  });

  it('two runners cannot both win, and three cannot all finish in the top 2', () => {
    expect(
      harvilleJoint(FIVE, [
        { runner: A, within: 1 },
        { runner: B, within: 1 },
      ]),
    ).toBe(0);
    expect(
      harvilleJoint(FIVE, [
        { runner: A, within: 2 },
        { runner: B, within: 2 },
        { runner: C, within: 2 },
      ]),
    ).toBe(0);
  });

  it('a leg within more places than the race has runners is certain', () => {
    expect(harvilleJoint([0.6, 0.3, 0.1], [{ runner: 2, within: 4 }])).toBeCloseTo(1, 12);
  });

  it('refuses a runner in two legs', () => {
    expect(() =>
      harvilleJoint(FIVE, [
        { runner: A, within: 1 },
        { runner: A, within: 3 },
      ]),
    ).toThrow(/two legs/);
  });
});

/** A deterministic stream of numbers in [0, 1) for the property runs (no clock, no Math.random). */
function stream(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('properties of the multi chance', () => {
  it('is never above its least likely leg, and the top-N chances of a field sum to N', () => {
    const next = stream(46);
    for (let run = 0; run < 200; run++) {
      const n = 3 + Math.floor(next() * 8);
      const raw = Array.from({ length: n }, () => 0.02 + next());
      const total = raw.reduce((a, x) => a + x, 0);
      const chances = raw.map((x) => x / total);
      const legCount = 2 + Math.floor(next() * Math.min(3, n - 1));
      const order = [...chances.keys()].sort(() => next() - 0.5).slice(0, legCount);
      const legs = order.map((runner) => ({ runner, within: 1 + Math.floor(next() * 4) }));
      const joint = harvilleJoint(chances, legs);
      const least = Math.min(...legs.map((l) => harvilleJoint(chances, [l])));
      expect(joint).toBeLessThanOrEqual(least + 1e-12);
      expect(joint).toBeGreaterThanOrEqual(0);
      const within = 1 + Math.floor(next() * Math.min(4, n));
      const sum = chances.reduce((a, _, i) => a + harvilleJoint(chances, [{ runner: i, within }]), 0);
      expect(sum).toBeCloseTo(within, 9);
    }
  });
});

describe('a multi priced from the books', () => {
  const book = (bookie: string, prices: Record<string, number>) => ({ bookie, win: new Map(Object.entries(prices)) });

  it('takes each book’s margin out, averages the books and prices the legs together', () => {
    // Each book's 5-runner field at a 10 % margin over FIVE: 1/(1.1 · p).
    const odds = (p: number) => 1 / (1.1 * p);
    const prices = { Alpha: odds(0.4), Bravo: odds(0.3), Charlie: odds(0.1), Delta: odds(0.1), Echo: odds(0.1) };
    const legs: NamedLeg[] = [
      { runner: 'alpha', position: 'win' },
      { runner: 'ECHO', position: 'top3' },
    ];
    const fair = multiFair({ books: [book('bookie_a', prices), book('bookie_b', prices)], legs });
    expect(fair.kind).toBe('fair');
    if (fair.kind !== 'fair') return;
    expect(fair.probability).toBeCloseTo(0.16, 9);
    expect(fair.odds).toBeCloseTo(6.25, 9);
    expect(fair.books).toEqual(['bookie_a', 'bookie_b']);
    expect(fair.legs.map((l) => l.probability)).toEqual([expect.closeTo(0.4, 9), expect.closeTo(1079 / 2520, 9)]);
  });

  it('leaves out a book that does not price every runner, and says so when none does', () => {
    const full = book('bookie_a', { Alpha: 2, Bravo: 3, Charlie: 6 });
    const part = book('bookie_b', { Alpha: 1.5, Bravo: 3 });
    const legs: NamedLeg[] = [
      { runner: 'Alpha', position: 'win' },
      { runner: 'Bravo', position: 'top2' },
    ];
    const fair = multiFair({ books: [full, part], legs });
    expect(fair.kind === 'fair' && fair.books).toEqual(['bookie_a']);
    expect(multiFair({ books: [part, book('bookie_c', { Charlie: 2, Delta: 2 })], legs }).kind).toBe(
      'no_complete_market',
    );
  });

  it('calls legs that cannot all come true impossible', () => {
    const fair = multiFair({
      books: [book('bookie_a', { Alpha: 2, Bravo: 3, Charlie: 6 })],
      legs: [
        { runner: 'Alpha', position: 'win' },
        { runner: 'Bravo', position: 'win' },
      ],
    });
    expect(fair.kind).toBe('impossible');
  });

  it('the book’s margin at a price: 5.00 on a 0.16 chance is 25 % over fair', () => {
    expect(multiMargin(0.16, 5)).toBeCloseTo(0.25, 12);
  });
});

describe('positions as members write them', () => {
  it('reads win, top 2/3/4 and 2nd/3rd/4th, and nothing else', () => {
    expect(['win', 'top 2', 'TOP3', '4th', '3rd', '2nd'].map(readPosition)).toEqual([
      'win',
      'top2',
      'top3',
      'top4',
      'top3',
      'top2',
    ]);
    expect(readPosition('place')).toBeUndefined();
    expect(readPosition('top5')).toBeUndefined();
    expect(WITHIN.top4).toBe(4);
  });
});
