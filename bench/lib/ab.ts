// Interleaved A/B measurement: both sides run in the same process, alternating order each repeat,
// so drift (JIT warm-up, GC, a busy neighbour) hits both sides alike. Medians over repeats.
import { median } from './stats.js';

export interface AbOptions {
  /** Measured repeats per side. */
  repeats: number;
  /** Repeats run first and thrown away (JIT warm-up, connection set-up). */
  warmup?: number;
}

export interface AbResult {
  a: number[];
  b: number[];
  medianA: number;
  medianB: number;
}

/** Order of the two sides in repeat i: ABBA ABBA ..., so neither side always runs first. */
export function orderOf(i: number): ['a', 'b'] | ['b', 'a'] {
  return i % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
}

/** Each side returns one sample per call (e.g. ms per operation over a batch). */
export async function interleave(
  opts: AbOptions,
  a: () => Promise<number> | number,
  b: () => Promise<number> | number,
): Promise<AbResult> {
  const out = { a: [] as number[], b: [] as number[] };
  const sides = { a, b };
  const warmup = opts.warmup ?? 1;
  for (let i = 0; i < warmup + opts.repeats; i++) {
    for (const side of orderOf(i)) {
      maybeGc();
      const sample = await sides[side]();
      if (i >= warmup) out[side].push(sample);
    }
  }
  return { ...out, medianA: median(out.a), medianB: median(out.b) };
}

/** Milliseconds per call of fn over n sequential calls. */
export async function msPerOp(n: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (performance.now() - t0) / n;
}

/** Runs a collection between samples when node was started with --expose-gc; otherwise does nothing. */
export function maybeGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

/** Every ordering of the sides 0..n-1 (n! of them: 6 for three sides), the natural order first. */
export function permutations(n: number): number[][] {
  if (n <= 1) return [Array.from({ length: n }, (_, i) => i)];
  const out: number[][] = [];
  for (const rest of permutations(n - 1)) {
    for (let at = rest.length; at >= 0; at--) out.push([...rest.slice(0, at), n - 1, ...rest.slice(at)]);
  }
  return out;
}

export interface RoundsOptions {
  /** Measured rounds; a whole number of cycles through every ordering of the sides. */
  rounds: number;
  /** Rounds run first and thrown away (JIT warm-up, connection set-up); one full cycle by default. */
  warmup?: number;
}

/**
 * Paired rounds: every round runs each side once, and the rounds cycle through every ordering of the sides, so
 * each side runs first, last, before and after each other side equally often (what one side leaves behind, such
 * as garbage to collect, lands on the others alike). Returns one sample per side per measured round; compare
 * sides round by round (medianRatio), as the samples of one round are taken moments apart.
 */
export async function pairedRounds(
  opts: RoundsOptions,
  sides: (() => Promise<number> | number)[],
): Promise<number[][]> {
  const orders = permutations(sides.length);
  if (!(Number.isInteger(opts.rounds) && opts.rounds > 0 && opts.rounds % orders.length === 0)) {
    throw new RangeError(
      `rounds must be a positive multiple of ${orders.length} (every ordering of ${sides.length} sides), got ${opts.rounds}`,
    );
  }
  const warmup = opts.warmup ?? orders.length;
  const samples = sides.map(() => [] as number[]);
  for (let i = 0; i < warmup + opts.rounds; i++) {
    // Measured round 0 starts the cycle, whatever the warm-up length.
    const order = orders[(((i - warmup) % orders.length) + orders.length) % orders.length]!;
    for (const side of order) {
      maybeGc();
      const sample = await sides[side]!();
      if (i >= warmup) samples[side]!.push(sample);
    }
  }
  return samples;
}
