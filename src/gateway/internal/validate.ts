import type { z } from 'zod';
import { RequestValidationError, ResponseShapeError } from '../errors.js';
import { shapeCheckOf } from './shape-check.js';

const fieldOf = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join('.') : '(body)');

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown field(s) ${issue.keys.join(', ')}: remove them (the spec does not name them)`;
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  return issue.message;
}

/** Validates a request object before anything is sent; the error names the first bad field and says what to do. */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown, operation: string): z.output<S> {
  // A pure schema's output is its input; the generated check accepts it without zod's copy.
  const check = shapeCheckOf(schema);
  if (check?.(input)) return input as z.output<S>;
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ field: fieldOf(i.path), message: describeIssue(i) }));
  const first = issues[0] ?? { field: '(body)', message: 'is invalid' };
  const more =
    issues.length > 1
      ? ` (and ${issues.length - 1} more: ${issues
          .slice(1)
          .map((i) => i.field)
          .join(', ')})`
      : '';
  return throwValidation(`${operation}: ${first.field} ${first.message}${more}`, first.field, issues);
}

function throwValidation(message: string, field: string, issues: { field: string; message: string }[]): never {
  throw new RequestValidationError(message, { field, issues });
}

/** Validates a 2xx body: documented fields typed, unknown fields kept (the body itself is returned). */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  data: unknown,
  ctx: { method: string; path: string; status: number },
  /** Cleans what is kept on the error (the transport strips the API key from it). */
  clean: (value: unknown) => unknown = (b) => b,
  /** Response headers for the error, already cleaned. */
  headers?: () => Record<string, string>,
  /** A completed job's result rather than an HTTP body: the error says the job completed. */
  job?: { correlationId: string },
): z.output<S> {
  // The generated check answers almost every body; zod's own parse runs only to explain a refusal.
  const check = shapeCheckOf(schema);
  if (check?.(data)) return data as z.output<S>;
  const parsed = schema.safeParse(data);
  // A pure schema only accepts or refuses: hand back the body itself, unknown fields and all.
  if (parsed.success) return check ? (data as z.output<S>) : parsed.data;
  const issues = clean(parsed.error.issues.map((i) => `${fieldOf(i.path)}: ${i.message}`)) as string[];
  const hdrs = headers?.();
  const extra = hdrs ? { headers: hdrs, requestId: hdrs['x-request-id'] } : {};
  if (job) {
    const id = clean(job.correlationId) as string;
    throw new ResponseShapeError(
      `Job ${id} COMPLETED at the gateway, but its result does not match the documented shape (${issues.slice(0, 3).join('; ')}). Do not resubmit it: the work is done (a bet may be placed); read the result from this error's body or the account's transactions, and report the mismatch.`,
      { ...ctx, body: clean(data), issues, correlationId: id, jobCompleted: true, ...extra },
    );
  }
  throw new ResponseShapeError(
    `${ctx.method} ${ctx.path} answered ${ctx.status} with an unexpected body (${issues.slice(0, 3).join('; ')}). The gateway and this client disagree on the spec; report it.`,
    { ...ctx, body: clean(data), issues, ...extra },
  );
}
