/**
 * Money in whole cents (decision 1931): read once from what a person types (`parseCents`) or from the gateway's
 * dollars (`centsFromDollars`), shown once (`formatMoney`), and kept as integers in between. The gateway speaks
 * dollars, so `dollarsFromCents` is the way back out. No other file rounds money to cents or formats it
 * (test/unit/money-guard.test.ts fails naming the file and line).
 */

import { grouped } from './grouped.js';

/** The one minus sign money is shown with: ASCII, so what a member copies is what they can type. */
const MINUS = '-';

function wholeCents(cents: number, fn: string): number {
  if (!Number.isInteger(cents)) throw new TypeError(`${fn} takes whole cents, got ${cents}`);
  return cents;
}

const dollarsAndCents = (abs: number): [string, string] => [
  grouped(Math.floor(abs / 100)),
  String(abs % 100).padStart(2, '0'),
];

/** Cents as shown to a member: $1,500.00, -$20.00; zero (and -0) is $0.00, never with a sign. */
export function formatMoney(cents: number): string {
  const c = wholeCents(cents, 'formatMoney');
  const [whole, part] = dollarsAndCents(Math.abs(c));
  return `${c < 0 ? MINUS : ''}$${whole}.${part}`;
}

/** A move of money with its direction: +$1.00, -$4.25; zero is $0.00. */
export function formatSignedMoney(cents: number): string {
  const c = wholeCents(cents, 'formatSignedMoney');
  return c > 0 ? `+${formatMoney(c)}` : formatMoney(c);
}

/**
 * Cents as a plain decimal, 1500.00 or -4.25: the amount a member types back into an option or a form (which reads
 * a comma only between thousands), and a CSV's number column. Never shown as money on its own.
 */
export function formatCentsDecimal(cents: number): string {
  const c = wholeCents(cents, 'formatCentsDecimal');
  const abs = Math.abs(c);
  return `${c < 0 ? MINUS : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The gateway's dollars (a JSON number, 12.5) in whole cents, rounded to the nearest cent. */
export const centsFromDollars = (dollars: number): number => Math.round(dollars * 100);

/** Whole cents as the gateway's dollars, for a request body. */
export const dollarsFromCents = (cents: number): number => wholeCents(cents, 'dollarsFromCents') / 100;

/**
 * Whole cents from the text a person typed ("10", "10.5", "$1,250.75"), or from a number option by its shortest
 * decimal form (so 1e-9 and 10.000000001 are refused, not rounded). Undefined for anything else, negatives
 * included. A comma is read only as a thousands separator in whole groups of three ("12,345"); "5,00" or "1,2,3"
 * are refused, never read as 500 or 123 (decision 1633).
 */
export function parseCents(value: string | number): number | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  const m = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  const dollars = m?.[1]?.replace(/,/g, '');
  if (!m || !dollars || dollars.length > 9) return undefined;
  return Number(dollars) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** How to write an amount, for every refusal of one: "Write the stake in dollars with a dot for cents, ...". */
export const moneyHint = (noun = 'amount'): string =>
  `Write the ${noun} in dollars with a dot for cents, like 12.50 (a comma only between thousands, like 1,250).`;

/** How to write a stake, for every refusal of one. */
export const STAKE_HINT = moneyHint('stake');

/** An amount read from what a member typed: its cents, or what to tell them. */
export type CentsRead = { ok: true; cents: number } | { ok: false; message: string };

/** `parseCents` with the refusal worded for the member: what they typed, what is wrong, and what to type. */
export function readCents(value: string | number, noun = 'amount'): CentsRead {
  const cents = parseCents(value);
  if (cents !== undefined) return { ok: true, cents };
  const shown = String(value).slice(0, 20);
  if (/^\s*-\s*\$?\d/.test(shown)) {
    return { ok: false, message: `"${shown}" is negative: a ${noun} is more than $0. ${moneyHint(noun)}` };
  }
  return { ok: false, message: `"${shown}" is not ${/^[aeio]/i.test(noun) ? 'an' : 'a'} ${noun}. ${moneyHint(noun)}` };
}
