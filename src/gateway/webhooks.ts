import { timingSafeEqual } from 'node:crypto';
import { GatewayError } from './errors.js';
import { signWebhook } from './internal/sign.js';
import { type WebhookBody, WebhookBody as WebhookBodySchema } from './schemas/webhooks.js';

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

/**
 * Verification was asked for without a key: a body signed with the empty key would pass, so anyone could forge
 * one. A receiver configuration error, not a bad delivery.
 */
export class WebhookKeyError extends GatewayError {
  override name = 'WebhookKeyError';
}

type RawBody = string | Uint8Array;

function assertKey(apiKey: unknown): asserts apiKey is string {
  if (typeof apiKey === 'string' && apiKey.trim() !== '') return;
  throw new WebhookKeyError(
    'Webhook verification needs the API key the deliveries are signed with, and got ' +
      `${typeof apiKey === 'string' ? 'an empty string' : String(apiKey)}: pass your account's API key ` +
      "(e.g. parseWebhook(raw, signature, process.env.GATEWAY_API_KEY)) and refuse to start the receiver when it is unset, never a '' fallback.",
  );
}

function assertRaw(rawBody: unknown): asserts rawBody is RawBody {
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) return;
  throw new WebhookPayloadError(
    'Webhook verification needs the raw bytes: pass the raw request body (a Buffer or string exactly as received), ' +
      'not a parsed object. Re-serialising changes the signed bytes, so pass the raw body before any JSON.parse.',
  );
}

/**
 * Constant-time check of Bet-Signature over the raw bytes; false for a missing or malformed header. Throws
 * WebhookKeyError when apiKey is empty or missing.
 */
export function verifyWebhookSignature(
  rawBody: RawBody,
  header: string | string[] | null | undefined,
  apiKey: string,
): boolean {
  assertKey(apiKey);
  assertRaw(rawBody);
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || !value.startsWith('sha256=')) return false;
  const expected = Buffer.from(signWebhook(rawBody, apiKey), 'utf8');
  const given = Buffer.from(value.trim(), 'utf8');
  // timingSafeEqual throws on unequal lengths; the length of a hex digest is public anyway.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Default age limit of a delivery: older (or further in the future) is refused as a possible replay. */
export const DEFAULT_WEBHOOK_TOLERANCE_MS = 300_000;
/** Default nesting limit of a delivery body; result objects in the spec nest 3 or 4 levels. */
export const DEFAULT_WEBHOOK_MAX_DEPTH = 64;

export interface ParseWebhookOptions {
  /**
   * Refuse a delivery whose `delivered_at` is further than this from now, in milliseconds (a replay of an old
   * delivery, or a skewed clock). Default 300 000 (5 minutes). `false` turns the check off: only do that when the
   * receiver dedupes by correlation id itself.
   */
  toleranceMs?: number | false;
  /** Refuse a body nested deeper than this (arrays and objects) before parsing it. Default 64. */
  maxDepth?: number;
  /** Clock for the age check; default Date.now. */
  now?: () => number;
}

/**
 * Verifies Bet-Signature over the raw bytes, refuses bodies nested deeper than maxDepth, parses, checks the
 * documented shape (unknown fields kept) and refuses a stale delivered_at. Throws WebhookSignatureError (answer
 * 401) or WebhookPayloadError (answer 400); never a RangeError, whatever the body. Throws WebhookKeyError when
 * apiKey is empty or missing (a receiver set up without its key would accept forgeries).
 */
export function parseWebhook(
  rawBody: RawBody,
  header: string | string[] | null | undefined,
  apiKey: string,
  opts: ParseWebhookOptions = {},
): WebhookBody {
  assertKey(apiKey);
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
  const maxDepth = opts.maxDepth ?? DEFAULT_WEBHOOK_MAX_DEPTH;
  const depth = jsonDepth(text, maxDepth);
  if (depth > maxDepth) {
    throw new WebhookPayloadError(`Webhook body nests deeper than ${maxDepth} levels; answer 400.`);
  }
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
  const tolerance = opts.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS;
  if (tolerance !== false) assertFresh(parsed.data.delivered_at, tolerance, opts.now ?? Date.now);
  return parsed.data;
}

/**
 * Deepest nesting of arrays and objects in JSON text, stopping once past `limit`. A linear scan that skips
 * strings, so a hostile body costs one pass and no recursion.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

function assertFresh(deliveredAt: string | undefined, toleranceMs: number, now: () => number): void {
  const at = deliveredAt === undefined ? Number.NaN : Date.parse(deliveredAt);
  if (Number.isNaN(at)) {
    throw new WebhookPayloadError(
      'Webhook has no readable delivered_at, so its age cannot be checked; answer 400 (or pass toleranceMs: false to accept it).',
    );
  }
  const skew = Math.abs(now() - at);
  if (skew > toleranceMs) {
    throw new WebhookPayloadError(
      `Webhook delivered_at ${deliveredAt} is ${Math.round(skew / 1000)} s away from now (tolerance ${Math.round(toleranceMs / 1000)} s): a replay or a skewed clock; answer 400 and check the server clock.`,
    );
  }
}
