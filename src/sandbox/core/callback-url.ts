// callback_url acceptance: the sandbox is a local tool, so it registers http(s) URLs on loopback only.
// Anything else is answered with callback_url null in the envelope ("registration failed: poll").
import { ApiError } from './reply.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function acceptCallbackUrl(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') {
    throw new ApiError(400, { detail: "Field 'callback_url' must be a string URL", field: 'callback_url' });
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError(400, {
      detail: "Field 'callback_url' is not a valid URL; send e.g. http://127.0.0.1:8790/webhooks/gateway",
      field: 'callback_url',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(400, {
      detail: "Field 'callback_url' must be an http:// or https:// URL",
      field: 'callback_url',
    });
  }
  return LOOPBACK.has(url.hostname) ? url.toString() : null;
}
