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

/** Like interleave for any number of sides: the order rotates each repeat so no side always runs first. */
export async function interleaveAll(
  opts: AbOptions,
  sides: (() => Promise<number> | number)[],
): Promise<{ samples: number[][]; medians: number[] }> {
  const samples = sides.map(() => [] as number[]);
  const warmup = opts.warmup ?? 1;
  for (let i = 0; i < warmup + opts.repeats; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = (i + k) % sides.length;
      maybeGc();
      const sample = await sides[side]!();
      if (i >= warmup) samples[side]!.push(sample);
    }
  }
  return { samples, medians: samples.map((s) => median(s)) };
}
