// `npm start`. With DISCORD_TOKEN: the bot on Discord. Without: the offline playground — the sandbox
// gateway, a local Discord double and the same bot, behind a web page that looks like a channel.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { LocalDiscord } from '../local-discord/index.js';
import type { StartSandboxOptions } from '../sandbox/index.js';
import { checkRestoredStore } from './audit/restore-check.js';
import { type BotConfig, ConfigError, parseConfig } from './config/config.js';
import { loadEnvFile } from './config/env-file.js';
import { freePort } from './config/free-port.js';
import { SandboxClock, type SandboxClockReading } from './config/sandbox-clock.js';
import { Secret } from './config/secret.js';
import { startShardManager } from './discord/shards.js';
import { drainOnSignals, startBot } from './index.js';
import { updateSettings } from './settings/guild-settings.js';

/** The key the embedded sandbox's fixture account answers to (no secret: the sandbox is local). */
const SANDBOX_KEY = 'sandbox-key-alpha';

export interface RunningApp {
  /** The playground page, when running offline. */
  playgroundUrl: string | undefined;
  /** The embedded sandbox gateway, when one was started. */
  sandboxUrl: string | undefined;
  /** The bot on Discord: SIGTERM's clean stop (see RunningBot.drain). */
  drain?: (graceMs?: number) => Promise<boolean>;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  print?: (line: string) => void;
  /** Options for the embedded sandbox (seed, start, …). Its control routes are always on offline. */
  sandbox?: StartSandboxOptions;
  /** The process runs the app alone (npm start's): see BotDeps.ownProcess. */
  ownProcess?: boolean;
}

const playgroundPort = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.coerce
    .number({ error: 'PLAYGROUND_PORT must be a whole number from 0 to 65535 (0 picks a free port)' })
    .int({ error: 'PLAYGROUND_PORT must be a whole number from 0 to 65535 (0 picks a free port)' })
    .min(0, { error: 'PLAYGROUND_PORT must be at least 0' })
    .max(65535, { error: 'PLAYGROUND_PORT must be at most 65535' })
    .default(8791),
);

