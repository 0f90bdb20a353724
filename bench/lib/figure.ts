// One row of the bench table and results.json, and the check of a figure against its target.
import { round } from './stats.js';

export interface FigureResult {
  name: string;
  /** The measured figure; null when it could not be measured. */
  value: number | null;
  unit: string;
  /** The side-by-side reference it is compared with (or the limit it is held against). */
  baseline: number | null;
  ratio: number | null;
  /** Human-readable target, e.g. "ratio <= 1.15". */
  target: string;
  met: boolean;
  note: string;
}

export type Op = '<=' | '<' | '>=' | '==';

export interface Target {
  /** Which number the target applies to. */
  on: 'ratio' | 'value';
  op: Op;
  limit: number;
}

export function describeTarget(t: Target, unit = ''): string {
  const suffix = t.on === 'value' && unit ? ` ${unit}` : '';
  return `${t.on} ${t.op} ${t.limit}${suffix}`;
}

export function compare(x: number, op: Op, limit: number): boolean {
  switch (op) {
    case '<=':
      return x <= limit;
    case '<':
      return x < limit;
    case '>=':
      return x >= limit;
    case '==':
      return x === limit;
  }
}

export interface Measured {
  name: string;
  value: number;
  unit: string;
  baseline: number | null;
  target: Target;
  note: string;
  /**
   * The ratio when it is measured directly (the median of per-round ratios of paired samples) rather than
   * value / baseline of two separate medians.
   */
  ratio?: number;
}

/** A measured figure: the ratio is value / baseline unless given; met is judged on the unrounded numbers. */
export function figure(m: Measured): FigureResult {
  const r = m.ratio ?? (m.baseline === null || m.baseline === 0 ? null : m.value / m.baseline);
  const subject = m.target.on === 'ratio' ? r : m.value;
  return {
    name: m.name,
    value: round(m.value),
    unit: m.unit,
    baseline: m.baseline === null ? null : round(m.baseline),
    ratio: r === null ? null : round(r),
    target: describeTarget(m.target, m.unit),
    met: subject !== null && compare(subject, m.target.op, m.target.limit),
    note: m.note,
  };
}

/** A figure that could not be measured (a part is missing or failed): reported, never hidden. */
export function notMeasured(name: string, unit: string, target: Target, why: string): FigureResult {
  return {
    name,
    value: null,
    unit,
    baseline: null,
    ratio: null,
    target: describeTarget(target, unit),
    met: false,
    note: `not measured: ${why}`,
  };
}

export function statusOf(f: FigureResult): 'met' | 'MISSED' | 'not measured' {
  if (f.value === null) return 'not measured';
  return f.met ? 'met' : 'MISSED';
}
