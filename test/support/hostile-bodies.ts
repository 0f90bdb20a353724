import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * How the hostile gateway answers, chosen by the first path segment (a client's baseUrl ends in it):
 * - `endless`: 200 and a chunked JSON body that never ends (a chunk every few ms until the client hangs up);
 * - `declared`: 200 declaring a Content-Length of `declaredBytes`, then silence;
 * - `broken`: 200 and half a JSON body, then the connection is destroyed;
 * - `stalled`: 200 and the start of a body, then silence (the client's deadline must end it).
 */
export type HostileMode = 'endless' | 'declared' | 'broken' | 'stalled';

export interface HostileGateway {
  /** A base URL for the client: answers every request in `mode`. */
  urlFor(mode: HostileMode): string;
  /** Answers whose connection the client closed before the server finished writing. */
  readonly cutOff: number;
  /** Bytes of body the server wrote in all. */
  readonly bytesWritten: number;
  close(): Promise<void>;
}

const CHUNK = Buffer.from(`${JSON.stringify({ session_id: 's'.repeat(200), bookie: 'bookie_a', active: true })},`);

/** A gateway on 127.0.0.1:0 whose answers are oversize, broken or stalled. It allocates nothing big. */
export async function startHostileGateway(opts: { declaredBytes?: number } = {}): Promise<HostileGateway> {
  const declaredBytes = opts.declaredBytes ?? 64 * 1024 * 1024;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let cutOff = 0;
  let bytesWritten = 0;
  const write = (res: ServerResponse, data: Buffer | string) => {
    bytesWritten += Buffer.byteLength(data);
    return res.write(data);
  };
  const server = createServer((req, res) => {
    req.resume();
    const mode = (req.url ?? '/').split('/')[1] as HostileMode;
    res.on('close', () => {
      if (!res.writableFinished) cutOff++;
    });
    if (mode === 'declared') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(declaredBytes) });
      res.flushHeaders();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    write(res, '{"sessions":[');
    if (mode === 'broken') {
      write(res, CHUNK);
      setImmediate(() => res.socket?.destroy());
      return;
    }
    if (mode === 'stalled') return;
    // endless: a chunk every few milliseconds, while the socket takes them, until the client hangs up.
    const timer = setInterval(() => {
      if (res.destroyed) {
        clearInterval(timer);
        timers.delete(timer);
        return;
      }
      if (res.writableNeedDrain) return;
      for (let i = 0; i < 64; i++) write(res, CHUNK);
    }, 2);
    timers.add(timer);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (mode) => `http://127.0.0.1:${port}/${mode}`,
    get cutOff() {
      return cutOff;
    },
    get bytesWritten() {
      return bytesWritten;
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Settles `p` within `ms` or reports it still pending: a call that never settles shows up as 'pending'. */
export function settledWithin<T>(
  p: Promise<T>,
  ms: number,
): Promise<{ state: 'resolved'; value: T } | { state: 'rejected'; error: unknown } | { state: 'pending' }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ state: 'pending' }), ms);
    p.then(
      (value) => {
        clearTimeout(timer);
        resolve({ state: 'resolved', value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ state: 'rejected', error });
      },
    );
  });
}
