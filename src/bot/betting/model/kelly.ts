/**
 * Fractional Kelly stakes (decision 1722): f* = edge / (odds − 1) with edge = p·odds − 1, times the server's
 * fraction, of the bank; rounded down to the stake unit, never negative, never above the caps.
 */

export const DEFAULT_KELLY_FRACTION = 0.25;

/** The full-Kelly share of the bank for a price at a fair probability; 0 when there is no edge. */
export function kellyShare(probability: number, odds: number): number {
  if (!(odds > 1) || !(probability > 0)) return 0;
  const edge = probability * odds - 1;
  // An edge within float noise of 0 (p = 1/odds) is no edge.
  return edge > 1e-12 ? Math.min(1, edge / (odds - 1)) : 0;
}

/**
 * The suggested stake in whole cents: fraction × Kelly share × bank, rounded down to a multiple of the unit, and
 * no more than the lowest cap (itself rounded down to the unit, so the suggestion is always a stake the caps take).
 */
export function suggestedStakeCents(input: {
  probability: number;
  odds: number;
  bankCents: number;
  /** Share of full Kelly, 0 < fraction ≤ 1 (default ¼). */
  fraction?: number;
  /** Stakes are multiples of this, in cents (default $1). */
  unitCents?: number;
  /** Every cap that applies to this stake, in cents; the lowest binds. */
  capsCents?: readonly number[];
}): number {
  const fraction = input.fraction ?? DEFAULT_KELLY_FRACTION;
  const unit = Math.max(1, Math.round(input.unitCents ?? 100));
  if (!(fraction > 0) || !(input.bankCents > 0)) return 0;
  const raw = kellyShare(input.probability, input.odds) * Math.min(1, fraction) * input.bankCents;
  const cap = Math.min(Number.POSITIVE_INFINITY, ...(input.capsCents ?? []));
  const stake = Math.min(raw, cap);
  return stake > 0 ? Math.floor(stake / unit + 1e-9) * unit : 0;
}
