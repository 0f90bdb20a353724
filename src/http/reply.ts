// JSON replies with a Content-Length, so keep-alive clients never wait for a close to find the end.
import type { ServerResponse } from 'node:http';

export type Headers = Record<string, string | number>;

/**
 * Sends `body` as JSON (no body at all when undefined). `headers` come after the defaults, so a caller may
 * set its own content-type. Does nothing once a reply has started or the socket is gone.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Headers = {}): void {
  if (res.headersSent || res.destroyed) return;
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    })
    .end(text);
}
