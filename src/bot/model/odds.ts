/** Odds maths on decimal prices. Money lives in model/money.ts, in whole cents. */

/** A price to two decimals (1.855 → 1.86): prices are quoted in hundredths, never money. */
const roundPrice = (odds: number): number => Math.round(odds * 100) / 100;

/** What a stake returns at a price, in whole cents, rounded to the nearest cent once. */
export function potentialReturnCents(stakeCents: number, odds: number): number {
  return Math.round(stakeCents * odds);
}

export function formatOdds(odds: number): string {
  return odds.toFixed(2);
}

/** The lowest live price still accepted for a slip shown at `shown`: tolerance and the user's min odds. */
export function acceptableFloor(shown: number, tolerance: number, minOdds?: number): number {
  const byTolerance = roundPrice(shown * (1 - tolerance));
  return Math.max(byTolerance, minOdds ?? 0);
}
