import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through in front of the sandbox that can hold requests to some paths until released. Tests use it
 * to keep a result from reaching the bot at a chosen moment (a restart between 202 and result); nothing is
 * answered on the sandbox's behalf.
 */
export interface GatewayProxy {
  url: string;
  /** Holds every request whose path starts with `pathPrefix` until release() (pending ones are forwarded then). */
  hold(pathPrefix: string): void;
  release(): void;
  /** How many requests are waiting. */
  readonly held: number;
  close(): Promise<void>;
}

export async function startGatewayProxy(target: string): Promise<GatewayProxy> {
  const upstream = new URL(target);
  let holding: string | undefined;
  const waiting: Array<() => void> = [];

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    if (res.destroyed || req.destroyed) return;
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'proxy could not reach the sandbox' }));
    });
    out.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (holding !== undefined && (req.url ?? '').startsWith(holding)) waiting.push(() => forward(req, res, body));
      else forward(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold(pathPrefix) {
      holding = pathPrefix;
    },
    release() {
      holding = undefined;
      for (const go of waiting.splice(0)) go();
    },
    get held() {
      return waiting.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        waiting.length = 0;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
