// What a handler answers, and the error it throws to answer otherwise. A leaf: every room may import it.

export type Reply = { status: number; body: unknown; headers?: Record<string, string> };

/** Throw from a handler (or anything it calls) to answer with this status and body. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, body: unknown, headers?: Record<string, string>) {
    super(typeof body === 'object' && body !== null ? JSON.stringify(body) : String(body));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** A 400 in the session operations' shape, `{status: error, message}`; other errors pass through. */
export function asSessionOpError(err: unknown): unknown {
  if (err instanceof ApiError && err.status === 400) {
    const body = err.body as { detail?: string; message?: string };
    return new ApiError(400, { status: 'error', message: body.detail ?? body.message ?? 'Bad request' });
  }
  return err;
}

export const ok = (body: unknown, headers?: Record<string, string>): Reply =>
  headers ? { status: 200, body, headers } : { status: 200, body };
export const accepted = (body: unknown): Reply => ({ status: 202, body });
