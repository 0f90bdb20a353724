// Prices move: a slow deterministic drift per selection (a step every few minutes of sandbox time),
// plus forced moves that tests and the control route apply.
import { roundPrice } from '../core/money.js';
import { MINUTE_MS } from './dates.js';
import { unit } from './prng.js';

/**
 * Natural prices change only at these steps, so a card read and a bet a second later agree. Steps count from the
 * world's price epoch (the clock's start): a fresh sandbox's prices hold still for its first five minutes unless
 * something moves them.
 */
export const DRIFT_STEP_MS = 5 * MINUTE_MS;
const DRIFT_AMPLITUDE = 0.025;

export interface ForcedDrift {
  /** Which prices move: every field given must match (racing selections use `raceKey`). */
  bookie?: string;
  epk?: string;
  raceKey?: string;
  market?: string;
  selection?: string;
  /** Multiplies the price (0.8 = shortens by 20%). */
  factor: number;
  /** Sets the price outright instead (a pin: the watch control route); later moves apply on top of it. */
  price?: number;
  /** Sandbox time the move happened; cards show it from the next scrape step. */
  atMs: number;
}

export interface PriceKey {
  bookie: string;
  event: string;
  market: string;
  selection: string;
  racing?: boolean;
}

function matches(f: ForcedDrift, k: PriceKey): boolean {
  if (f.bookie !== undefined && f.bookie !== k.bookie) return false;
  if (f.epk !== undefined && (k.racing || f.epk !== k.event)) return false;
  if (f.raceKey !== undefined && (!k.racing || f.raceKey !== k.event)) return false;
  if (f.market !== undefined && f.market !== k.market) return false;
  if (f.selection !== undefined && f.selection !== k.selection) return false;
  return true;
}

/** The price of a selection at sandbox time `tMs`. */
export function priceAt(
  seed: number,
  key: PriceKey,
  base: number,
  tMs: number,
  forced: readonly ForcedDrift[],
  epochMs = 0,
): number {
  const step = Math.floor((tMs - epochMs) / DRIFT_STEP_MS);
  const wobble = (unit(seed, 'drift', key.bookie, key.event, key.market, key.selection, step) - 0.5) * 2;
  let price = base * Math.exp(DRIFT_AMPLITUDE * wobble);
  for (const f of forced) if (f.atMs <= tMs && matches(f, key)) price = f.price ?? price * f.factor;
  return Math.min(1001, Math.max(1.01, roundPrice(price)));
}

/** The time of the last scrape (a price step since `epochMs`): cards show prices as of then. */
export function scrapeTime(nowMs: number, epochMs = 0): number {
  return epochMs + Math.floor((nowMs - epochMs) / DRIFT_STEP_MS) * DRIFT_STEP_MS;
}
