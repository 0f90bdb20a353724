import { z } from 'zod';

/** True when the value has the documented shape; never copies or changes it. */
export type ShapeCheck = (value: unknown) => boolean;

type Def = {
  type: string;
  checks?: { _zod: { def: { check: string; minimum?: number } } }[];
  coerce?: boolean;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  left?: z.ZodType;
  right?: z.ZodType;
};

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const optinOf = (s: z.ZodType): unknown => (s as unknown as { _zod: { optin?: unknown } })._zod.optin;

/** Schema kinds whose output can be their input: no transform, default, catch, pipe, coercion or overwrite check. */
const PURE_KINDS = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'undefined',
  'unknown',
  'any',
  'never',
  'enum',
  'literal',
  'optional',
  'nullable',
  'object',
  'array',
  'union',
  'record',
  'tuple',
  'intersection',
]);

const purity = new WeakMap<z.ZodType, boolean>();

/** Whether parsing the schema can only accept or refuse, so the input value itself may be handed back. */
export function isPure(schema: z.ZodType): boolean {
  const known = purity.get(schema);
  if (known !== undefined) return known;
  purity.set(schema, true); // a cycle is judged by its other members
  const d = defOf(schema);
  const children: (z.ZodType | null | undefined)[] = [
    d.innerType,
    d.element,
    d.catchall,
    d.keyType,
    d.valueType,
    d.rest,
    d.left,
    d.right,
    ...Object.values(d.shape ?? {}),
    ...(d.options ?? []),
    ...(d.items ?? []),
  ];
  const pure =
    PURE_KINDS.has(d.type) &&
    // A stripping z.object drops unknown keys; only loose and strict objects hand their input back unchanged.
    (d.type !== 'object' || d.catchall !== undefined) &&
    !d.coerce &&
    !(d.checks ?? []).some((c) => c._zod.def.check === 'overwrite') &&
    children.every((c) => c == null || isPure(c));
  purity.set(schema, pure);
  return pure;
}

/** Anything beyond plain types (refinements, records, typed catchalls) asks zod itself, on that part only. */
const viaZod =
  (schema: z.ZodType): ShapeCheck =>
  (v) =>
    schema.safeParse(v).success;

/**
 * Generates one straight-line JS function per schema (as zod's own JIT does): no allocation per value, so a
 * 500-event page is checked in a fraction of the time JSON.parse took to build it.
 */
class Generator {
  readonly #fns: string[] = [];
  readonly #refs: unknown[] = [];
  readonly #names = new Map<z.ZodType, string>();

  compile(schema: z.ZodType): ShapeCheck {
    const root = this.#fn(schema);
    const body = `${this.#fns.join('\n')}\nreturn ${root};`;
    return new Function('refs', body)(this.#refs) as ShapeCheck;
  }

  #ref(value: unknown): string {
    this.#refs.push(value);
    return `refs[${this.#refs.length - 1}]`;
  }

