/** Money and odds maths on decimal odds, rounded to cents the way a receipt shows them. */

export const roundCents = (n: number): number => Math.round(n * 100) / 100;

export function potentialReturn(stake: number, odds: number): number {
  return roundCents(stake * odds);
}

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Dollars with cents and thousands separators: $1,234.50, -$20.00. */
export function formatMoney(n: number): string {
  const sign = n < 0 ? '-' : '';
  return `${sign}$${MONEY.format(Math.abs(roundCents(n)))}`;
}

export function formatOdds(odds: number): string {
  return odds.toFixed(2);
}

/** The lowest live price still accepted for a slip shown at `shown`: tolerance and the user's min odds. */
export function acceptableFloor(shown: number, tolerance: number, minOdds?: number): number {
  const byTolerance = roundCents(shown * (1 - tolerance));
  return Math.max(byTolerance, minOdds ?? 0);
}

/**
 * A stake in whole cents from its decimal text ("10", "10.5", "$1,250.75"), or from a number by its shortest
 * decimal form (so 1e-9 and 10.000000001 are refused, not rounded). Undefined for anything else. A comma is
 * read only as a thousands separator in whole groups of three ("12,345"); "5,00" or "1,2,3" are refused, never
 * read as 500 or 123 (decision 1633).
 */
export function stakeCentsOf(value: string | number): number | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  const m = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  const dollars = m?.[1]?.replace(/,/g, '');
  if (!m || !dollars || dollars.length > 9) return undefined;
  return Number(dollars) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** How to write a stake, for every refusal of one. */
export const STAKE_HINT =
  'Write the stake in dollars with a dot for cents, like 12.50 (a comma only between thousands, like 1,250).';

/** Parses a stake the way people type it: "10", "10.5", "$10". Undefined when not dollars and cents. */
export function parseStake(text: string): number | undefined {
  const cents = stakeCentsOf(text);
  return cents === undefined ? undefined : cents / 100;
}
