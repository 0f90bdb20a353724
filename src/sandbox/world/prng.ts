// Deterministic randomness for the simulated world: every draw derives from the seed plus a key,
// so the same seed always builds the same world (never Math.random). The generator itself is core/rng's.

import { createRng, hashString } from '../core/rng.js';

export { hashString };

/** Hash of the seed and a list of key parts. */
export function hashKey(seed: number, ...parts: (string | number)[]): number {
  return hashString(`${seed}|${parts.join('|')}`);
}

export type Rng = () => number;

/** A generator keyed by the seed and some parts: the same key always yields the same sequence. */
export function rngFor(seed: number, ...parts: (string | number)[]): Rng {
  return createRng(hashKey(seed, ...parts));
}

/** One uniform draw in [0, 1) for a key. */
export function unit(seed: number, ...parts: (string | number)[]): number {
  return rngFor(seed, ...parts)();
}

export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

export function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

/** Approximately normal draw (sum of uniforms), mean 0, sd 1. */
export function gaussian(rng: Rng): number {
  return rng() + rng() + rng() + rng() + rng() + rng() - 3;
}
