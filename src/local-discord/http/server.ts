import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sendJson } from '../../http/reply.js';
import { DiscordApiError, notFound, unauthorized } from '../api-error.js';
import type { World } from '../state/world.js';
import { readBody } from './body.js';
import { type FaultInjector, faultError } from './faults.js';
import type { Router } from './router.js';

const API_PREFIX = /^\/api\/v10(?=\/)/;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (status === 204 || body === undefined) sendJson(res, status, undefined, headers);
  else sendJson(res, status, body, { ...headers, 'content-type': 'application/json' });
}

/** The REST half: /api/v10 routes, bot-token auth, and Discord-shaped errors. */
export function createRestServer(world: World, router: Router, token: () => string, faults: FaultInjector): Server {
  return createServer((req, res) => {
    handle(world, router, token, faults, req, res).catch((error: unknown) => {
      if (error instanceof DiscordApiError) {
        world.events.emit('restRefusal', {
          method: req.method ?? 'GET',
          path: redactPath(req.url ?? '/'),
          status: error.status,
          code: error.code,
          message: error.message,
          ...(error.errors ? { errors: error.errors } : {}),
        });
        send(res, error.status, error.body(), error.headers);
        return;
      }
      // Only the error's message: request headers (the bot token) are never echoed.
      const reason = error instanceof Error ? error.message : String(error);
      send(res, 500, { message: `500: Internal Server Error (${reason})`, code: 0 });
    });
  });
}

async function handle(
  world: World,
  router: Router,
  token: () => string,
  faults: FaultInjector,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  if (req.method === 'GET' && url.pathname.startsWith('/attachments/')) return sendAttachment(world, url.pathname, res);
  if (!API_PREFIX.test(url.pathname)) throw notFound();
  // Segments are decoded before matching: discord.js sends `@me` and `@original` as `%40me` and `%40original`.
  const path = decodePath(url.pathname.replace(API_PREFIX, ''));
  const found = router.match(req.method ?? 'GET', path);
  if (!found) throw notFound();
  if (found.route.auth) {
    const header = req.headers.authorization ?? '';
    if (!sameSecret(header, `Bot ${token()}`)) throw unauthorized();
  }
  const { body, files } = await readBody(req);
  const fault = faults.take(req.method ?? 'GET', path);
  if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
  if (fault?.status) throw faultError(fault);
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const result = await found.route.handle({
    world,
    params: found.params,
    query: url.searchParams,
    body,
    files,
    origin,
  });
  if (fault?.answerDelayMs) await new Promise((r) => setTimeout(r, fault.answerDelayMs));
  send(res, result.status, result.body, result.headers);
}

/** GET /attachments/{channel}/{id}/{filename}: an uploaded file's bytes, as Discord's CDN serves them. */
function sendAttachment(world: World, pathname: string, res: ServerResponse): void {
  const [, , channelId, id] = pathname.split('/');
  const file = world.attachments.get(id ?? '');
  if (!file || !channelId) throw notFound();
  res
    .writeHead(200, {
      'content-type': file.contentType,
      'content-length': String(file.data.length),
      'cache-control': 'public, max-age=31536000, immutable',
      // A file that is not a picture is saved, not shown, when its link is followed, as from Discord's CDN.
      ...(file.contentType.startsWith('image/')
        ? {}
        : { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}` }),
    })
    .end(file.data);
}

function decodePath(path: string): string {
  try {
    return path
      .split('/')
      .map((seg) => decodeURIComponent(seg).replaceAll('/', '%2F'))
      .join('/');
  } catch {
    throw notFound();
  }
}

/** Interaction tokens authorise their webhook routes: keep them out of anything reported. */
export function redactPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.replace(/(\/interactions\/\d+\/)[^/]+/, '$1:token').replace(/(\/webhooks\/\d+\/)[^/]+/, '$1:token');
}
