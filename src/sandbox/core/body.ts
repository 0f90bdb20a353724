// Request body reading: bounded size, JSON object or nothing.
import type { IncomingMessage } from 'node:http';
import { BodyTooLarge, readBody as readBounded } from '../../http/body.js';
import { ApiError } from './reply.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the raw body; 413 as soon as it passes the limit (the rest is discarded, the socket closed after). */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  try {
    return await readBounded(req, limit);
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      throw new ApiError(
        413,
        { detail: `Request body too large: the limit is ${limit} bytes` },
        { Connection: 'close' },
      );
    }
    throw err;
  }
}

/** Empty body → {}; otherwise a JSON object, or a 400 saying what to send. */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  const text = raw.toString('utf8').trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, {
      detail: `Malformed JSON body (${(err as Error).message}); send a JSON object with Content-Type: application/json`,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, { detail: 'Request body must be a JSON object, e.g. {"session_id": "..."}' });
  }
  return value as Record<string, unknown>;
}
