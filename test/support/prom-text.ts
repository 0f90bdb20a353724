// A strict reader of Prometheus' text exposition format 0.0.4: every line is a HELP, a TYPE or a sample of a
// family declared before it; names, label names and escapes as the format allows; a histogram's buckets rise,
// end in +Inf and agree with its _count. Anything else throws, naming the line.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, line: number): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`line ${line}: bad value ${text}`);
  return Number(text);
}

/** Reads `{a="x",b="y"}` from position `at`; returns the labels and the position after the closing brace. */
function parseLabels(s: string, at: number, line: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = at + 1;
  for (;;) {
    if (s[i] === '}') return { labels, end: i + 1 };
    const eq = s.indexOf('=', i);
    if (eq < 0) throw new Error(`line ${line}: label without =`);
    const name = s.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name ${name}`);
    if (name in labels) throw new Error(`line ${line}: label ${name} twice`);
    if (s[eq + 1] !== '"') throw new Error(`line ${line}: label ${name} value not quoted`);
    let value = '';
    let j = eq + 2;
    for (;;) {
      const c = s[j];
      if (c === undefined) throw new Error(`line ${line}: unterminated label value`);
      if (c === '"') break;
      if (c === '\\') {
        const n = s[j + 1];
        if (n === '\\') value += '\\';
        else if (n === '"') value += '"';
        else if (n === 'n') value += '\n';
        else throw new Error(`line ${line}: bad escape \\${n}`);
        j += 2;
        continue;
      }
      if (c === '\n') throw new Error(`line ${line}: raw newline in a label value`);
      value += c;
      j += 1;
    }
    labels[name] = value;
    i = j + 1;
    if (s[i] === ',') i += 1;
    else if (s[i] !== '}') throw new Error(`line ${line}: expected , or } after label ${name}`);
  }
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    const base = name.endsWith(suffix) ? name.slice(0, -suffix.length) : undefined;
    if (base !== undefined && (types.get(base) === 'histogram' || types.get(base) === 'summary')) return base;
  }
  return undefined;
}

export function parseExposition(text: string): Exposition {
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const samples: Sample[] = [];
  const seen = new Set<string>();
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw === '') throw new Error(`line ${line}: empty line`);
    if (raw.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw);
      if (!m) throw new Error(`line ${line}: a comment that is neither HELP nor TYPE: ${raw}`);
      const [, kind, name, rest] = m as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name ${name}`);
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`line ${line}: unknown type ${rest}`);
        if (types.has(name)) throw new Error(`line ${line}: TYPE of ${name} twice`);
        if (samples.some((s) => familyOf(s.name, new Map([[name, rest]])) === name)) {
          throw new Error(`line ${line}: TYPE of ${name} after its samples`);
        }
        types.set(name, rest);
      } else {
        if (helps.has(name)) throw new Error(`line ${line}: HELP of ${name} twice`);
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ''))) throw new Error(`line ${line}: bad escape in HELP`);
        helps.add(name);
      }
      return;
    }
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(raw);
    if (!nameMatch) throw new Error(`line ${line}: no metric name: ${raw}`);
    const name = nameMatch[0];
    let at = name.length;
    let labels: Record<string, string> = {};
    if (raw[at] === '{') ({ labels, end: at } = parseLabels(raw, at, line));
    if (raw[at] !== ' ') throw new Error(`line ${line}: expected a space before the value: ${raw}`);
    const parts = raw.slice(at + 1).split(' ');
    if (parts.length > 2 || parts[0] === '') throw new Error(`line ${line}: expected value [timestamp]: ${raw}`);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`line ${line}: bad timestamp`);
    const family = familyOf(name, types);
    if (family === undefined) throw new Error(`line ${line}: sample ${name} has no TYPE before it`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`line ${line}: series ${key} twice`);
    seen.add(key);
    const value = parseValue(parts[0] as string, line);
    if (types.get(family) === 'counter' && !(value >= 0)) throw new Error(`line ${line}: counter ${name} below 0`);
    samples.push({ name, labels, value });
  });
  checkHistograms(types, samples);
  return { types, samples };
}

function checkHistograms(types: Map<string, string>, samples: Sample[]): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
    const keyOf = (labels: Record<string, string>) =>
      JSON.stringify(
        Object.entries(labels)
          .filter(([k]) => k !== 'le')
          .sort(),
      );
    for (const s of samples) {
      const k = keyOf(s.labels);
      const entry = series.get(k) ?? { buckets: [] };
      series.set(k, entry);
      if (s.name === `${family}_bucket`) {
        if (s.labels.le === undefined) throw new Error(`${family}_bucket without le`);
        entry.buckets.push([parseValue(s.labels.le, 0), s.value]);
      } else if (s.name === `${family}_count`) entry.count = s.value;
    }
    for (const [k, { buckets, count }] of series) {
      if (buckets.length === 0 && count === undefined) continue;
      for (let i = 1; i < buckets.length; i++) {
        const [le, n] = buckets[i] as [number, number];
        const [prevLe, prevN] = buckets[i - 1] as [number, number];
        if (!(le > prevLe) || n < prevN) throw new Error(`${family}${k}: buckets do not rise`);
      }
      const last = buckets[buckets.length - 1];
      if (!last || last[0] !== Number.POSITIVE_INFINITY) throw new Error(`${family}${k}: no +Inf bucket`);
      if (last[1] !== count) throw new Error(`${family}${k}: +Inf bucket ${last[1]} is not _count ${count}`);
    }
  }
}

/** The sum of a family's samples whose labels include `match`. */
export function total(e: Exposition, name: string, match: Record<string, string> = {}): number {
  return e.samples
    .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);
}
