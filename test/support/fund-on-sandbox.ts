import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/bot/config/logger.js';
import { FundService } from '../../src/bot/fund/fund-service.js';
import { fundViews } from '../../src/bot/fund/views/fund-presenter.js';
import { type BotStore, openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { SandboxControl } from './sandbox-control.js';

/** A fund service over a SQLite store on disk and the sandbox over HTTP, as the leader's beat runs it. */
export interface FundOnSandbox {
  store: BotStore;
  sandbox: RunningSandbox;
  control: SandboxControl;
  gateway: GatewayClient;
  fund: FundService;
  /** bookie_c's active session: the fund's first account, Ann's opening bank. */
  session: string;
  close(): Promise<void>;
}

/**
 * Opens the fund on bookie_c (Ann's opening bank) and strikes once; `now` is the desk's clock, `storeUrl` the store
 * (default SQLite on a temp file).
 */
export async function fundOnSandbox(
  guildId: string,
  now: () => number = Date.now,
  storeUrl?: string,
): Promise<FundOnSandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'fund-sandbox-'));
  const store = await openStore(storeUrl ?? `sqlite://${join(dir, 'bot.sqlite')}`);
  const sandbox = await startSandbox({ port: 0, quiet: true, control: true, seed: 1 });
  const control = new SandboxControl(sandbox.url);
  const gateway = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key-alpha' });
  const fund = new FundService({
    store,
    gateway,
    outbox: { has: async () => true, create: async () => undefined },
    present: fundViews,
    logger: createLogger({ level: 'error', write: () => undefined }),
    now,
    callbackUrl: undefined,
    withdrawalWindowMs: 1_000,
  });
  const session = (await gateway.sessions.list()).find((s) => s.bookie === 'bookie_c' && s.active)?.session_id ?? '';
  await fund.addAccount({ guildId, sessionId: session, actor: 'admin', openingMemberId: 'ann' });
  const r = await fund.strike(guildId, { actor: 'admin' });
  if (!r.ok) throw new Error(r.reason);
  const close = async () => {
    await gateway.close();
    await store.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { store, sandbox, control, gateway, fund, session, close };
}
