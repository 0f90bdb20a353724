// Small local HTTP servers the figures measure against (127.0.0.1, port 0).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readBody as readBounded } from '../../src/http/body.js';
import { listen as listenOn } from '../../src/http/listen.js';

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

export function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<LocalServer> {
  const server: Server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  return listenOn(server, 0, '127.0.0.1');
}

/** The whole body, unbounded: the bench sends only what it made itself. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return readBounded(req, Number.POSITIVE_INFINITY);
}

/**
 * Answers every request with the same JSON bytes (serialised once, so the server costs both sides alike).
 * `onRequest` sees each request first (a figure checks both sides send the same headers).
 */
export function staticJsonServer(body: unknown, onRequest?: (req: IncomingMessage) => void): Promise<LocalServer> {
  const bytes = Buffer.from(JSON.stringify(body));
  return listen((_req, res) => {
    onRequest?.(_req);
    _req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
    res.end(bytes);
  });
}

/** Reads the body and answers 200 {"ok":true}: the floor any webhook receiver is compared with. */
export function bareOkServer(): Promise<LocalServer> {
  const bytes = Buffer.from('{"ok":true}');
  return listen(async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
    res.end(bytes);
  });
}
