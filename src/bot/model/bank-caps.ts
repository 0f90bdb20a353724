/**
 * Caps as a share of the bank (decision 1723): a limit may be dollars, a percentage of the bank, or both; the
 * lower binds. One computation, used wherever a limit is read (the gate, the slip, Confirm, /exposure).
 */

import { formatMoney } from './money.js';

/** A share cap that bound: its percentage, what it came to, and the dollar cap beside it (absent: none). */
export interface ShareCap {
  pct: number;
  /** pct of the bank, rounded down to whole cents. */
  cents: number;
  bankCents: number;
  dollarCents: number | undefined;
}

/** pct of the bank in whole cents, rounded down (a cap never rounds up past its share). */
export const shareOfBank = (pct: number, bankCents: number): number => Math.floor((bankCents * pct) / 100 + 1e-9);

/**
 * The binding cap in cents from a dollar cap (in cents) and a share of the bank: `share` is set when the share binds. No bank
 * (or no share set): the dollar cap alone; neither: undefined.
 */
export function lowerOf(capCents: number, pct: number | undefined, bankCents: number | null | undefined): Bound;
export function lowerOf(
  capCents: number | undefined,
  pct: number | undefined,
  bankCents: number | null | undefined,
): Bound | undefined;
export function lowerOf(
  capCents: number | undefined,
  pct: number | undefined,
  bankCents: number | null | undefined,
): Bound | undefined {
  const dollarCents = capCents;
  if (pct === undefined || bankCents === null || bankCents === undefined || bankCents <= 0) {
    return dollarCents === undefined ? undefined : { cents: dollarCents };
  }
  const cents = shareOfBank(pct, bankCents);
  if (dollarCents !== undefined && dollarCents <= cents) return { cents: dollarCents };
  return { cents, share: { pct, cents, bankCents, dollarCents } };
}

export interface Bound {
  cents: number;
  share?: ShareCap;
}

/** "5% of the bank ($50.00); the dollar cap is $200.00" (or "…; no dollar cap"). */
export function shareCapText(share: ShareCap): string {
  const dollar =
    share.dollarCents === undefined ? 'no dollar cap' : `the dollar cap is ${formatMoney(share.dollarCents)}`;
  return `${share.pct}% of the bank (${formatMoney(share.cents)}); ${dollar}`;
}
