// The operations endpoints on the receiver's port: GET /healthz (the process answers), GET /readyz (every part it
// needs answers) and GET /metrics (the exposition text, off unless enabled), as rows of the port's route table.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../../http/reply.js';
import type { RouteTable } from '../../http/routes.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

export interface OpsEndpoints {
  /** GET /readyz: the parts that are not ready (empty: ready); absent: always ready. */
  ready?: () => Promise<string[]>;
  /** GET /metrics: the exposition text, behind a bearer token when one is given; absent: no such route (404). */
  metrics?: { text: () => Promise<string>; token?: string };
}

/** A JSON answer with the receiver's content type. */
export function sendJsonBody(res: ServerResponse, status: number, body: Record<string, unknown>, close = false): void {
  sendJson(res, status, body, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) });
}

/** Adds the operations routes to a port's table. */
export function addOpsRoutes(table: RouteTable<Handler>, o: OpsEndpoints): RouteTable<Handler> {
  table.add('GET', '/healthz', (_req, res) => sendJsonBody(res, 200, { ok: true }));
  table.add('GET', '/readyz', async (_req, res) => {
    const failing = (await o.ready?.()) ?? [];
    sendJsonBody(
      res,
      failing.length === 0 ? 200 : 503,
      failing.length === 0 ? { ready: true } : { ready: false, failing },
    );
  });
  const { metrics } = o;
  if (metrics) table.add('GET', '/metrics', (req, res) => sendMetrics(req, res, metrics));
  return table;
}

/** The exposition text, or 401 when a token is set and the request does not carry it. */
async function sendMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  metrics: NonNullable<OpsEndpoints['metrics']>,
): Promise<void> {
  if (metrics.token !== undefined && !bearerMatches(req.headers.authorization, metrics.token)) {
    res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' });
    res.end('send Authorization: Bearer <METRICS_TOKEN>\n');
    return;
  }
  const text = await metrics.text();
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
  res.end(text);
}

/** Compares the bearer token in constant time (digests of equal length). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '';
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return given.length > 0 && timingSafeEqual(a, b);
}
