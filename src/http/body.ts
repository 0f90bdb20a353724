// Bounded request body reading. The caller words the refusal in its own error shape.
import type { IncomingMessage } from 'node:http';

/** The body passed the limit: by its Content-Length (`declared`) or by the bytes counted as they came. */
export class BodyTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly declared: boolean,
  ) {
    super(`request body over ${limit} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * Reads the whole body, refusing one over `limit` bytes: at once when Content-Length says so, else as soon as the
 * counted bytes pass it. A refused body is drained, not kept, so the caller can still answer on the socket
 * (and should close it after: the client may still be sending).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new BodyTooLarge(limit, true));
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
        chunks.length = 0;
        reject(new BodyTooLarge(limit, false));
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
