import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ZodError } from 'zod';
import { readUnder } from '../../http/static-files.js';
import { CommandInputError } from '../interactions/command-options.js';
import { NoBotConnectedError } from '../interactions/open.js';
import { ApiError, describeIssues, PlaygroundApi, readJson, sendJson } from './api.js';
import { LiveEvents } from './live-events.js';
import { NO_SANDBOX, SandboxControl } from './sandbox-control.js';
import { PUBLIC_DIR, vendorRoute } from './static-files.js';
import type { PlaygroundDiscord } from './types.js';

export interface PlaygroundOptions {
  ld: PlaygroundDiscord;
  /** Default 8791; 0 picks a free port. */
  port?: number;
  host?: string;
  /** The embedded sandbox's address, when its control routes are on: the page then shows the Sandbox panel. */
  sandboxUrl?: string;
  /** Told the sandbox clock whenever the page reads or moves it (the offline bot follows that clock). */
  onSandboxClock?: (reading: { now: string; speed?: number }) => void;
}

export interface Playground {
  url: string;
  close(): Promise<void>;
}

type PostRoute = (api: PlaygroundApi, body: unknown) => Promise<unknown>;
const POST_ROUTES: Record<string, PostRoute> = {
  '/api/command': (api, b) => api.command(b),
  '/api/autocomplete': (api, b) => api.autocomplete(b),
  '/api/click': (api, b) => api.click(b),
  '/api/select': (api, b) => api.select(b),
  '/api/modal': (api, b) => api.modal(b),
};

/** Serves the page that looks like a Discord channel, its JSON API and its live event stream. */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const live = new LiveEvents(options.ld);
  const api = new PlaygroundApi(options.ld, live, options.sandboxUrl !== undefined);
  const sandbox = options.sandboxUrl ? new SandboxControl(options.sandboxUrl, options.onSandboxClock) : undefined;

  const server = createServer((req, res) => {
    handle(req, res, api, live, sandbox).catch((err) => fail(res, err));
  });
  const port = options.port ?? 8791;
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      live.close();
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is in use: set PLAYGROUND_PORT to another port (0 picks a free one).`)
          : err,
      );
    };
    server.once('error', onError);
    server.listen(port, options.host ?? '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
  const { address, port: bound } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    url: `http://${host}:${bound}`,
    close: async () => {
      live.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  api: PlaygroundApi,
  live: LiveEvents,
  sandbox: SandboxControl | undefined,
) {
  const url = new URL(req.url ?? '/', 'http://playground.local');
  const path = url.pathname;

  if (path.startsWith('/api/sandbox')) return handleSandbox(req, res, path, sandbox);

  if (req.method === 'POST') {
    const route = POST_ROUTES[path];
    if (!route) return sendJson(res, 404, { error: `No route POST ${path}.` });
    return sendJson(res, 200, await route(api, await readJson(req)));
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendJson(res, 405, { error: `Use GET or POST, not ${req.method}.` });
  }

  switch (path) {
    case '/api/state':
      return sendJson(res, 200, api.state());
    case '/api/messages':
      return sendJson(res, 200, {
        messages: api.messages(url.searchParams.get('channel'), url.searchParams.get('as')),
      });
    case '/api/events':
      return live.attach(res, api.userId(url.searchParams.get('as')));
  }
  if (path.startsWith('/api/')) return sendJson(res, 404, { error: `No route GET ${path}.` });

  const vendor = vendorRoute(path);
  const file = vendor
    ? await readUnder(vendor.root, vendor.rest)
    : await readUnder(PUBLIC_DIR, path === '/' ? 'index.html' : path.slice(1));
  if (!file) return sendJson(res, 404, { error: `Not found: ${path}` });
  res.writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

async function handleSandbox(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  sandbox: SandboxControl | undefined,
) {
  if (!sandbox) return sendJson(res, 404, { error: NO_SANDBOX });
  const route = `${req.method} ${path}`;
  switch (route) {
    case 'GET /api/sandbox':
      return sendJson(res, 200, await sandbox.clock());
    case 'POST /api/sandbox/advance':
      return sendJson(res, 200, await sandbox.advance(await readJson(req)));
    case 'POST /api/sandbox/settle':
      return sendJson(res, 200, await sandbox.settle());
  }
  return sendJson(res, 404, {
    error: `No route ${route}: use GET /api/sandbox, POST /api/sandbox/advance {"ms": n} or POST /api/sandbox/settle.`,
  });
}

function fail(res: ServerResponse, err: unknown) {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (err instanceof ZodError) return sendJson(res, 400, { error: describeIssues(err) });
  if (err instanceof ApiError) return sendJson(res, err.status, { error: err.message });
  const message = err instanceof Error ? err.message : String(err);
  // The double refuses what a Discord client could not send (bad options, a stale component): the user's to fix.
  if (err instanceof CommandInputError) return sendJson(res, 400, { error: `Discord would refuse this: ${message}` });
  if (err instanceof NoBotConnectedError) {
    return sendJson(res, 503, { error: 'The bot is not connected yet: wait a moment and try again.' });
  }
  return sendJson(res, 500, { error: `The local Discord failed: ${message}` });
}
