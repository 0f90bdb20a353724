import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BotConfig, parseConfig } from '../../src/bot/config/config.js';
import { SandboxClock } from '../../src/bot/config/sandbox-clock.js';
import { type LocalDiscord, startLocalDiscord } from '../../src/local-discord/index.js';
import { type RunningSandbox, type StartSandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { createDatabase } from '../pg/cluster.js';
import { setBetRole } from './bet-role.js';
import { type BotDeps, loadStartBot, type RunningBot } from './bot-entry.js';
import { type GatewayProxy, startGatewayProxy } from './gateway-proxy.js';
import { captureLogs, type LogCapture } from './log-capture.js';
import { testPort } from './ports.js';
import { SandboxControl } from './sandbox-control.js';
import { until } from './wait.js';

export const API_KEY = 'sandbox-key-alpha';

export interface DeskOptions<B extends RunningBot = RunningBot> {
  /** Results by signed webhook as well as by polling (WEBHOOK_PUBLIC_URL set); false: poll only. */
  webhooks?: boolean;
  seed?: number;
  sandbox?: Partial<StartSandboxOptions>;
  /** Extra bot environment (e.g. SLIP_EXPIRY_SECONDS). */
  env?: Record<string, string>;
  /** Put a pass-through proxy between bot and sandbox (to hold requests at a chosen moment). */
  proxy?: boolean;
  /** Shards the local Discord's /gateway/bot recommends (guild events go to the owning shard either way). */
  discordShards?: number;
  /** false: start no bot in-process (the chaos suite runs it as a child process with `env`). */
  inProcessBot?: boolean;
  /**
   * Run the bot on the sandbox clock (as `npm start` offline does), so moving the sandbox clock moves the bot's.
   * The default for an in-process bot: the sandbox then starts at noon UTC of the machine's day (unless `sandbox.start`
   * says otherwise), so no test's outcome depends on the hour it runs at, nor crosses a midnight halfway.
   */
  sandboxClock?: boolean;
  /** false: leave betting closed (no bet role set); otherwise the admin sets the Bettor role at start. */
  betRole?: boolean;
  /**
   * The in-process bot's job poll (default 250 ms: the sandbox answers a job at once, so the desk's own 1.5 s would
   * only make every strike, bet and read here wait).
   */
  pollIntervalMs?: number;
  /** Starts the bot in-process instead of the entry point's startBot (e.g. with a logger the test reads). */
  startBot?: (config: BotConfig, deps: BotDeps, secrets: string[]) => Promise<B>;
}

/** The whole desk on loopback: sandbox gateway, local Discord, the real bot with sqlite on disk. */
export interface Desk<B extends RunningBot = RunningBot> {
  sandbox: RunningSandbox;
  control: SandboxControl;
  ld: LocalDiscord;
  bot: B;
  config: BotConfig;
  /** The environment the bot was configured from (for a bot in a child process). */
  env: Record<string, string>;
  proxy: GatewayProxy | undefined;
  logs: LogCapture;
  /** Moves the sandbox clock on (and the bot's with it when it follows the sandbox clock); the new time. */
  advance(ms: number): Promise<number>;
  /** The bot's clock: the sandbox's with `sandboxClock`, else the machine's (a gateway client's poller takes it). */
  now: () => number;
  /** The secrets that must never appear in logs or messages. */
  secrets: string[];
  /** Stops the bot and starts it again on the same store file and webhook port (a deploy or a crash). */
  restartBot(): Promise<void>;
  stopBot(): Promise<void>;
  startBotAgain(): Promise<void>;
  close(): Promise<void>;
}

export async function startDesk<B extends RunningBot = RunningBot>(opts: DeskOptions<B> = {}): Promise<Desk<B>> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-e2e-'));
  const logs = captureLogs();
  const pinned = opts.sandboxClock ?? opts.inProcessBot !== false;
  const sandbox = await startSandbox({
    port: 0,
    control: true,
    seed: opts.seed ?? 1,
    quiet: true,
    ...(pinned ? { start: noonOfToday() } : {}),
    ...opts.sandbox,
  });
  const proxy = opts.proxy ? await startGatewayProxy(sandbox.url) : undefined;
  const ld = await startLocalDiscord({ port: 0, ...(opts.discordShards ? { shards: opts.discordShards } : {}) });
  const webhookPort = await testPort();
  const env: Record<string, string> = {
    GATEWAY_BASE_URL: proxy?.url ?? sandbox.url,
    GATEWAY_API_KEY: API_KEY,
    DISCORD_TOKEN: ld.token,
    DISCORD_APP_ID: ld.applicationId,
    DISCORD_GUILD_ID: ld.guildId,
    DISCORD_API_URL: ld.apiUrl,
    WEBHOOK_PORT: String(webhookPort),
    STORE_URL: await storeUrlFor(dir),
    LOG_LEVEL: 'debug',
    ...(opts.webhooks ? { WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${webhookPort}` } : {}),
    ...opts.env,
  };
  const config = parseConfig(env);
  // One deployment, one lease owner: a restart resumes its own pending jobs instead of waiting out the lease.
  const processId = opts.env?.BOT_PROCESS_ID ?? `desk-${webhookPort}`;
  const clock = pinned ? new SandboxClock(sandbox.url) : undefined;
  await clock?.refresh();
  env.BOT_PROCESS_ID = processId;
  let bot: B | undefined;
  const secrets = [API_KEY, ld.token];
  let betRoleSet = opts.betRole === false;
  const boot = async () => {
    if (opts.inProcessBot === false) return;
    const deps: BotDeps = {
      processId,
      pollIntervalMs: opts.pollIntervalMs ?? 250,
      ...(clock ? { now: clock.now } : {}),
    };
    // Without its own starter a desk's bot is the entry point's, which is what B defaults to.
    const start = opts.startBot ?? ((await loadStartBot()) as unknown as NonNullable<DeskOptions<B>['startBot']>);
    bot = await start(config, deps, secrets);
    await ld.waitForBot(10_000);
    // The bot registers its commands on startup; users can only run them after that.
    await until('the bot to register its slash commands', () => ld.commands().length > 0);
    // Settings live in the store: once per desk, as an admin would after inviting the bot.
    if (!betRoleSet) await setBetRole(ld);
    betRoleSet = true;
  };
  const stopBot = async () => {
    const b = bot;
    bot = undefined;
    await b?.stop();
    // The old gateway session must be gone before a new one identifies, or tests would talk to a ghost.
    await until('the old gateway session to close', () => ld.connectedBots === 0, {
      timeoutMs: 5000,
      everyMs: 10,
    }).catch(() => undefined);
  };
  try {
    await boot();
  } catch (err) {
    await stopBot().catch(() => {});
    await ld.close();
    await proxy?.close();
    await sandbox.close();
    logs.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const control = new SandboxControl(sandbox.url);
  return {
    sandbox,
    control,
    ld,
    get bot() {
      if (!bot) throw new Error('the bot is stopped; call startBotAgain() first');
      return bot;
    },
    config,
    env,
    proxy,
    logs,
    secrets,
    now: clock ? clock.now : Date.now,
    async advance(ms) {
      const reading = await control.advance(ms);
      clock?.take(reading);
      return Date.parse(reading.now);
    },
    async restartBot() {
      await stopBot();
      await boot();
    },
    stopBot,
    startBotAgain: boot,
    async close() {
      await stopBot().catch(() => {});
      await ld.close();
      await proxy?.close();
      await sandbox.close();
      logs.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * sqlite on disk, or with E2E_STORE=postgres a fresh database on the test run's PostgreSQL cluster
 * (test/pg/global-setup.ts puts its address in PG_ADMIN_URL).
 */
async function storeUrlFor(dir: string): Promise<string> {
  if (process.env.E2E_STORE !== 'postgres') return `sqlite://${join(dir, 'bot.sqlite')}`;
  const admin = process.env.PG_ADMIN_URL;
  if (!admin)
    throw new Error('E2E_STORE=postgres needs PG_ADMIN_URL (run under vitest: test/pg/global-setup.ts sets it)');
  return createDatabase(admin, 'e2e');
}

/** Noon UTC of the machine's day: a desk's pinned clock starts here, twelve hours from either midnight. */
function noonOfToday(): Date {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12));
}
