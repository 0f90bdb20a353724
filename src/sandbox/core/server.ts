// The HTTP front: every request becomes a JSON reply, whatever the client sends; nothing crashes the server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sendJson } from '../../http/reply.js';
import { authenticate } from './auth.js';
import { parseJsonObject, readBody } from './body.js';
import { DEFAULT_LATE_202_MS } from './faults.js';
import type { Ctx } from './http.js';
import { ApiError, asSessionOpError, type Reply } from './reply.js';
import type { Router } from './router.js';
import { sampleError, sampleReply } from './samples.js';
import type { Sandbox } from './sandbox.js';

/** Sandbox ms between accepting an async call and answering its 202. */
export const SUBMIT_LATENCY_MS = 100;

function send(res: ServerResponse, reply: Reply): void {
  sendJson(res, reply.status, reply.body ?? null, reply.headers);
}

async function handle(req: IncomingMessage, sb: Sandbox, router: Router): Promise<Reply> {
  const url = new URL(req.url ?? '/', 'http://sandbox.local');
  const method = req.method ?? 'GET';
  const route = router.find(method, url.pathname);
  const isControl = route.auth === 'none';
  if (!isControl) {
    const latency = sb.faults.latencyMs();
    if (latency > 0) await sb.clock.sleep(latency);
    const injected = sb.faults.errorFor(url.pathname);
    if (injected === 503) {
      throw new ApiError(
        503,
        { detail: 'Temporarily unavailable (injected fault); retry shortly' },
        { 'Retry-After': '1' },
      );
    }
    if (injected === 500) throw new ApiError(500, { detail: 'Internal error (injected fault)' });
  }
  const raw = method === 'POST' ? await readBody(req) : Buffer.alloc(0);
  const auth = authenticate(route, req.headers, sb.accounts);
  // A malformed body is refused in the route's own error shape (session operations: {status: error, message}).
  const readJson = () => {
    try {
      return method === 'POST' ? parseJsonObject(raw) : {};
    } catch (err) {
      throw route.errorStyle === 'session-op' ? asSessionOpError(err) : err;
    }
  };
  if (auth.mode === 'sample') {
    // Sample mode answers errors too in the real status and shape, marked as samples (Authentication rule 5):
    // the route's body checks run first, so a request the real endpoint refuses is refused here too.
    try {
      sb.counters.samples += 1;
      const ctx: Ctx = {
        method,
        path: url.pathname,
        query: url.searchParams,
        body: readJson(),
        headers: req.headers,
        account: auth.account,
        sb,
      };
      route.check?.(ctx);
      return await sampleReply(route, ctx);
    } catch (err) {
      throw err instanceof ApiError ? sampleError(err) : err;
    }
  }
  const body = readJson();
  const ctx: Ctx = {
    method,
    path: url.pathname,
    query: url.searchParams,
    body,
    headers: req.headers,
    account: auth.account,
    sb,
  };
  const reply = await route.handler(ctx);
  if (route.async && reply.status === 202) {
    await sb.clock.sleep(SUBMIT_LATENCY_MS);
    // Late 202 fault: the job is accepted and runs (a bet is placed), but the answer comes after the client gave up.
    const late = sb.faults.strike('late_202', url.pathname, sessionIdsOf(body));
    if (late) await realDelay(late.delay_ms ?? DEFAULT_LATE_202_MS);
  }
  return reply;
}

/** The sessions a request names: `session_id`, or the `session_ids` of a price check. */
export function sessionIdsOf(body: Record<string, unknown>): string[] {
  if (typeof body.session_id === 'string') return [body.session_id];
  return Array.isArray(body.session_ids) ? body.session_ids.filter((x): x is string => typeof x === 'string') : [];
}

/** Real time, not sandbox time: the late 202 is measured against the client's own clock. Never holds the process. */
function realDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export function createSandboxServer(sb: Sandbox, router: Router): Server {
  const server = createServer((req, res) => {
    sb.counters.requests += 1;
    handle(req, sb, router).then(
      (reply) => send(res, reply),
      (err: unknown) => {
        sb.counters.errors += 1;
        if (err instanceof ApiError) {
          send(res, { status: err.status, body: err.body, ...(err.headers ? { headers: err.headers } : {}) });
          return;
        }
        sb.log(`internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
        send(res, { status: 500, body: { detail: 'Internal error in the sandbox; see its log' } });
      },
    );
  });
  // A client that stalls mid-request must not hold a socket for ever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 20_000;
  server.keepAliveTimeout = 5_000;
  // Unparseable HTTP gets a JSON 400 too, and the server keeps serving.
  server.on('clientError', (_err, socket) => {
    if (socket.writable) {
      const payload = JSON.stringify({ detail: 'Bad HTTP request' });
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
      );
    } else {
      socket.destroy();
    }
  });
  return server;
}
