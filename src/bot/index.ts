import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Client, Events, GatewayIntentBits, Options } from 'discord.js';
import { GatewayClient } from '../gateway/index.js';
import { verifyWebhookSignature } from '../gateway/webhooks.js';
import { BetService } from './bet-service.js';
import { Catalog } from './catalog.js';
import { warmCaches } from './choices.js';
import type { Command } from './command.js';
import { COMPONENTS } from './components.js';
import { type BotConfig, callbackUrlOf } from './config.js';
import type { BotContext } from './context.js';
import { deployCommands } from './deploy.js';
import { asGatewayPort } from './gateway-compat.js';
import type { GatewayPort } from './gateway-port.js';
import { ResultTracker } from './job-tracker.js';
import { loadCommands } from './loader.js';
import { createLogger, type Logger } from './logger.js';
import { type DiscordPoster, restPoster } from './poster.js';
import { type Receiver, startReceiver, type WebhookDelivery } from './receiver.js';
import { BetRepo } from './repos/bets.js';
import { JobRepo } from './repos/jobs.js';
import { OnceRepo } from './repos/once.js';
import { SlipRepo } from './repos/slips.js';
import { StakeRepo } from './repos/stakes.js';
import { attachRouter } from './router.js';
import { SettlementWatcher } from './settlement.js';
import { type BotStore, type LeaderRun, openStore, StoreClosedError } from './store.js';
import { startJobTakeover } from './takeover.js';

/** How long stop waits for a start-up cache warm-up still under way before closing the store anyway. */
const WARM_UP_STOP_WAIT_MS = 3_000;

export interface BotDeps {
  /** A prebuilt gateway client (or stand-in); the bot then does not close it. */
  gateway?: GatewayPort;
  /** Overrides config.storeUrl, e.g. a temp file in tests. */
  storeUrl?: string;
  now?: () => number;
  logger?: Logger;
  poster?: DiscordPoster;
  /** Host the webhook receiver binds (default 127.0.0.1; 0.0.0.0 behind a proxy). */
  webhookHost?: string;
  /** Register the slash commands at start (default: when DISCORD_GUILD_ID is set). */
  deployCommands?: boolean;
  /** Id of this process for job leases (default config.processId, else the host name). */
  processId?: string;
  /** Poll interval of the library's batched poller when the bot builds the client. */
  pollIntervalMs?: number;
}

export interface RunningBot {
  client: Client;
  receiverUrl: string;
  store: BotStore;
  context: BotContext;
  settlement: SettlementWatcher;
  stop(): Promise<void>;
}

