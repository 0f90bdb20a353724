/**
 * The sandbox's money and prices (decision 1620). The gateway speaks dollars and decimal prices, both to two
 * decimals: every rounding to hundredths and every "$12.50" the sandbox writes goes through here. The desk has its
 * own (src/bot/model/money.ts, in whole cents); the parts import nothing of each other.
 */

/** Dollars rounded to the cent. */
export const money = (dollars: number): number => Math.round(dollars * 100) / 100;

/** A decimal price rounded to two decimals, as cards quote it. */
export const roundPrice = (odds: number): number => Math.round(odds * 100) / 100;

/** Dollars in whole cents, for arithmetic that must not drift. */
export const centsOf = (dollars: number): number => Math.round(dollars * 100);

/** Dollars as the gateway's messages write them: "$1250.00" (the spec's samples have no separators). */
export const dollarsText = (dollars: number): string => `$${dollars.toFixed(2)}`;

/** A price as the gateway's messages write it: "1.85". */
export const priceText = (odds: number): string => odds.toFixed(2);

/** Whether dollars are whole cents (0.004 is not). */
export const isWholeCents = (dollars: number): boolean => Number(dollars.toFixed(2)) === dollars;
