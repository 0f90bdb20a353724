// The generated shape check is a fast path in front of zod (validate.ts): when it accepts, zod is never asked.
// This proves it against zod for every schema the library exports: valid values built from each schema's own
// definition, then many one-place mutations of them, and the check must answer exactly as zod's safeParse does.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaBehind, shapeCheckOf } from '../../../src/gateway/internal/shape-check.js';
import * as schemas from '../../../src/gateway/schemas/index.js';

type Def = {
  type: string;
  checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
};
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const optinOf = (s: z.ZodType): unknown => (s as unknown as { _zod: { optin?: unknown } })._zod.optin;

/** mulberry32: a small seeded generator, so every run builds the same values. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class CannotBuild extends Error {}

/** Builds a value the schema accepts, from its definition; throws CannotBuild naming what it cannot build. */
class ValueBuilder {
  constructor(private readonly rand: () => number) {}

  #int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }
  #pick<T>(xs: readonly T[]): T {
    return xs[this.#int(0, xs.length - 1)]!;
  }
  #word(length: number): string {
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
    return Array.from({ length }, () => letters[this.#int(0, letters.length - 1)]).join('');
  }

  /** Candidates for a leaf with checks (lengths, bounds, formats, refinements); zod keeps the first that fits. */
  #leafCandidates(type: string, d: Def): unknown[] {
    if (type === 'string') {
      const lengths = (d.checks ?? []).flatMap((c) => [c._zod.def.minimum, c._zod.def.maximum]).filter(Number.isFinite);
      return [
        this.#word(this.#int(1, 12)),
        ...lengths.map((n) => this.#word(n as number)),
        `2026-0${this.#int(1, 9)}-${10 + this.#int(0, 18)}`,
        `https://hooks.example.test/${this.#word(6)}`,
        this.#word(3),
      ];
    }
    return [
      this.#int(1, 30),
      this.#int(1, 400) / 100 + 1,
      0,
      this.#int(31, 1000),
      -this.#int(1, 30),
      Number.MAX_SAFE_INTEGER,
    ];
  }

  build(schema: z.ZodType, path: string): unknown {
    const d = defOf(schema);
    const hasChecks = (d.checks?.length ?? 0) > 0;
    switch (d.type) {
      case 'string':
      case 'number': {
        if (!hasChecks) return d.type === 'string' ? this.#word(this.#int(0, 10)) : this.#int(-500, 5000) / 100;
        const fit = this.#leafCandidates(d.type, d).find((c) => schema.safeParse(c).success);
        if (fit === undefined) throw new CannotBuild(`no ${d.type} candidate satisfies the checks at ${path}`);
        return fit;
      }
      case 'boolean':
        return this.rand() < 0.5;
      case 'null':
        return null;
      case 'undefined':
        return undefined;
      case 'unknown':
      case 'any':
        return this.#pick([1, 'x', null, true, { nested: [1, 'two'] }, [3]]);
      case 'enum':
        return this.#pick(Object.values(d.entries ?? {}));
      case 'literal':
        return this.#pick(d.values ?? []);
      case 'optional':
        return this.rand() < 0.3 ? undefined : this.build(d.innerType!, path);
      case 'nullable':
        return this.rand() < 0.3 ? null : this.build(d.innerType!, path);
      case 'union':
        return this.build(this.#pick(d.options ?? []), path);
      case 'array':
        return this.#withChecks(schema, path, () => {
          const min = Math.max(0, ...(d.checks ?? []).map((c) => c._zod.def.minimum ?? 0));
          return Array.from({ length: this.#int(min, min + 3) }, (_, i) => this.build(d.element!, `${path}[${i}]`));
        });
      case 'object':
        return this.#withChecks(schema, path, () => this.#object(d, path));
      default:
        throw new CannotBuild(`the value builder does not know zod kind '${d.type}' (at ${path}); teach it`);
    }
  }

  /** Refinements on a whole object or array (max_odds ≥ target_odds): build again until one fits. */
  #withChecks(schema: z.ZodType, path: string, make: () => unknown): unknown {
    for (let attempt = 0; attempt < 50; attempt++) {
      const value = make();
      if (schema.safeParse(value).success) return value;
    }
    throw new CannotBuild(`50 built values all fail the checks of the ${defOf(schema).type} at ${path}`);
  }

  #object(d: Def, path: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(d.shape ?? {})) {
      // An optional key is sometimes left out altogether rather than set to undefined.
      if (optinOf(field) === 'optional' && this.rand() < 0.3) continue;
      out[key] = this.build(field, `${path}.${key}`);
    }
    // A loose object keeps keys the spec does not name: the tolerant reader must accept them.
    const catchall = d.catchall ? defOf(d.catchall).type : undefined;
    if ((catchall === 'unknown' || catchall === 'any') && this.rand() < 0.5) out.added_later = this.#word(4);
    return out;
  }
}

