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

/** Parses a stake the way people type it: "10", "10.5", "$10". Undefined when not a number. */
export function parseStake(text: string): number | undefined {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return undefined;
  return Number(cleaned);
}
