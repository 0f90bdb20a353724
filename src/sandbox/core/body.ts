// Request body reading: bounded size, JSON object or nothing.
import type { IncomingMessage } from 'node:http';
import { ApiError } from './reply.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the raw body; 413 as soon as it passes the limit (the rest is discarded, the socket closed after). */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks));
      done = true;
    });
    req.on('error', (err) => {
      if (!done) reject(err);
      done = true;
    });
  });
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, { detail: `Request body too large: the limit is ${limit} bytes` }, { Connection: 'close' });
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
