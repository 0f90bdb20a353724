import { describe, expect, it } from 'vitest';
import { parseCents, STAKE_HINT } from '../../../src/bot/model/money.js';

describe('stakes with separators', () => {
  it.each([
    ['1,250.50', 125_050],
    ['12,345', 1_234_500],
    ['1,000', 100_000],
    ['$1,250', 125_000],
    ['123,456,789', 12_345_678_900],
    ['999', 99_900],
    ['12.50', 1_250],
    ['12.5', 1_250],
    ['0.29', 29],
    [' 7 ', 700],
  ])('reads %s as %i cents', (text, cents) => {
    expect(parseCents(text)).toBe(cents);
  });

  it.each([
    '5,00', // a decimal comma: never 500 dollars
    '12,50',
    '1,2,3',
    '1,25',
    '1,2345',
    ',100',
    '100,',
    '1,,000',
    '12,345,67',
    '1.000,50',
    '1 000',
    '12.345',
    '1,000.5.0',
    '1234,567',
    '$',
    '',
    '1,234,567,890', // ten digits: above the largest stake the desk reads
    '-5',
    '1e2',
  ])('refuses %j', (text) => {
    expect(parseCents(text)).toBeUndefined();
  });

  it('says how to write a stake, with a dot for cents', () => {
    expect(STAKE_HINT).toMatch(/dot for cents, like 12\.50/);
  });
});
