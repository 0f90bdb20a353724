// Bet-Signature: 'sha256=' + hex HMAC-SHA256 of the exact body bytes, keyed with the caller's API key.
import { createHmac } from 'node:crypto';

export function signBody(rawBody: string | Buffer, apiKey: string): string {
  return `sha256=${createHmac('sha256', apiKey).update(rawBody).digest('hex')}`;
}