export async function startApp(opts: StartOptions = {}): Promise<RunningApp> {
  const env = opts.env ?? process.env;
  const print = opts.print ?? ((line: string) => console.log(line));
  const config = parseConfig(env);

  if (config.discord.token && config.sharding.count !== 1 && !env.SHARDING_MANAGER) {
    // Sharded: this process only manages; each shard runs in a child process of this same file.
    const shards = await startShardManager(config, fileURLToPath(import.meta.url), print);
    print(`Bot is running on Discord with shards ${shards.ids.join(', ')} of ${shards.total}.`);
    return { playgroundUrl: undefined, sandboxUrl: undefined, stop: () => shards.stop() };
  }

  if (config.discord.token) {
    print('Starting the bot on Discord…');
    // A store restored from a backup is checked against the gateway before the bot can take a bet (decision 1980).
    if (await checkRestoredStore(config)) print('Checked the restored store against the gateway (see #results).');
    const bot = await startBot(shardProcessConfig(config, env), { ownProcess: opts.ownProcess });
    print(`Bot is running on Discord as ${bot.client.user?.tag ?? 'the configured application'}.`);
    return { playgroundUrl: undefined, sandboxUrl: undefined, drain: (ms) => bot.drain(ms), stop: () => bot.stop() };
  }

  const parsedPort = playgroundPort.safeParse(env.PLAYGROUND_PORT);
  if (!parsedPort.success) throw new ConfigError(`Invalid configuration:\n- ${parsedPort.error.issues[0]?.message}`);

  // The offline parts load only here: a desk on Discord never holds the sandbox, the local Discord or the page.
  const [{ startSandbox }, { startLocalDiscord }, { FIXTURE_BOT_SETTINGS }, { startPlayground }] = await Promise.all([
    import('../sandbox/index.js'),
    import('../local-discord/index.js'),
    import('../local-discord/fixtures.js'),
    import('../local-discord/playground/server.js'),
  ]);
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
  };
  try {
    let { baseUrl, apiKey } = config.gateway;
    let sandboxUrl: string | undefined;
    if (!baseUrl) {
      print('Starting the sandbox gateway…');
      // Control routes on: the page's Sandbox panel moves the real-speed clock on and settles events.
      // Only for this local sandbox, never for a gateway at GATEWAY_BASE_URL.
      const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', quiet: true, ...opts.sandbox, control: true });
      stops.push(() => sandbox.close());
      baseUrl = sandbox.url;
      sandboxUrl = sandbox.url;
      apiKey = new Secret(SANDBOX_KEY);
    }
    print('Starting the local Discord (Syndicate HQ: an admin, a bettor and a viewer)…');
    const ld = await startLocalDiscord({ port: 0 });
    stops.push(() => ld.close());

    const offline = await offlineBotConfig(config, env, { baseUrl, apiKey, ld });
    stops.push(async () => offline.cleanup());
    // With the embedded sandbox the bot runs on the sandbox clock, which the Sandbox panel moves on.
    const clock = sandboxUrl ? new SandboxClock(sandboxUrl) : undefined;
    if (clock) {
      await clock.start((err) => print(`Could not read the sandbox clock: ${(err as Error).message}`));
      stops.push(async () => clock.stop());
    }
    print('Starting the bot: its store, its commands, logging in to the local Discord…');
    const bot = await startBot(offline.config, { ownProcess: opts.ownProcess, ...(clock ? { now: clock.now } : {}) });
    stops.push(() => bot.stop());
    // On Discord settlement notices go to the bet's channel until an admin picks one; the playground has a
    // #results channel, so it starts with that chosen (an admin can change it with /settings results-channel).
    await updateSettings(bot.store, ld.guildId, (s) =>
      s.resultsChannelId ? s : { ...s, resultsChannelId: ld.channelIds.results },
    );
    // And its #alerts channel for /watch alerts (an admin's /watch alerts-channel), as the guides describe them.
    if (!(await bot.context.watch.repo.alertsChannel(ld.guildId))) {
      await bot.context.watch.repo.setAlertsChannel(ld.guildId, ld.channelIds.alerts);
    }
    // The fixture server's admin has named its Bettor role (betting is closed until someone does).
    await updateSettings(bot.store, ld.guildId, (s) => (s.betRoleId ? s : { ...s, ...FIXTURE_BOT_SETTINGS }));

    const playground = await startPlayground({
      ld,
      port: parsedPort.data,
      // Loopback unless asked: a container publishes the page with PLAYGROUND_HOST=0.0.0.0.
      ...(env.PLAYGROUND_HOST?.trim() ? { host: env.PLAYGROUND_HOST.trim() } : {}),
      ...(sandboxUrl ? { sandboxUrl } : {}),
      ...(clock ? { onSandboxClock: (reading: SandboxClockReading) => clock.take(reading) } : {}),
      // The buttons move the latest watch that names one selection of an event still to start (a server rule names
      // leagues, a value watch may cover a whole market, a finished event's watch alerts no more).
      latestWatch: async () => {
        const now = clock ? clock.now() : Date.now();
        return (await bot.context.watch.repo.active())
          .filter((w) => w.rule.kind !== 'league' && w.selection !== null && (w.startsAt === null || w.startsAt > now))
          .at(-1);
      },
      // "Settle started events" shows the settlements at once: the watcher reads them now, in a pass that begins
      // after the settle (one already running may have read the book's history before it), not at its next look.
      onSandboxSettled: async () => {
        await bot.settlement.tickFresh().catch(() => undefined);
      },
      // The Deposit button says the treasurer's next step: record the money, or add its account to the fund first.
      fundHolds: async (a) =>
        (await bot.context.fund.repo.accounts(ld.guildId)).some(
          (x) => x.bookie === a.bookie && x.username === a.username,
        ),
    });
    stops.push(() => playground.close());

    print(`Offline playground: ${playground.url}`);
    print(
      'No DISCORD_TOKEN is set, so the bot runs against a local Discord double and the ' +
        (config.gateway.baseUrl ? 'gateway at GATEWAY_BASE_URL' : 'embedded sandbox gateway') +
        '; open the address above to use it. Set DISCORD_TOKEN and DISCORD_APP_ID to run on Discord.',
    );
    return { playgroundUrl: playground.url, sandboxUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * In a shard process of the ShardingManager, each shard's webhook receiver listens on WEBHOOK_PORT plus
 * its shard id (they share a machine); WEBHOOK_PUBLIC_URL, when set, is the load balancer in front of them.
 */
function shardProcessConfig(config: BotConfig, env: Record<string, string | undefined>): BotConfig {
  const id = config.sharding.ids?.[0];
  if (!env.SHARDING_MANAGER || id === undefined || config.webhook.port === 0) return config;
  return { ...config, webhook: { ...config.webhook, port: config.webhook.port + id } };
}

/**
 * The bot's config for the offline run: Discord is the double, the store a fresh file unless STORE_URL
 * is set (the double starts empty each time, so old slips would point at nothing), and webhooks come
 * back on a free loopback port unless WEBHOOK_PORT/WEBHOOK_PUBLIC_URL say otherwise.
 */
async function offlineBotConfig(
  config: BotConfig,
  env: Record<string, string | undefined>,
  parts: { baseUrl: string; apiKey: Secret | undefined; ld: LocalDiscord },
): Promise<{ config: BotConfig; cleanup: () => void }> {
  let cleanup = () => {};
  let storeUrl = config.storeUrl;
  if (!env.STORE_URL?.trim()) {
    const dir = mkdtempSync(join(tmpdir(), 'syndicate-playground-'));
    storeUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
    cleanup = () => rmSync(dir, { recursive: true, force: true });
  }
  let webhook = config.webhook;
  if (!env.WEBHOOK_PORT?.trim() && !config.webhook.publicUrl) {
    const port = await freePort();
    webhook = { port, publicUrl: `http://127.0.0.1:${port}` };
  }
  return {
    cleanup,
    config: {
      ...config,
      storeUrl,
      webhook,
      gateway: { baseUrl: parts.baseUrl, apiKey: parts.apiKey },
      discord: {
        token: new Secret(parts.ld.token),
        appId: parts.ld.applicationId,
        guildId: parts.ld.guildId,
        apiUrl: parts.ld.apiUrl,
      },
    },
  };
}

async function main() {
  let app: RunningApp;
  try {
    loadEnvFile();
    app = await startApp({ ownProcess: true });
  } catch (err) {
    // Config errors already say which variable to fix; anything else is printed without secrets (none reach here).
    console.error(err instanceof ConfigError ? err.message : `Could not start: ${(err as Error).message}`);
    process.exit(1);
  }
  if (app.drain) {
    drainOnSignals({ drain: app.drain });
    return;
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1); // a second Ctrl-C forces it
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await app.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
