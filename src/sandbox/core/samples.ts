// Sample mode: the demo key, and X-Service-Sandbox: 1 with a key lacking a subscription. Same shape and status
// as the real answer, plus `sandbox: true` and a note; nothing real happens.
import type { Ctx, Route } from './http.js';
import { ApiError, type Reply } from './reply.js';

export const SAMPLE_NOTE = 'This is a sample response from sandbox mode: nothing was read, placed or changed.';
export const SAMPLE_CORRELATION_ID = '00000000-0000-4000-8000-000000000000';
export const SAMPLE_SESSION = {
  session_id: '5e550000-0000-4000-8000-000000000001',
  bookie: 'bookie_a',
  username: 'sample_user',
};

/** A 202 envelope for any async route. */
export function sampleEnvelope(ctx: Ctx, extra: Record<string, unknown> = {}): Reply {
  const now = ctx.sb.clock.nowMs();
  return {
    status: 202,
    body: {
      status: 'pending',
      correlation_id: SAMPLE_CORRELATION_ID,
      submitted_at: new Date(now).toISOString(),
      timeout_at: new Date(now + 5 * 60_000).toISOString(),
      ...SAMPLE_SESSION,
      callback_url: null,
      ...extra,
    },
  };
}

function genericSample(route: Route, ctx: Ctx): Reply {
  if (route.async) return sampleEnvelope(ctx);
  return { status: 200, body: { success: true } };
}

function marked(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? { ...body, sandbox: true, sandbox_note: SAMPLE_NOTE }
    : { data: body, sandbox: true, sandbox_note: SAMPLE_NOTE };
}

/** The route's own sample (or a generic one), marked as a sample in body and header. */
export async function sampleReply(route: Route, ctx: Ctx): Promise<Reply> {
  const reply = route.sample ? await route.sample(ctx) : genericSample(route, ctx);
  return { status: reply.status, body: marked(reply.body), headers: { ...reply.headers, 'X-Service-Sandbox': '1' } };
}

/** A refusal in sample mode: the real status and body, marked as a sample like any other sample answer. */
export function sampleError(err: ApiError): ApiError {
  return new ApiError(err.status, marked(err.body), { ...err.headers, 'X-Service-Sandbox': '1' });
}