const REPLACEMENTS: [string, unknown][] = [
  ['null', null],
  ['undefined', undefined],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
  ['0', 0],
  ['-1', -1],
  ['1.5', 1.5],
  ['an unsafe integer', 2 ** 60],
  ['an empty string', ''],
  ['a string', 'x'],
  ['a 201-character string', 'y'.repeat(201)],
  ['a numeric string', '12'],
  ['true', true],
  ['an empty array', []],
  ['an array of null', [null]],
  ['an empty object', {}],
  ['a date string', '2026-02-30'],
  ['an ftp URL', 'ftp://example.test'],
];

type Mutant = { label: string; value: unknown };

/** Each mutation changes the value in one place: replaced, removed, added to, or emptied. */
function mutants(root: unknown): Mutant[] {
  const out: Mutant[] = [];
  const visit = (node: unknown, path: Path) => {
    const where = path.length ? path.join('.') : '(root)';
    for (const [name, replacement] of REPLACEMENTS)
      out.push({ label: `${where} = ${name}`, value: replaced(root, path, () => structuredClone(replacement)) });
    if (Array.isArray(node)) {
      out.push({ label: `${where} emptied`, value: replaced(root, path, () => []) });
      if (node.length > 0)
        out.push({
          label: `${where} gains a copy and a null`,
          value: edited(root, path, (n) => (n as unknown[]).push(structuredClone(node[0]), null)),
        });
      for (const [i, x] of node.entries()) visit(x, [...path, i]);
    } else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node))
        out.push({
          label: `${where} without ${key}`,
          value: edited(root, path, (n) => delete (n as Record<string, unknown>)[key]),
        });
      for (const extra of ['unexpected', 'constructor'])
        out.push({
          label: `${where} with an extra key ${extra}`,
          value: edited(root, path, (n) => Object.assign(n as object, { [extra]: 1 })),
        });
      out.push({
        label: `${where} as an array of its values`,
        value: replaced(root, path, (n) => Object.values(n as object)),
      });
      for (const [key, child] of Object.entries(node)) visit(child, [...path, key]);
    }
  };
  visit(root, []);
  return out;
}

type Path = (string | number)[];
type Container = Record<string | number, unknown>;

/** A copy of root whose node at path is what `make` builds from (a copy of) the node there. */
function replaced(root: unknown, path: Path, make: (node: unknown) => unknown): unknown {
  const copy = structuredClone(root);
  if (path.length === 0) return make(copy);
  let parent = copy as Container;
  for (const k of path.slice(0, -1)) parent = parent[k] as Container;
  const key = path.at(-1)!;
  parent[key] = make(parent[key]);
  return copy;
}

/** A copy of root whose node at path is changed in place by `change`. */
function edited(root: unknown, path: Path, change: (node: unknown) => unknown): unknown {
  return replaced(root, path, (node) => {
    change(node);
    return node;
  });
}

/** Every zod schema the library exports, by name, with the check shapeCheckOf generates for it. */
const covered = Object.entries(schemas as Record<string, unknown>)
  .filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType)
  .map(([name, exported]) => ({ name, schema: schemaBehind(exported), check: shapeCheckOf(exported) }))
  .filter((c) => c.check !== undefined);

const SEEDS = [1, 2, 3, 4, 5];

describe('the generated shape check answers as zod does', () => {
  it('covers the exported schemas, the checked events page and market card among them', () => {
    const names = covered.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['EventsPage', 'MarketCard', 'PlaceBetRequest']));
  });

  for (const { name, schema, check } of covered) {
    it(`for ${name}: on built values and every one-place mutation of them`, () => {
      const disagreements: string[] = [];
      for (const seed of SEEDS) {
        let value: unknown;
        try {
          value = new ValueBuilder(rng(seed)).build(schema, name);
        } catch (e) {
          if (e instanceof CannotBuild) throw new Error(`cannot build a valid ${name}: ${e.message}`);
          throw e;
        }
        expect(schema.safeParse(value).success, `the value built for ${name} (seed ${seed}) must be valid`).toBe(true);
        for (const { label, value: v } of [{ label: 'as built', value }, ...mutants(value)]) {
          const zod = schema.safeParse(v).success;
          if (check!(v) !== zod) disagreements.push(`seed ${seed}, ${label}: check ${!zod}, zod ${zod}`);
        }
      }
      expect(disagreements).toEqual([]);
    });
  }
});
