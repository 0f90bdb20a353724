import { grouped } from '../../model/grouped.js';

/**
 * A unit's price as a fixed-point integer (decision 2017): whole cents × PRICE_SCALE per whole unit, so an integer
 * count of millionths of a cent (dollars × 10^8). `priceOf` makes it, rounded down; the store keeps it as is
 * (`fund_strikes.price`, the high-water mark); comparisons and the drawdown's basis points stay in integers. It is
 * shown only through this file: `formatUnitPrice` for a member ($1.052341, six decimals of a dollar, rounded down),
 * `plainUnitPrice` for the CSV (1.052341), `formatPriceChange` for a move between two prices (+5.23%); it becomes a
 * float only through `priceReturn` (a ratio) and `chartDollars` (a point on a chart's axis, never text).
 */
export type UnitPrice = number;

/** Millionths of a cent in a cent. */
export const PRICE_SCALE = 1_000_000;
/** Decimals of a dollar a price is shown with: a millionth of a dollar is 100 units of the scale. */
const SHOWN_DECIMALS = 6;
const PER_SHOWN_DIGIT = (100 * PRICE_SCALE) / 10 ** SHOWN_DECIMALS;

/** [sign, whole dollars, the six decimals] of a price, rounded down toward zero. */
function parts(price: UnitPrice): [string, number, string] {
  const shown = Math.floor(Math.abs(price) / PER_SHOWN_DIGIT);
  const scale = 10 ** SHOWN_DECIMALS;
  return [price < 0 ? '-' : '', Math.floor(shown / scale), String(shown % scale).padStart(SHOWN_DECIMALS, '0')];
}

/** Dollars per unit as a member reads it: $1.052341, $1,204.500000. */
export function formatUnitPrice(price: UnitPrice): string {
  const [sign, whole, decimals] = parts(price);
  return `${sign}$${grouped(whole)}.${decimals}`;
}

/** Dollars per unit as a spreadsheet reads it: 1.052341, no $ and no thousands separator. */
export function plainUnitPrice(price: UnitPrice): string {
  const [sign, whole, decimals] = parts(price);
  return `${sign}${whole}.${decimals}`;
}

/** The move from one price to another in percent to two decimals, signed: +5.23%, -0.50%; '–' without a first price. */
export function formatPriceChange(from: UnitPrice, to: UnitPrice): string {
  if (from <= 0) return '–';
  const pct = (((to - from) / from) * 100).toFixed(2);
  return `${Number(pct) > 0 ? '+' : ''}${pct}%`;
}

/** Dollars per unit as a float, for a chart's axis only (text goes through formatUnitPrice). */
export const chartDollars = (price: UnitPrice): number => price / PRICE_SCALE / 100;

/** A price against what was paid for a unit (cents per unit, a fraction allowed), as a return: 0.05 is 5 % up. */
export function priceReturn(price: UnitPrice, paidCentsPerUnit: number): number {
  return price / (paidCentsPerUnit * PRICE_SCALE) - 1;
}
