import { createHmac } from 'node:crypto';

/** 'sha256=' + hex HMAC-SHA256 of the raw body keyed with the API key: the Bet-Signature header value. */
export function signWebhook(rawBody: string | Uint8Array, apiKey: string): string {
  return `sha256=${createHmac('sha256', apiKey).update(rawBody).digest('hex')}`;
}
