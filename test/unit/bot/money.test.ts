import { describe, expect, it } from 'vitest';
import {
  centsFromDollars,
  dollarsFromCents,
  formatCentsDecimal,
  formatMoney,
  formatSignedMoney,
  parseCents,
  readCents,
} from '../../../src/bot/model/money.js';

describe('formatMoney shows whole cents as a member reads money', () => {
  it('shows zero as $0.00, and -0 the same: never a signed zero', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(-0)).toBe('$0.00');
    expect(formatSignedMoney(-0)).toBe('$0.00');
  });

  it('puts one ASCII minus before the dollar sign of a negative amount', () => {
    expect(formatMoney(-2025)).toBe('-$20.25');
    expect(formatMoney(-1)).toBe('-$0.01');
    expect(formatMoney(-150_000)).toBe('-$1,500.00');
    expect(formatMoney(-150_000)).not.toMatch(/\u2212/);
  });

  it('separates thousands: $1,500.00, never $1500.00', () => {
    expect(formatMoney(150_000)).toBe('$1,500.00');
    expect(formatMoney(99_999)).toBe('$999.99');
    expect(formatMoney(100_000_000)).toBe('$1,000,000.00');
    expect(formatMoney(5)).toBe('$0.05');
  });

  it('keeps every cent of a large amount', () => {
    expect(formatMoney(123_456_789_012)).toBe('$1,234,567,890.12');
    expect(formatMoney(Number.MAX_SAFE_INTEGER)).toBe('$90,071,992,547,409.91');
  });

  it('refuses anything but whole cents, naming the value', () => {
    expect(() => formatMoney(12.5)).toThrow(/whole cents, got 12.5/);
    expect(() => formatMoney(Number.NaN)).toThrow(/whole cents/);
    expect(() => formatMoney(Number.POSITIVE_INFINITY)).toThrow(/whole cents/);
  });

  it('signs a move both ways and leaves zero bare', () => {
    expect(formatSignedMoney(100)).toBe('+$1.00');
    expect(formatSignedMoney(-425)).toBe('-$4.25');
    expect(formatSignedMoney(0)).toBe('$0.00');
  });

  it('writes an amount to type back with no separators, and reads it back', () => {
    expect(formatCentsDecimal(150_000)).toBe('1500.00');
    expect(formatCentsDecimal(-425)).toBe('-4.25');
    expect(formatCentsDecimal(7)).toBe('0.07');
    expect(parseCents(formatCentsDecimal(150_000))).toBe(150_000);
    expect(parseCents(formatMoney(150_000))).toBe(150_000);
  });
});

describe('the gateway speaks dollars; inside, whole cents', () => {
  it('rounds the gateway dollars to the nearest cent once', () => {
    expect(centsFromDollars(12.5)).toBe(1250);
    expect(centsFromDollars(0.29)).toBe(29);
    expect(centsFromDollars(19.99)).toBe(1999);
    expect(centsFromDollars(-4.25)).toBe(-425);
  });

  it('sends whole cents back as dollars', () => {
    expect(dollarsFromCents(1250)).toBe(12.5);
    expect(() => dollarsFromCents(0.5)).toThrow(/whole cents/);
  });
});

describe('parseCents reads what a member types, strictly', () => {
  it('reads dollars and cents as typed', () => {
    expect(parseCents('10')).toBe(1000);
    expect(parseCents('$1,250.75')).toBe(125_075);
    expect(parseCents(1.1)).toBe(110);
  });

  it('refuses fractions of a cent, negatives, exponents and decimal commas', () => {
    for (const text of ['1.005', '-5', '1e2', '5,00', 'ten', '', '$']) expect(parseCents(text), text).toBeUndefined();
    expect(parseCents(1e-9)).toBeUndefined();
    expect(parseCents(Number.NaN)).toBeUndefined();
  });

  it('says what was typed, what is wrong and what to type instead', () => {
    expect(readCents('ten', 'stake')).toEqual({
      ok: false,
      message:
        '"ten" is not a stake. Write the stake in dollars with a dot for cents, like 12.50 (a comma only between thousands, like 1,250).',
    });
    expect(readCents('5,00')).toEqual({
      ok: false,
      message:
        '"5,00" is not an amount. Write the amount in dollars with a dot for cents, like 12.50 (a comma only between thousands, like 1,250).',
    });
    const negative = readCents('-5', 'bank');
    expect(negative.ok ? '' : negative.message).toMatch(
      /^"-5" is negative: a bank is more than \$0\. Write the bank in dollars/,
    );
    expect(readCents(12.345, 'unit')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^"12.345" is not a unit\./),
    });
    expect(readCents('12.50', 'stake')).toEqual({ ok: true, cents: 1250 });
  });
});
