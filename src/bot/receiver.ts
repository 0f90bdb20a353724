import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger.js';
import type { OnceRepo } from './repos/once.js';

export interface WebhookDelivery {
  correlation_id: string;
  result?: unknown;
  metadata?: Record<string, unknown>;
  delivered_at?: string;
  [key: string]: unknown;
}

export interface ReceiverOptions {
  port: number;
  host?: string;
  maxBodyBytes: number;
  toleranceMs: number;
  /** The gateway library's verifier: constant time, over the raw bytes, keyed with the API key. */
  verify: (rawBody: Buffer, signatureHeader: string | undefined) => boolean;
  once: OnceRepo;
  /** Runs after the 2xx is sent, off the request path. */
  onDelivery: (body: WebhookDelivery) => Promise<void>;
  logger: Logger;
  now?: () => number;
}

export interface Receiver {
  url: string;
  close(): Promise<void>;
}

class TooLarge extends Error {}

function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        reject(new TooLarge());
        req.pause();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: Record<string, unknown>, close = false): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/**
 * The embedded webhook receiver: verify, bound, reject stale, dedupe, persist, answer 2xx, then hand the
 * delivery on. Persisting before answering means a crash after the 2xx loses nothing (see resumeDeliveries).
 */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const now = opts.now ?? Date.now;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/healthz') return send(res, 200, { ok: true });
    if (path !== '/webhooks/gateway') return send(res, 404, { error: 'not found; POST /webhooks/gateway' });
    if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > opts.maxBodyBytes) return send(res, 413, { error: 'body too large' }, true);
    let raw: Buffer;
    try {
      raw = await readBody(req, opts.maxBodyBytes);
    } catch (err) {
      if (err instanceof TooLarge) return send(res, 413, { error: 'body too large' }, true);
      return send(res, 400, { error: 'could not read the body' });
    }
    const header = req.headers['bet-signature'];
    if (!opts.verify(raw, Array.isArray(header) ? header[0] : header)) {
      opts.logger.warn('webhook refused: bad signature');
      return send(res, 401, { error: 'bad signature' });
    }
    let body: WebhookDelivery;
    try {
      body = JSON.parse(raw.toString('utf8')) as WebhookDelivery;
    } catch {
      return send(res, 400, { error: 'body is not JSON' });
    }
    if (typeof body?.correlation_id !== 'string' || body.correlation_id.length === 0) {
      return send(res, 400, { error: 'correlation_id missing' });
    }
    const delivered = Date.parse(String(body.delivered_at ?? ''));
    if (!Number.isFinite(delivered) || Math.abs(now() - delivered) > opts.toleranceMs) {
      opts.logger.warn('webhook refused: stale or missing delivered_at', { correlationId: body.correlation_id });
      return send(res, 400, { error: 'delivered_at missing or outside the accepted window' });
    }
    const first = await opts.once.recordDelivery(body.correlation_id, raw.toString('utf8'), now());
    send(res, 200, { ok: true, duplicate: !first });
    if (!first) return;
    setImmediate(() => {
      opts.onDelivery(body).catch((err) => opts.logger.error('webhook handling failed', { err }));
    });
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      opts.logger.error('webhook receiver error', { err });
      send(res, 500, { error: 'internal error' });
    });
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
