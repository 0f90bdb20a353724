// Field checks for request bodies and queries as zod schemas; `read` is the one adapter from a zod issue to the
// spec's 400, which names the field and says what to send: `{ detail: "Field '<field>' <what>", field }`.

import { z } from 'zod';
import { isWholeCents } from '../core/money.js';
import { ApiError } from '../core/reply.js';

type Body = Record<string, unknown>;
type Opts = { positive?: boolean };

const absent = (v: unknown) => v === undefined || v === null;

/** The first issue as the 400 body; the issue's message is the "what to send" half. */
export function badRequest(field: string, error: z.ZodError): ApiError {
  const what = error.issues[0]?.message ?? 'is not valid';
  return new ApiError(400, { detail: `Field '${field}' ${what}`, field });
}

/** Parses one field's value with `schema`, or throws the 400 naming `field`. */
export function read<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw badRequest(field, parsed.error);
}

const requiredText = z
  .string({
    error: (i) =>
      absent(i.input) ? 'is required: send it as a non-empty string' : `must be a string, got ${typeof i.input}`,
  })
  .min(1, { error: 'is required: send it as a non-empty string' });

const anyText = z.string({ error: (i) => `must be a string, got ${typeof i.input}` });

function number(opts: Opts) {
  const n = z.number({
    error: (i) =>
      absent(i.input) ? 'is required: send it as a number' : `must be a number, got ${JSON.stringify(i.input)}`,
  });
  return opts.positive ? n.positive({ error: (i) => `must be positive, got ${i.input}` }) : n;
}

// Number.isInteger, not zod's .int(): .int() also refuses whole numbers beyond 2^53, which these checks accept.
const whole = <T extends z.ZodType<number>>(n: T) =>
  n.refine(Number.isInteger, { error: (i) => `must be a whole number, got ${i.input}` });

const bool = z.boolean({ error: (i) => `must be true or false, got ${JSON.stringify(i.input)}` });

/** Largest money amount the sandbox takes, in dollars: cents stay exact in a double far beyond it. */
export const MAX_MONEY = 1_000_000_000;

/** True when `value` is a whole number of cents: 0.29 is, 0.004 is not (toFixed reads the double exactly). */

// Money in dollars: positive, whole cents, at most MAX_MONEY. Sub-cent amounts are refused, not rounded, so a
// stake, a payout and a withdrawal always move the exact cents the caller named.
export const moneySchema = number({ positive: true })
  .max(MAX_MONEY, { error: (i) => `must be at most ${MAX_MONEY} dollars, got ${i.input}` })
  .refine(isWholeCents, {
    error: (i) => `must be whole cents (at most 2 decimal places, 0.01 or more), got ${i.input}`,
  });

/** A required money amount in dollars: positive, whole cents, at most MAX_MONEY; else the 400 naming the field. */
export function requireMoney(body: Body, field: string): number {
  return read(moneySchema, body[field], field);
}

/** A required number within [min, max] (inclusive); the 400 names the field and the allowed range. */
export function requireInRange(body: Body, field: string, range: { min: number; max: number; unit?: string }): number {
  const unit = range.unit ? ` ${range.unit}` : '';
  const within = number({}).refine((v) => v >= range.min && v <= range.max, {
    error: (i) => `must be between ${range.min} and ${range.max}${unit}, got ${i.input}`,
  });
  return read(within, body[field], field);
}

export function requireString(body: Body, field: string): string {
  return read(requiredText, body[field], field);
}

export function optionalString(body: Body, field: string): string | undefined {
  return absent(body[field]) ? undefined : read(anyText, body[field], field);
}

export function requireNumber(body: Body, field: string, opts: Opts = {}): number {
  return read(number(opts), body[field], field);
}

export function optionalNumber(body: Body, field: string, opts: Opts = {}): number | undefined {
  return absent(body[field]) ? undefined : requireNumber(body, field, opts);
}

export function requireInt(body: Body, field: string, opts: Opts = {}): number {
  return read(whole(number(opts)), body[field], field);
}

export function optionalInt(body: Body, field: string, opts: Opts = {}): number | undefined {
  return absent(body[field]) ? undefined : requireInt(body, field, opts);
}

export function optionalBool(body: Body, field: string): boolean | undefined {
  return absent(body[field]) ? undefined : read(bool, body[field], field);
}

export function requireStringArray(body: Body, field: string, opts: { min?: number; max?: number } = {}): string[] {
  let list = z.array(z.string({ error: 'must be an array of strings' }), {
    error: (i) => (absent(i.input) ? 'is required: send an array of strings' : 'must be an array of strings'),
  });
  if (opts.min !== undefined) list = list.min(opts.min, { error: `needs at least ${opts.min} item(s)` });
  if (opts.max !== undefined) list = list.max(opts.max, { error: `takes at most ${opts.max} items` });
  return read(list, body[field], field);
}

/** Query-string integer: absent → undefined; otherwise a whole number or a 400 naming the parameter. */
export function queryInt(query: URLSearchParams, field: string, opts: Opts = {}): number | undefined {
  const raw = query.get(field);
  if (raw === null || raw === '') return undefined;
  const int = z
    .string()
    .refine((s) => Number.isInteger(Number(s)), { error: (i) => `must be a whole number, got '${i.input}'` })
    .transform(Number);
  return read(opts.positive ? int.pipe(number(opts)) : int, raw, field);
}

/** Query-string boolean: 'true'/'1' or 'false'/'0'. */
export function queryBool(query: URLSearchParams, field: string): boolean | undefined {
  const raw = query.get(field);
  if (raw === null || raw === '') return undefined;
  const flag = z.enum(['true', '1', 'false', '0'], { error: (i) => `must be true or false, got '${i.input}'` });
  const value = read(flag, raw, field);
  return value === 'true' || value === '1';
}