  /** A named function checking `v`; objects and arrays get one each, shared when a schema repeats. */
  #fn(schema: z.ZodType): string {
    const known = this.#names.get(schema);
    if (known) return known;
    const name = `f${this.#names.size}`;
    this.#names.set(schema, name);
    const d = defOf(schema);
    let body: string;
    const plain = (d.checks?.length ?? 0) === 0;
    if (plain && d.type === 'object' && (isLooseOrStrip(d) || isStrict(d))) body = this.#objectBody(d);
    else if (plain && d.type === 'array')
      body = `if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) { const x = v[i]; if (!(${this.#expr(d.element!, 'x')})) return false; }
  return true;`;
    else body = `return ${this.#expr(schema, 'v')};`;
    this.#fns.push(`function ${name}(v) {\n  ${body}\n}`);
    return name;
  }

  #objectBody(d: Def): string {
    const lines = ["if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;", 'let x;'];
    if (isStrict(d)) {
      // A strict object (request schemas) refuses any key the schema does not name.
      const known = this.#ref(new Set(Object.keys(d.shape ?? {})));
      lines.push(`for (const k in v) if (!${known}.has(k)) return false;`);
    }
    for (const [key, field] of Object.entries(d.shape ?? {})) {
      const k = JSON.stringify(key);
      lines.push(`x = v[${k}];`, `if (!(${this.#expr(field, 'x')})) return false;`);
      // zod refuses an absent required key even when its type would accept undefined (z.unknown()).
      if (optinOf(field) === undefined && acceptsUndefined(field)) lines.push(`if (!(${k} in v)) return false;`);
    }
    lines.push('return true;');
    return lines.join('\n  ');
  }

  /** A boolean JS expression over the plain variable `x`. */
  #expr(schema: z.ZodType, x: string): string {
    const d = defOf(schema);
    if ((d.checks?.length ?? 0) > 0) {
      // A non-empty string (nonEmpty, min(1)) is the one check worth inlining: request queries use it everywhere.
      if (d.type === 'string' && d.checks!.every((c) => c._zod.def.check === 'min_length' && c._zod.def.minimum === 1))
        return `(typeof ${x} === 'string' && ${x}.length > 0)`;
      return `${this.#ref(viaZod(schema))}(${x})`;
    }
    switch (d.type) {
      case 'string':
        return `typeof ${x} === 'string'`;
      case 'number':
        return `(typeof ${x} === 'number' && Number.isFinite(${x}))`;
      case 'boolean':
        return `typeof ${x} === 'boolean'`;
      case 'null':
        return `${x} === null`;
      case 'undefined':
        return `${x} === undefined`;
      case 'unknown':
      case 'any':
        return 'true';
      case 'enum':
        return `${this.#ref(new Set<unknown>(Object.values(d.entries ?? {})))}.has(${x})`;
      case 'literal':
        return `${this.#ref(new Set<unknown>(d.values ?? []))}.has(${x})`;
      case 'optional':
        return `(${x} === undefined || ${this.#expr(d.innerType!, x)})`;
      case 'nullable':
        return `(${x} === null || ${this.#expr(d.innerType!, x)})`;
      case 'union':
        return `(${(d.options ?? []).map((o) => this.#expr(o, x)).join(' || ')})`;
      case 'object':
        return isLooseOrStrip(d) || isStrict(d) ? `${this.#fn(schema)}(${x})` : `${this.#ref(viaZod(schema))}(${x})`;
      case 'array':
        return `${this.#fn(schema)}(${x})`;
      default:
        return `${this.#ref(viaZod(schema))}(${x})`;
    }
  }
}

/** Objects whose unknown keys need no check: loose (kept) or stripping (never reached: isPure refuses them). */
function isLooseOrStrip(d: Def): boolean {
  const catchall = d.catchall ? defOf(d.catchall).type : undefined;
  return catchall === undefined || catchall === 'unknown' || catchall === 'any';
}

/** z.strictObject: unknown keys are refused (catchall never). */
function isStrict(d: Def): boolean {
  return d.catchall !== undefined && defOf(d.catchall).type === 'never';
}

function acceptsUndefined(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

const compiled = new WeakMap<z.ZodType, ShapeCheck | null>();

/**
 * A checker for a pure schema (see isPure), built once per schema; undefined when the schema reshapes its input.
 * It may refuse something zod accepts (the caller then asks zod) but never accepts what zod refuses.
 */
export function shapeCheckOf(schema: z.ZodType): ShapeCheck | undefined {
  const wrapped = wrappers.get(schema);
  if (wrapped) return shapeCheckOf(wrapped);
  let check = compiled.get(schema);
  if (check === undefined) {
    check = isPure(schema) ? new Generator().compile(schema) : null;
    compiled.set(schema, check);
  }
  return check ?? undefined;
}

const wrappers = new WeakMap<z.ZodType, z.ZodType>();

/** The schema a checked() wrapper stands for (the one its check is generated from); any other schema itself. */
export function schemaBehind(schema: z.ZodType): z.ZodType {
  return wrappers.get(schema) ?? schema;
}

/**
 * The schema as callers see it: `safeParse` runs the generated check and hands back the value itself (unknown
 * fields kept, nothing copied); only a body that fails it is parsed by the full schema, for field-by-field issues.
 */
export function checked<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, z.input<S>> {
  const check = shapeCheckOf(schema);
  if (!check) throw new TypeError('checked() needs a schema without transforms, defaults or coercion.');
  const outer = z.unknown().check((ctx) => {
    if (check(ctx.value)) return;
    const parsed = schema.safeParse(ctx.value);
    if (!parsed.success) ctx.issues.push(...(parsed.error.issues as typeof ctx.issues));
  });
  wrappers.set(outer, schema);
  return outer as unknown as z.ZodType<z.output<S>, z.input<S>>;
}
