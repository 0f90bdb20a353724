// Field checks for request bodies and queries: each failure is a 400 that names the field and says what to send.
import { ApiError } from '../core/reply.js';

type Body = Record<string, unknown>;

function bad(field: string, want: string): never {
  throw new ApiError(400, { detail: `Field '${field}' ${want}`, field });
}

export function requireString(body: Body, field: string): string {
  const v = body[field];
  if (v === undefined || v === null || v === '') bad(field, 'is required: send it as a non-empty string');
  if (typeof v !== 'string') bad(field, `must be a string, got ${typeof v}`);
  return v;
}

export function optionalString(body: Body, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') bad(field, `must be a string, got ${typeof v}`);
  return v;
}

export function requireNumber(body: Body, field: string, opts: { positive?: boolean } = {}): number {
  const v = body[field];
  if (v === undefined || v === null) bad(field, 'is required: send it as a number');
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(field, `must be a number, got ${JSON.stringify(v)}`);
  if (opts.positive && v <= 0) bad(field, `must be positive, got ${v}`);
  return v;
}

export function optionalNumber(body: Body, field: string, opts: { positive?: boolean } = {}): number | undefined {
  if (body[field] === undefined || body[field] === null) return undefined;
  return requireNumber(body, field, opts);
}

export function requireInt(body: Body, field: string, opts: { positive?: boolean } = {}): number {
  const v = requireNumber(body, field, opts);
  if (!Number.isInteger(v)) bad(field, `must be a whole number, got ${v}`);
  return v;
}

export function optionalInt(body: Body, field: string, opts: { positive?: boolean } = {}): number | undefined {
  if (body[field] === undefined || body[field] === null) return undefined;
  return requireInt(body, field, opts);
}

export function optionalBool(body: Body, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') bad(field, `must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

export function requireStringArray(body: Body, field: string, opts: { min?: number; max?: number } = {}): string[] {
  const v = body[field];
  if (v === undefined || v === null) bad(field, 'is required: send an array of strings');
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) bad(field, 'must be an array of strings');
  if (opts.min !== undefined && v.length < opts.min) bad(field, `needs at least ${opts.min} item(s)`);
  if (opts.max !== undefined && v.length > opts.max) bad(field, `takes at most ${opts.max} items`);
  return v as string[];
}

/** Query-string integer: absent → undefined; otherwise a whole number or a 400 naming the parameter. */
export function queryInt(query: URLSearchParams, field: string, opts: { positive?: boolean } = {}): number | undefined {
  const raw = query.get(field);
  if (raw === null || raw === '') return undefined;
  const v = Number(raw);
  if (!Number.isInteger(v)) bad(field, `must be a whole number, got '${raw}'`);
  if (opts.positive && v <= 0) bad(field, `must be positive, got ${v}`);
  return v;
}

/** Query-string boolean: 'true'/'1' or 'false'/'0'. */
export function queryBool(query: URLSearchParams, field: string): boolean | undefined {
  const raw = query.get(field);
  if (raw === null || raw === '') return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  return bad(field, `must be true or false, got '${raw}'`);
}
