import { timingSafeEqual } from 'node:crypto';
import { GatewayError } from './errors.js';
import { type WebhookBody, WebhookBody as WebhookBodySchema } from './schemas/webhooks.js';
import { signWebhook } from './webhooks/sign.js';

export { signWebhook };

/** Header names used by the gateway since 2026-05-14 (values unchanged from the older X- forms). */
export const SIGNATURE_HEADER = 'bet-signature';
export const CORRELATION_HEADER = 'bet-correlation-id';

export class WebhookSignatureError extends GatewayError {
  override name = 'WebhookSignatureError';
}

export class WebhookPayloadError extends GatewayError {
  override name = 'WebhookPayloadError';
}

type RawBody = string | Uint8Array;

function assertRaw(rawBody: unknown): asserts rawBody is RawBody {
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) return;
  throw new WebhookPayloadError(
    'Webhook verification needs the raw bytes: pass the raw request body (a Buffer or string exactly as received), ' +
      'not a parsed object. Re-serialising changes the signed bytes, so pass the raw body before any JSON.parse.',
  );
}

/** Constant-time check of Bet-Signature over the raw bytes; false for a missing or malformed header. */
export function verifyWebhookSignature(
  rawBody: RawBody,
  header: string | string[] | null | undefined,
  apiKey: string,
): boolean {
  assertRaw(rawBody);
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || !value.startsWith('sha256=')) return false;
  const expected = Buffer.from(signWebhook(rawBody, apiKey), 'utf8');
  const given = Buffer.from(value.trim(), 'utf8');
  // timingSafeEqual throws on unequal lengths; the length of a hex digest is public anyway.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface ParseWebhookOptions {
  /** Refuse a delivery whose delivered_at is further than this from now (replays of old deliveries). Off by default. */
  toleranceMs?: number;
  now?: () => number;
}

/** Verifies, then parses into the typed webhook shape (unknown fields kept). */
export function parseWebhook(
  rawBody: RawBody,
  header: string | string[] | null | undefined,
  apiKey: string,
  opts: ParseWebhookOptions = {},
): WebhookBody {
  assertRaw(rawBody);
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === null || value === '') {
    throw new WebhookSignatureError(
      'Webhook has no Bet-Signature header: refuse it (answer 401); only the gateway can sign deliveries.',
    );
  }
  if (!verifyWebhookSignature(rawBody, value, apiKey)) {
    throw new WebhookSignatureError(
      'Webhook Bet-Signature does not match the body: refuse it (answer 401). Check that the receiver uses the same API key as the client and verifies the raw, unmodified body.',
    );
  }
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebhookPayloadError('Webhook body is signed but is not JSON; answer 400.');
  }
  const parsed = WebhookBodySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new WebhookPayloadError(
      `Webhook body lacks the documented shape (${issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'invalid'}); answer 400.`,
    );
  }
  if (opts.toleranceMs !== undefined) assertFresh(parsed.data.delivered_at, opts.toleranceMs, opts.now ?? Date.now);
  return parsed.data;
}

function assertFresh(deliveredAt: string | undefined, toleranceMs: number, now: () => number): void {
  const at = deliveredAt === undefined ? Number.NaN : Date.parse(deliveredAt);
  if (Number.isNaN(at)) {
    throw new WebhookPayloadError('Webhook has no readable delivered_at, so its age cannot be checked; answer 400.');
  }
  const skew = Math.abs(now() - at);
  if (skew > toleranceMs) {
    throw new WebhookPayloadError(
      `Webhook delivered_at ${deliveredAt} is ${Math.round(skew / 1000)} s away from now (tolerance ${Math.round(toleranceMs / 1000)} s): a replay or a skewed clock; answer 400 and check the server clock.`,
    );
  }
}
