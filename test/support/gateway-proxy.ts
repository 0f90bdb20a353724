import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through in front of the sandbox that can hold requests to some paths until released. Tests use it
 * to keep a result from reaching the bot at a chosen moment (a restart between 202 and result); nothing is
 * answered on the sandbox's behalf.
 */
export interface GatewayProxy {
  url: string;
  /**
   * Holds every request whose path starts with `pathPrefix` (several prefixes may be held) until release();
   * `after` lets that many matching requests through first.
   */
  hold(pathPrefix: string, opts?: { after?: number }): void;
  /**
   * Forwards requests whose path starts with `pathPrefix` (the sandbox acts on them) but holds the answers
   * until release() (or drop()): the gateway has the request, the bot has no reply yet.
   */
  holdAnswers(pathPrefix: string): void;
  /**
   * Forges the JSON answers to requests whose path starts with `pathPrefix`: the sandbox acts on the request, and
   * the bot reads `forge(answer)` instead of its answer (a gateway that answers other than it should). Until
   * release().
   */
  forgeAnswers(pathPrefix: string, forge: (answer: unknown) => unknown): void;
  release(): void;
  /** Cuts every held request or answer off (their connections are destroyed), as a dying caller would see. */
  drop(): void;
  /** How many answers are being held. */
  readonly heldAnswers: number;
  /** How many requests are waiting. */
  readonly held: number;
  /** How many requests whose path starts with `pathPrefix` are waiting. */
  heldFor(pathPrefix: string): number;
  /** How many answers with this status the sandbox gave to requests whose path starts with `pathPrefix`. */
  answered(pathPrefix: string, status: number): number;
  close(): Promise<void>;
}

export async function startGatewayProxy(target: string): Promise<GatewayProxy> {
  const upstream = new URL(target);
  const holding = new Set<string>();
  const passes = new Map<string, number>();
  let holdingAnswers: string | undefined;
  let forging: { prefix: string; forge: (answer: unknown) => unknown } | undefined;
  const waiting: Array<() => void> = [];
  const waitingAnswers: Array<{ send: () => void; res: ServerResponse }> = [];
  const waitingRequests: ServerResponse[] = [];
  const waitingPaths: string[] = [];
  const answers: { path: string; status: number }[] = [];

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    // A request is read to its end before it is held, so `req` itself is done by now: only a caller that hung up
    // (its socket gone) is not forwarded.
    if (res.destroyed || res.socket === null || res.socket.destroyed) return;
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        answers.push({ path: req.url ?? '', status: answer.statusCode ?? 0 });
        const forge = forging && (req.url ?? '').startsWith(forging.prefix) ? forging.forge : undefined;
        if (forge) {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const text = JSON.stringify(forge(JSON.parse(Buffer.concat(parts).toString('utf8'))));
            const { 'content-length': _length, 'transfer-encoding': _chunked, ...headers } = answer.headers;
            res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': Buffer.byteLength(text) });
            res.end(text);
          });
          return;
        }
        const send = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (holdingAnswers !== undefined && (req.url ?? '').startsWith(holdingAnswers))
          waitingAnswers.push({ send, res });
        else send();
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
      const path = req.url ?? '';
      const prefix = [...holding].find((p) => path.startsWith(p));
      const pass = prefix === undefined ? 0 : (passes.get(prefix) ?? 0);
      if (prefix !== undefined && pass > 0) {
        passes.set(prefix, pass - 1);
        forward(req, res, body);
      } else if (prefix !== undefined) {
        waiting.push(() => forward(req, res, body));
        waitingRequests.push(res);
        waitingPaths.push(path);
      } else forward(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold(pathPrefix, opts = {}) {
      holding.add(pathPrefix);
      passes.set(pathPrefix, opts.after ?? 0);
    },
    holdAnswers(pathPrefix) {
      holdingAnswers = pathPrefix;
    },
    forgeAnswers(prefix, forge) {
      forging = { prefix, forge };
    },
    release() {
      forging = undefined;
      holding.clear();
      passes.clear();
      waitingPaths.length = 0;
      holdingAnswers = undefined;
      waitingRequests.length = 0;
      for (const go of waiting.splice(0)) go();
      for (const a of waitingAnswers.splice(0)) a.send();
    },
    drop() {
      holding.clear();
      passes.clear();
      waitingPaths.length = 0;
      holdingAnswers = undefined;
      waiting.length = 0;
      for (const res of waitingRequests.splice(0)) res.destroy();
      for (const a of waitingAnswers.splice(0)) a.res.destroy();
    },
    get held() {
      return waiting.length;
    },
    heldFor(pathPrefix) {
      return waitingPaths.filter((p) => p.startsWith(pathPrefix)).length;
    },
    answered(pathPrefix, status) {
      return answers.filter((a) => a.status === status && a.path.startsWith(pathPrefix)).length;
    },
    get heldAnswers() {
      return waitingAnswers.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        waiting.length = 0;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