/** The shards this process runs: all of SHARD_COUNT, or those SHARDS lists (ShardingManager sets it per process). */
function shardOptions(config: BotConfig): { shards: number[] | 'auto'; shardCount?: number } {
  const { count, ids } = config.sharding;
  if (count === 'auto') return { shards: 'auto' };
  return { shards: ids ?? Array.from({ length: count }, (_, i) => i), shardCount: count };
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not set. See .env.example.`);
  return value;
}

/** Wires store, gateway, receiver, tracker, commands and discord.js, logs in, resumes pending work. */
export async function startBot(config: BotConfig, deps: BotDeps = {}): Promise<RunningBot> {
  const token = required(config.discord.token, 'DISCORD_TOKEN');
  const logger =
    deps.logger ?? createLogger({ level: config.logLevel, secrets: [config.gateway.apiKey, config.discord.token] });
  const now = deps.now ?? Date.now;
  const stops: Array<() => Promise<void> | void> = [];
  const stop = async () => {
    for (const s of stops.reverse()) {
      try {
        await s();
      } catch (err) {
        logger.warn('shutdown step failed', { err });
      }
    }
    stops.length = 0;
  };
  try {
    const store = await openStore(deps.storeUrl ?? config.storeUrl);
    stops.push(() => store.close());
    let gateway = deps.gateway;
    if (!gateway) {
      const baseUrl = required(config.gateway.baseUrl, 'GATEWAY_BASE_URL');
      const apiKey = required(config.gateway.apiKey, 'GATEWAY_API_KEY');
      const client = new GatewayClient({
        baseUrl,
        apiKey: apiKey.reveal(),
        poller: {
          intervalMs: deps.pollIntervalMs ?? 1500,
          onError: (err) => logger.warn('result poll failed; will retry', { err }),
        },
      });
      gateway = asGatewayPort(client);
      const owned = gateway;
      stops.push(() => owned.close());
    }
    const apiKey = config.gateway.apiKey?.reveal() ?? '';

    const client = new Client({
      intents: [GatewayIntentBits.Guilds],
      // The bot reads everything it needs from the interaction and the store: caching the messages it
      // edits, members, users and threads only grows memory with every interaction.
      makeCache: Options.cacheWithLimits({
        ...Options.DefaultMakeCacheSettings,
        MessageManager: 0,
        ReactionManager: 0,
        ThreadManager: 0,
        PresenceManager: 0,
        UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
        GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
      }),
      ...(config.discord.apiUrl ? { rest: { api: config.discord.apiUrl } } : {}),
      // Explicit, so discord.js never reads SHARDS from the environment itself (it expects JSON there).
      ...shardOptions(config),
    });
    // Without a listener a rejected async handler (captureRejections) would end the process.
    client.on(Events.Error, (err) => logger.error('discord client error', { err }));
    const where = config.discord.apiUrl ? `the Discord API at ${config.discord.apiUrl}` : 'Discord';
    client.once(Events.ClientReady, (c) => logger.info(`logged in to ${where}`, { user: c.user.tag }));
    stops.push(() => client.destroy());

    const poster = deps.poster ?? restPoster(client);
    const owner = deps.processId ?? config.processId ?? hostname();
    const jobLeaseMs = config.tunables.jobLeaseMs;
    const jobs = new JobRepo(store, owner, jobLeaseMs);
    // Runs after the tracker stopped renewing: a restart or another process resumes these jobs at once.
    stops.push(() => jobs.releaseLeases());
    const once = new OnceRepo(store);
    const tracker = new ResultTracker({ jobs, gateway, logger, now, leaseRenewMs: Math.floor(jobLeaseMs / 3) });
    stops.push(() => tracker.stop());
    const catalog = new Catalog(gateway, store);
    const callbackUrl = callbackUrlOf(config);
    const bets = new BetService({
      gateway,
      store,
      catalog,
      slips: new SlipRepo(store),
      stakes: new StakeRepo(store),
      bets: new BetRepo(store),
      tracker,
      poster,
      tunables: config.tunables,
      callbackUrl,
      logger,
      now,
    });
    const context: BotContext = {
      config,
      gateway,
      store,
      catalog,
      bets,
      tracker,
      jobs,
      poster,
      logger,
      callbackUrl,
      now,
    };

    const receiver: Receiver = await startReceiver({
      port: config.webhook.port,
      ...(deps.webhookHost ? { host: deps.webhookHost } : {}),
      maxBodyBytes: config.tunables.webhookMaxBodyBytes,
      toleranceMs: config.tunables.webhookToleranceMs,
      verify: (raw, header) => apiKey !== '' && verifyWebhookSignature(raw, header, apiKey),
      once,
      onDelivery: (body: WebhookDelivery) => tracker.fromWebhook(body),
      logger,
      now,
    });
    stops.push(() => receiver.close());

    const settlement = new SettlementWatcher({
      gateway,
      store,
      bets: new BetRepo(store),
      once,
      poster,
      logger,
      now,
      intervalMs: config.tunables.settlementIntervalMs,
      callbackUrl,
    });
    stops.push(() => settlement.stop());

    const commands: Map<string, Command> = await loadCommands();
    attachRouter(client, commands, COMPONENTS, context);
    if (deps.deployCommands ?? config.discord.guildId !== undefined) {
      await deployCommands({ config, commands: [...commands.values()] });
    }
    await client.login(token.reveal());

    // Deliveries persisted but not handled before a stop, then jobs to re-track and results to post.
    const unhandled = await store.query<{ body: string }>(
      `SELECT d.body FROM webhook_deliveries d JOIN jobs j ON j.correlation_id = d.correlation_id WHERE j.state = 'pending'`,
    );
    for (const row of unhandled) await tracker.fromWebhook(JSON.parse(row.body) as WebhookDelivery);
    const resumed = await tracker.resume();
    if (resumed.retracked + resumed.reposted > 0) logger.info('resumed jobs after restart', resumed);
    stops.push(startJobTakeover({ store, tracker, owner, leaseMs: jobLeaseMs, logger, now }));
    // One process at a time watches settlements; another takes over when it stops or dies. (Exactly one
    // notice per bet comes from the post claim; the lease keeps the others from reading the same sessions.)
    const leader: LeaderRun = store.runAsLeader(
      'settlement',
      () => {
        logger.info('this process now watches settlements');
        const timer = setInterval(
          () => void settlement.tick().catch(() => undefined),
          config.tunables.settlementIntervalMs,
        );
        timer.unref();
        return () => clearInterval(timer);
      },
      { onError: (err) => logger.warn('settlement leader lease failed; will retry', { err }) },
    );
    stops.push(() => leader.stop());

    const sweep = setInterval(
      () => void store.sweep(now()).catch((err) => logger.warn('sweep failed', { err })),
      60_000,
    );
    sweep.unref();
    stops.push(() => clearInterval(sweep));
    // Stop lets the warm-up finish (its gateway call is short) so it never touches the closed store.
    let stopping = false;
    const warm = warmCaches(context).catch((err) => {
      if (!stopping && !(err instanceof StoreClosedError)) logger.warn('cache warm-up failed', { err });
    });
    stops.push(async () => {
      stopping = true;
      await Promise.race([warm, delay(WARM_UP_STOP_WAIT_MS, undefined, { ref: false })]);
    });

    return { client, receiverUrl: receiver.url, store, context, settlement, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
