// The whole desk on one machine: sandbox gateway, local Discord, and the real bot between them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/bot/config/config.js';
import { freePort } from '../../src/bot/config/free-port.js';
import { type LocalDiscord, startLocalDiscord } from '../../src/local-discord/index.js';
import { type RunningSandbox, type StartSandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { loadStartBot, type RunningBot } from './bot-loader.js';
import { waitFor } from './wait.js';

export const SANDBOX_KEY = 'sandbox-key-alpha';

export interface Stack {
  sandbox: RunningSandbox;
  ld: LocalDiscord;
  /** Undefined when the bot runs in a child process (see memory figure). */
  bot: RunningBot | undefined;
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** true: the bot sends callback_url and results come by webhook; false: poll only. */
  webhook: boolean;
  sandbox?: StartSandboxOptions;
  /** false: start sandbox and local Discord only, and hand the env to a bot started elsewhere. */
  startBotHere?: boolean;
  /** Extra bot environment (tunables). */
  env?: Record<string, string>;
}

/** The environment a bot process needs to run against this sandbox and local Discord. */
async function botEnv(sandbox: RunningSandbox, ld: LocalDiscord, dir: string, webhook: boolean) {
  const env: Record<string, string> = {
    GATEWAY_BASE_URL: sandbox.url,
    GATEWAY_API_KEY: SANDBOX_KEY,
    DISCORD_TOKEN: ld.token,
    DISCORD_APP_ID: ld.applicationId,
    DISCORD_GUILD_ID: ld.guildId,
    DISCORD_API_URL: ld.apiUrl,
    STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
    LOG_LEVEL: 'error',
  };
  if (webhook) {
    const port = await freePort();
    env.WEBHOOK_PORT = String(port);
    env.WEBHOOK_PUBLIC_URL = `http://127.0.0.1:${port}`;
  } else {
    env.WEBHOOK_PORT = String(await freePort());
  }
  return env;
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  const startBot = opts.startBotHere === false ? undefined : await loadStartBot();
  const dir = mkdtempSync(join(tmpdir(), 'bench-stack-'));
  const closers: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const c of closers.reverse()) await Promise.resolve(c()).catch(() => undefined);
  };
  try {
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', quiet: true, control: true, ...opts.sandbox });
    closers.push(() => sandbox.close());
    const ld = await startLocalDiscord({ port: 0 });
    closers.push(() => ld.close());
    const env = { ...(await botEnv(sandbox, ld, dir, opts.webhook)), ...opts.env };
    let bot: RunningBot | undefined;
    if (startBot) {
      bot = await startBot(parseConfig(env));
      closers.push(() => bot!.stop());
      await waitForBotReady(ld);
      await openBetting(ld);
    }
    return { sandbox, ld, bot, env, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The bot is connected to the gateway and `command` is registered (the product bot registers /bet too). */
export async function waitForBotReady(ld: LocalDiscord, command = 'bet', timeoutMs = 30_000): Promise<void> {
  await ld.waitForBot(timeoutMs);
  await waitFor(
    () => ld.commands().some((c) => c.name === command),
    timeoutMs,
    `the bot to register /${command} with the local Discord`,
    25,
  );
}

/**
 * Betting is closed until a bet role is set: the admin names the fixture's Bettor role, as on a real server
 * (settings live in the bot's store, so once per store).
 */
export async function openBetting(ld: LocalDiscord, timeoutMs = 15_000): Promise<void> {
  const ix = await ld.sendCommand({
    user: ld.users.admin,
    channelId: ld.channelIds.bets,
    name: 'settings',
    subcommand: 'bet-role',
    options: { role: ld.roleIds.bettor },
  });
  await waitFor(
    () => ix.responses().some((m) => (m.content ?? '').includes('Saved')),
    timeoutMs,
    'the bet role to be saved',
    25,
  );
}
