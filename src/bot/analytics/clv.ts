/** Closing line value and expected value of one bet, on decimal odds. */

import { type CloseMarket, isFairClose } from './facts.js';

const isPrice = (o: number): boolean => Number.isFinite(o) && o > 1;

/** Price-vs-price CLV: how much better the price taken was than the close (0.05 = 5 % better). */
export function priceClv(taken: number, close: number): number {
  return taken / close - 1;
}

/** Log CLV, ln(taken / close): adds up across bets, so sums and means compare groups of any size. */
export function logClv(taken: number, close: number): number {
  return Math.log(taken / close);
}

/** Sum of implied probabilities (1.05 = a 5 % book). */
export function overround(prices: readonly number[]): number {
  let s = 0;
  for (const p of prices) s += 1 / p;
  return s;
}

/** Fair probabilities by the multiplicative method: each implied probability divided by the overround. */
export function devigMultiplicative(prices: readonly number[]): number[] {
  const book = overround(prices);
  return prices.map((p) => 1 / p / book);
}

export type EvResult =
  | { ok: true; ev: number; fairProbability: number; fairOdds: number }
  | { ok: false; reason: 'no_close' | 'incomplete_market' | 'not_in_market' | 'bad_prices' };

/** Relative tolerance when finding the bet's close price among the market's prices. */
const SAME_PRICE = 1e-9;

/**
 * EV of the price taken against the no-vig close: taken × fair probability − 1. Only for a complete market
 * (every outcome priced); an incomplete one is reported as such rather than guessed. A market whose book is
 * under 100 % cannot be complete with a margin, so it counts as incomplete too. A multi's fair close is already
 * without margin: its chance is the fair probability (decision 2040).
 */
export function evAgainstClose(taken: number, closeOdds: number | null, market: CloseMarket | null): EvResult {
  if (closeOdds === null || !isPrice(closeOdds)) return { ok: false, reason: 'no_close' };
  if (isFairClose(market)) {
    const p = market.probability;
    if (!(p > 0 && p <= 1) || !isPrice(taken)) return { ok: false, reason: 'bad_prices' };
    return { ok: true, ev: taken * p - 1, fairProbability: p, fairOdds: 1 / p };
  }
  if (!market?.complete || market.prices.length < 2) return { ok: false, reason: 'incomplete_market' };
  if (!market.prices.every(isPrice) || !isPrice(taken)) return { ok: false, reason: 'bad_prices' };
  const book = overround(market.prices);
  if (book < 1) return { ok: false, reason: 'incomplete_market' };
  if (!market.prices.some((p) => Math.abs(p - closeOdds) <= SAME_PRICE * closeOdds)) {
    return { ok: false, reason: 'not_in_market' };
  }
  const fairProbability = 1 / closeOdds / book;
  return { ok: true, ev: taken * fairProbability - 1, fairProbability, fairOdds: 1 / fairProbability };
}

/**
 * The price a multi's CLV is read against (decision 2040): the book's price at the race's close had it kept the margin
 * it took the multi at, taken × p(placement) / p(close). So a multi's CLV is p(close) / p(placement) − 1, how far its
 * fair chance moved, as a single's is how far its price moved. Without a fair chance at placement, the fair close.
 */
export function multiCloseOdds(taken: number, placedProbability: number | null | undefined, closeProbability: number) {
  if (typeof placedProbability === 'number' && placedProbability > 0 && isPrice(taken)) {
    return (taken * placedProbability) / closeProbability;
  }
  return 1 / closeProbability;
}
