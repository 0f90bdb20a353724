// Small local HTTP servers the figures measure against (127.0.0.1, port 0).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<LocalServer> {
  const server: Server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Answers every request with the same JSON bytes (serialised once, so the server costs both sides alike). */
export function staticJsonServer(body: unknown): Promise<LocalServer> {
  const bytes = Buffer.from(JSON.stringify(body));
  return listen((_req, res) => {
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
