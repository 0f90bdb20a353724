import { describe, expect, it } from 'vitest';
import {
  bookMove,
  isSteam,
  type MovesRule,
  movesStep,
  PRICE_BAND,
  type PriceRule,
  priceStep,
  readMoves,
  valueStep,
} from '../../../src/bot/watch/model/watch-rules.js';

const above: PriceRule = { kind: 'price', target: 3, direction: 'above' };

describe('price watch episodes', () => {
  it('opens when the price reaches the target, stays open while it is there, closes only past the band', () => {
    expect(priceStep(above, false, 2.99)).toBe(null);
    expect(priceStep(above, false, 3)).toBe('open');
    expect(priceStep(above, true, 3.4)).toBe(null);
    // Back under the target but inside the 2 % band: the episode goes on, no second alert on the way back up.
    expect(priceStep(above, true, 2.95)).toBe(null);
    expect(priceStep(above, true, 3 * (1 - PRICE_BAND) - 0.01)).toBe('close');
    expect(priceStep(above, false, 3.01)).toBe('open');
  });

  it('a below watch mirrors it: opens at or under the target, closes above the band', () => {
    const below: PriceRule = { kind: 'price', target: 2, direction: 'below' };
    expect(priceStep(below, false, 2.01)).toBe(null);
    expect(priceStep(below, false, 1.95)).toBe('open');
    expect(priceStep(below, true, 2.03)).toBe(null);
    expect(priceStep(below, true, 2.05)).toBe('close');
  });
});

describe('value watch episodes', () => {
  it('opens at the edge and closes a point under it', () => {
    const rule = { kind: 'value' as const, edgePct: 3 };
    expect(valueStep(rule, false, 0.029)).toBe(null);
    expect(valueStep(rule, false, 0.03)).toBe('open');
    expect(valueStep(rule, true, 0.021)).toBe(null);
    expect(valueStep(rule, true, 0.019)).toBe('close');
  });
});

describe('moves and steam', () => {
  const minute = 60_000;
  it("a book's move is its price now against the last one seen at or before the window's start", () => {
    const history = [
      { at: 0, price: 2.5 },
      { at: 10 * minute, price: 2.4 },
      { at: 20 * minute, price: 2.0 },
    ];
    expect(bookMove('bookie_a', history, 26 * minute, 15 * minute)).toMatchObject({ before: 2.4, now: 2.0 });
    expect(bookMove('bookie_a', [{ at: 0, price: 2 }], minute, 15 * minute)).toBeUndefined();
  });

  it('steam needs K books moving the same way; one steam move opens one episode, calm closes it', () => {
    const rule: MovesRule = { kind: 'moves', movePct: 8, windowMs: 15 * minute, steamBooks: 3 };
    const move = (change: number) => ({ bookie: 'b', before: 2, now: 2 * (1 + change), change });
    const steam = readMoves([move(-0.2), move(-0.19), move(-0.21)], 8)!;
    expect(isSteam(steam, 3)).toBe(true);
    expect(movesStep(rule, false, steam)).toBe('open');
    expect(movesStep(rule, true, steam)).toBe(null);
    const twoBooks = readMoves([move(-0.2), move(-0.19), move(0)], 8)!;
    expect(movesStep(rule, false, twoBooks)).toBe(null);
    const calm = readMoves([move(0.01), move(-0.01), move(0)], 8)!;
    expect(movesStep(rule, true, calm)).toBe('close');
  });
});
