// Pure statistics over samples: medians and percentiles for the bench table.

function sorted(xs: readonly number[]): number[] {
  if (xs.length === 0) throw new RangeError('no samples: a figure needs at least one measurement');
  if (xs.some((x) => !Number.isFinite(x))) throw new RangeError('samples must be finite numbers');
  return [...xs].sort((a, b) => a - b);
}

/** Median; the mean of the two middle samples for an even count. */
export function median(xs: readonly number[]): number {
  const s = sorted(xs);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100): the smallest sample with at least p % of samples at or below it. */
export function percentile(xs: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be 0 to 100, got ${p}`);
  const s = sorted(xs);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[rank - 1]!;
}

/** Median of the per-round ratios a[i] / b[i]: each compares two samples taken moments apart. */
export function medianRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`paired samples differ in length (${a.length} and ${b.length})`);
  if (b.some((x) => !(x > 0))) throw new RangeError('a ratio needs positive baseline samples');
  return median(a.map((x, i) => x / b[i]!));
}

/** a / b, or null when b is zero (a ratio against nothing is not a figure). */
export function ratio(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}

/** Rounds for display and JSON: 3 significant digits below 100, whole numbers above. */
export function round(x: number): number {
  if (!Number.isFinite(x)) return x;
  if (Math.abs(x) >= 100) return Math.round(x);
  return Number(x.toPrecision(3));
}
