// A unit's price as one fixed-point integer, cents × PRICE_SCALE (decision 2017): each way it leaves the integer.
import { describe, expect, it } from 'vitest';
import {
  chartDollars,
  formatPriceChange,
  formatUnitPrice,
  PRICE_SCALE,
  plainUnitPrice,
  priceReturn,
} from '../../../../src/bot/fund/model/unit-price.js';

/** $1.0523419 a unit: 105.23419 cents, with a fraction below the sixth decimal of a dollar. */
const PRICE = 105_234_190;

describe('a unit price', () => {
  it('is shown to six decimals of a dollar, rounded down, with thousands separated', () => {
    expect(formatUnitPrice(PRICE)).toBe('$1.052341');
    expect(formatUnitPrice(120_450 * PRICE_SCALE)).toBe('$1,204.500000');
    expect(formatUnitPrice(-PRICE)).toBe('-$1.052341');
  });

  it('is written plain for a spreadsheet: the same digits, no $ and no separator', () => {
    expect(plainUnitPrice(PRICE)).toBe('1.052341');
    expect(plainUnitPrice(120_450 * PRICE_SCALE)).toBe('1204.500000');
  });

  it('moves between two prices in signed percent to two decimals; with no first price it says so', () => {
    expect(formatPriceChange(100 * PRICE_SCALE, 105.23 * PRICE_SCALE)).toBe('+5.23%');
    expect(formatPriceChange(100 * PRICE_SCALE, 99.5 * PRICE_SCALE)).toBe('-0.50%');
    expect(formatPriceChange(100 * PRICE_SCALE, 100 * PRICE_SCALE)).toBe('0.00%');
    expect(formatPriceChange(0, PRICE)).toBe('–');
  });

  it('becomes a float only as a return on what was paid and as a point on a chart', () => {
    expect(priceReturn(110 * PRICE_SCALE, 100)).toBeCloseTo(0.1, 12);
    expect(chartDollars(PRICE)).toBeCloseTo(1.0523419, 12);
  });
});
