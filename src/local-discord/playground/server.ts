import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ZodError } from 'zod';
import { type Listening, listen } from '../../http/listen.js';
import { RouteTable } from '../../http/routes.js';
import { readUnder } from '../../http/static-files.js';
import { CommandInputError } from '../interactions/command-options.js';
import { NoBotConnectedError } from '../interactions/open.js';
import { ApiError, describeIssues, PlaygroundApi, readJson, sendJson } from './api.js';
import { ENUM_MODULE, ENUMS_PATH } from './discord-enums.js';
import { LiveEvents } from './live-events.js';
import { NO_SANDBOX, SandboxControl, type WatchedSelection } from './sandbox-control.js';
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
  /** Called after the panel settled events (before it answers): the bot reads the settlements now. */
  onSandboxSettled?: () => Promise<void>;
  /** The latest watch the bot holds: the panel's price and steam buttons move its selection. */
  latestWatch?: () => Promise<WatchedSelection | undefined>;
  /** Whether an account (book and user name) is one of the fund's: the Deposit button's words say the next step. */
  fundHolds?: (account: { bookie: string; username: string }) => Promise<boolean>;
}

export interface Playground {
  url: string;
  close(): Promise<void>;
}

interface RouteCtx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  api: PlaygroundApi;
  live: LiveEvents;
}
type Handler = (ctx: RouteCtx) => Promise<void> | void;

const post =
  (call: (api: PlaygroundApi, body: unknown) => Promise<unknown>): Handler =>
  async ({ req, res, api }) =>
    sendJson(res, 200, await call(api, await readJson(req)));

/** The page's JSON API (HEAD is answered as GET). */
const API_ROUTES = new RouteTable<Handler>()
  .add(
    'POST',
    '/api/command',
    post((api, b) => api.command(b)),
  )
  .add(
    'POST',
    '/api/autocomplete',
    post((api, b) => api.autocomplete(b)),
  )
  .add(
    'POST',
    '/api/click',
    post((api, b) => api.click(b)),
  )
  .add(
    'POST',
    '/api/select',
    post((api, b) => api.select(b)),
  )
  .add(
    'POST',
    '/api/modal',
    post((api, b) => api.modal(b)),
  )
  .add('GET', '/api/state', ({ res, api }) => sendJson(res, 200, api.state()))
  .add('GET', '/api/messages', ({ res, url, api }) =>
    sendJson(res, 200, { messages: api.messages(url.searchParams.get('channel'), url.searchParams.get('as')) }),
  )
  .add('GET', '/api/events', ({ res, url, api, live }) => live.attach(res, api.userId(url.searchParams.get('as'))));

type SandboxHandler = (sandbox: SandboxControl, req: IncomingMessage) => Promise<unknown>;
const SANDBOX_ROUTES = new RouteTable<SandboxHandler>()
  .add('GET', '/api/sandbox', async (sandbox) => ({ ...(await sandbox.clock()), withdrawals: sandbox.withdrawals }))
  .add('POST', '/api/sandbox/advance', async (sandbox, req) => sandbox.advance(await readJson(req)))
  .add('POST', '/api/sandbox/settle', (sandbox) => sandbox.settle())
  .add('POST', '/api/sandbox/race', (sandbox) => sandbox.runRace())
  .add('POST', '/api/sandbox/deposit', (sandbox) => sandbox.deposit())
  .add('POST', '/api/sandbox/price', (sandbox) => sandbox.movePrice())
  .add('POST', '/api/sandbox/steam', (sandbox) => sandbox.steam())
  .add('POST', '/api/sandbox/withdrawals/mode', (sandbox) => sandbox.nextWithdrawalMode())
  .add('POST', '/api/sandbox/withdrawals/complete', (sandbox) => sandbox.completePendingWithdrawals());

/** Serves the page that looks like a Discord channel, its JSON API and its live event stream. */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  // One id per start: a page open across a restart of npm start sees a new run (nothing of the old one is kept).
  const runId = randomUUID();
  const live = new LiveEvents(options.ld, runId);
  const api = new PlaygroundApi(options.ld, live, options.sandboxUrl !== undefined, runId, options.sandboxUrl);
  // Every clock reading goes to the bot's clock, to the local Discord (posts are dated by it, as the bot reads them)
  // and to every open page (its times are read against it).
  const onClock = (reading: { now: string; speed?: number }) => {
    options.onSandboxClock?.(reading);
    options.ld.followClock?.(reading);
    live.broadcast('clock', reading);
  };
  const settled = options.onSandboxSettled ?? (async () => {});
  const sandbox = options.sandboxUrl
    ? new SandboxControl(options.sandboxUrl, onClock, settled, options.latestWatch, options.fundHolds)
    : undefined;

  const server = createServer((req, res) => {
    handle(req, res, api, live, sandbox).catch((err) => fail(res, err));
  });
  const port = options.port ?? 8791;
  let listening: Listening;
  try {
    listening = await listen(server, port, options.host ?? '127.0.0.1');
  } catch (err) {
    live.close();
    throw (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? new Error(`Port ${port} is in use: set PLAYGROUND_PORT to another port (0 picks a free one).`)
      : err;
  }

  return {
    url: listening.url,
    close: async () => {
      live.close();
      await listening.close();
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

  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  if (method !== 'GET' && method !== 'POST') {
    return sendJson(res, 405, { error: `Use GET or POST, not ${req.method}.` });
  }
  const found = API_ROUTES.match(method, path);
  if (found.kind === 'found') return found.route({ req, res, url, api, live });
  if (method === 'POST' || path.startsWith('/api/'))
    return sendJson(res, 404, { error: `No route ${method} ${path}.` });

  if (path === ENUMS_PATH) {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : ENUM_MODULE);
    return;
  }
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
  const found = SANDBOX_ROUTES.match(req.method ?? 'GET', path);
  if (found.kind === 'found') return sendJson(res, 200, await found.route(sandbox, req));
  return sendJson(res, 404, {
    error: `No route ${req.method} ${path}: use GET /api/sandbox, POST /api/sandbox/advance {"ms": n}, POST /api/sandbox/settle, POST /api/sandbox/race, POST /api/sandbox/deposit, POST /api/sandbox/price, POST /api/sandbox/steam, POST /api/sandbox/withdrawals/mode or POST /api/sandbox/withdrawals/complete.`,
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
