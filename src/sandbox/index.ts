// Public entry point: start the sandbox gateway in-process (tests, the bot's embedded default) or from main.ts.
import { listen } from '../http/listen.js';
import { Router } from './core/router.js';
import type { Sandbox } from './core/sandbox.js';
import { createSandboxServer } from './core/server.js';
import { createSandboxState, type StartSandboxOptions } from './core/state.js';
import { controlRoutes } from './routes/control.js';
import { apiRoutes } from './routes/index.js';

export { FIXTURE_KEYS } from './accounts/fixtures.js';
export type { FaultConfig } from './core/faults.js';
export type { Ctx, Route } from './core/http.js';
export type { Reply } from './core/reply.js';
export type { Sandbox } from './core/sandbox.js';
export { createSandboxState, resetSandbox, type StartSandboxOptions } from './core/state.js';
export type { SimWorld } from './world/index.js';

export interface RunningSandbox {
  url: string;
  sb: Sandbox;
  close(): Promise<void>;
}

/** How often the world ticks in real time (lifecycle, settlement), besides every clock advance. */
const TICK_REAL_MS = 2_000;

export async function startSandbox(opts: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const sb = await createSandboxState(opts);
  const routes = [...apiRoutes, ...(opts.control ? controlRoutes : [])];
  const server = createSandboxServer(sb, new Router(routes));

  const tick = () => {
    try {
      sb.world.tick(sb.clock.now(), sb.ledger);
    } catch (err) {
      sb.log(`world tick failed: ${(err as Error).stack ?? String(err)}`);
    }
  };
  sb.clock.onAdvance(tick);
  const ticker = setInterval(tick, TICK_REAL_MS);
  ticker.unref();

  const listening = await listen(server, opts.port ?? 0, opts.host ?? '127.0.0.1');

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(ticker);
      sb.clock.stop();
      await sb.jobs.close();
      await listening.close();
    })();
    return closing;
  };
  return { url: listening.url, sb, close };
}
