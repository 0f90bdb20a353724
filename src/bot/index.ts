import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Client, Events, GatewayIntentBits, Options } from 'discord.js';
import { GatewayClient } from '../gateway/index.js';
import { ClosingCapture } from './analytics/closing.js';
import { Approvals } from './approvals.js';
import { recordBalanceChecks } from './balance-check.js';
import { BetService } from './bet-service.js';
import { Catalog } from './catalog.js';
import { warmCaches } from './choices.js';
import type { Command } from './command.js';
import { COMPONENTS } from './components.js';
import { type BotConfig, callbackUrlOf } from './config.js';
import type { BotContext } from './context.js';
import { checksOf, reconcileDay, reconciliationView } from './daily-reconciliation.js';
import { dayIn } from './dates.js';
import { deployCommands } from './deploy.js';
import { makeRequest } from './discord-rest.js';
import type { GatewayPort } from './gateway-port.js';
import { ResultTracker } from './job-tracker.js';
import { loadCommands } from './loader.js';
import { createLogger, type Logger } from './logger.js';
import { Outbox, RANK } from './outbox.js';
import { type DiscordPoster, restPoster } from './poster.js';
import {
  digestOf,
  parseDelivery,
  type Receiver,
  shapeProblem,
  startReceiver,
  type WebhookDelivery,
} from './receiver.js';
import { Reconciler } from './reconciler.js';
import { BetRecordRepo } from './repos/bet-records.js';
import { JobRepo } from './repos/jobs.js';
import { OnceRepo } from './repos/once.js';
import { ProposalRepo } from './repos/proposals.js';
import { SlipRepo } from './repos/slips.js';
import { attachRouter } from './router.js';
import { getSettings } from './settings.js';
import { SettlementWatcher } from './settlement.js';
import type { SlipPayload } from './slip-rules.js';
import { type BotStore, type LeaderRun, openStore, StoreClosedError } from './store.js';
import { startJobTakeover } from './takeover.js';
import { recordView } from './views/bet-record.js';
import { closedSlipView } from './views/slip.js';

/** How often the daily reconciliation checks whether yesterday's post is due. */
const RECONCILIATION_CHECK_MS = 10 * 60_000;

/** How often proposals past their expiry or half-time are looked for. */
const PROPOSAL_TICK_MS = 2_000;

/** How long stop waits for a start-up cache warm-up still under way before closing the store anyway. */
const WARM_UP_STOP_WAIT_MS = 3_000;
/** How long start waits for the cache warm-up before logging in anyway (stop lets it finish, see below). */
const WARM_BEFORE_READY_MS = 5_000;

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
  reconciler: Reconciler;
  outbox: Outbox;
  closing: ClosingCapture;
  /** Closes the messages of expired slips nobody clicked (runs on a timer; tests call it directly). */
  closeExpiredSlips(): Promise<void>;
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
      gateway = client;
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
      rest: { makeRequest, ...(config.discord.apiUrl ? { api: config.discord.apiUrl } : {}) },
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
    const outbox = new Outbox({ store, poster, logger, now, owner });
    stops.push(() => outbox.stop());
    // Runs after the tracker stopped renewing: a restart or another process resumes these jobs at once.
    stops.push(() => jobs.releaseLeases());
    const once = new OnceRepo(store);
    const tracker = new ResultTracker({
      jobs,
      gateway,
      logger,
      now,
      leaseRenewMs: Math.floor(jobLeaseMs / 3),
      storedDelivery: async (correlationId) => {
        const [row] = await store.query<{ body: string }>(
          'SELECT body FROM webhook_deliveries WHERE correlation_id = ?',
          correlationId,
        );
        const parsed = row ? parseDelivery(row.body) : undefined;
        return parsed?.ok ? parsed.body : undefined;
      },
    });
    stops.push(() => tracker.stop());
    const catalog = new Catalog(gateway, store);
    const callbackUrl = callbackUrlOf(config);
    const records = new BetRecordRepo(store, {
      onLedgerError: (err, placementId) => logger.error('ledger entry not written', { placementId, err }),
    });
    const slips = new SlipRepo(store);
    const bets = new BetService({
      gateway,
      store,
      catalog,
      slips,
      records,
      tracker,
      outbox,
      tunables: config.tunables,
      callbackUrl,
      logger,
      now,
    });
    const proposals = new ProposalRepo(store);
    const approvals = new Approvals({
      store,
      bets,
      slips,
      proposals,
      outbox,
      tunables: config.tunables,
      logger,
      now,
    });
    const context: BotContext = {
      config,
      gateway,
      store,
      catalog,
      bets,
      approvals,
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
      apiKey,
      once,
      check: async (body) => shapeProblem((await jobs.get(body.correlation_id))?.kind, body),
      quarantine: async (body, raw, reason) => {
        const rows = await store.query(
          `INSERT INTO quarantined_deliveries (digest, correlation_id, reason, body, received_at)
           VALUES (?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING RETURNING digest`,
          digestOf(raw),
          body.correlation_id,
          reason,
          raw,
          now(),
        );
        return rows.length === 1;
      },
      onDelivery: (body: WebhookDelivery) => tracker.fromWebhook(body),
      logger,
      now,
    });
    stops.push(() => receiver.close());

    const reconciler = new Reconciler({
      gateway,
      records,
      logger,
      now,
      safeWindowMs: config.tunables.reconcileWindowMs,
      intervalMs: config.tunables.reconcileIntervalMs,
      callbackUrl,
      show: (record) => bets.show(record),
      resend: (record) => bets.resendPromo(record),
    });
    stops.push(() => reconciler.stop());

    // Closing prices for every placed sports bet, in the card limiter's background lane (a bounded share, members first).
    const closing = new ClosingCapture({
      bets: {
        openSportsBets: async () =>
          (await records.inStates(['placed'])).flatMap((r) =>
            r.payload.startsAt === undefined
              ? []
              : [
                  {
                    betId: r.placementId,
                    sessionId: r.sessionId,
                    epk: r.payload.epk,
                    bookie: r.bookie,
                    marketRef: r.payload.marketRef,
                    startsAt: r.payload.startsAt,
                  },
                ],
          ),
      },
      cards: gateway.markets,
      recordClose: (placementId, odds, market, at) => records.recordClose(placementId, odds, market, at),
      now,
      logger,
    });
    stops.push(() => closing.stop());

    const settlement = new SettlementWatcher({
      gateway,
      store,
      records,
      outbox,
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
    // Warm the caches autocomplete reads before the bot shows up as ready, so the first ask after start
    // (an event, a book) is answered from them; a slow gateway only delays login by a few seconds.
    let stopping = false;
    const warm = warmCaches(context).catch((err) => {
      if (!stopping && !(err instanceof StoreClosedError)) logger.warn('cache warm-up failed', { err });
    });
    stops.push(async () => {
      stopping = true;
      await Promise.race([warm, delay(WARM_UP_STOP_WAIT_MS, undefined, { ref: false })]);
    });
    await Promise.race([warm, delay(WARM_BEFORE_READY_MS, undefined, { ref: false })]);
    await client.login(token.reveal());

    // Deliveries persisted but not handled before a stop, then jobs to re-track and results to post.
    // Each stored delivery is replayed on its own: one that cannot be parsed or applied never stops startup.
    const unhandled = await store.query<{ correlation_id: string; body: string }>(
      `SELECT d.correlation_id, d.body FROM webhook_deliveries d JOIN jobs j ON j.correlation_id = d.correlation_id
       WHERE j.state = 'pending'`,
    );
    for (const row of unhandled) {
      try {
        const parsed = parseDelivery(row.body);
        if (parsed.ok) await tracker.fromWebhook(parsed.body);
        else
          logger.warn('a stored delivery could not be replayed', {
            correlationId: row.correlation_id,
            why: parsed.reason,
          });
      } catch (err) {
        logger.warn('a stored delivery could not be replayed', { correlationId: row.correlation_id, err });
      }
    }
    const resumed = await tracker.resume();
    if (resumed.retracked + resumed.reposted > 0) logger.info('resumed jobs after restart', resumed);
    // Records left between states by a crash: the messages whose stage the outbox has not recorded are
    // re-queued, then the gateway asked.
    const touched = await records.inStates(['submitted', 'unknown', 'placed', 'refused', 'not_sent', 'not_placed']);
    const stages = [];
    for (const record of touched) {
      if (!record.messageId || now() - record.updatedAt >= 86_400_000) continue;
      const staged = recordView(record);
      if (staged) stages.push({ record, channelId: record.channelId, messageId: record.messageId, rank: staged.rank });
    }
    for (const { record } of await outbox.unrecorded(stages)) await bets.show(record);
    stops.push(startJobTakeover({ store, tracker, owner, leaseMs: jobLeaseMs, logger, now }));
    outbox.start();
    // One process at a time watches settlements, reconciles unconfirmed bets and captures closing prices;
    // another takes over when it stops or dies (its lease lapses). Each pass is safe to repeat anyway.
    const leader: LeaderRun = store.runAsLeader(
      'settlement',
      () => {
        logger.info('this process now watches settlements and reconciles bets');
        const every = (ms: number, pass: () => Promise<unknown>) => {
          const timer = setInterval(() => void pass().catch(() => undefined), ms);
          timer.unref();
          return timer;
        };
        void reconciler.run().catch(() => undefined);
        const timers = [
          every(config.tunables.settlementIntervalMs, () => settlement.tick()),
          every(config.tunables.reconcileIntervalMs, () => reconciler.run()),
        ];
        closing.start();
        return () => {
          for (const t of timers) clearInterval(t);
          void closing.stop();
        };
      },
      { onError: (err) => logger.warn('settlement leader lease failed; will retry', { err }) },
    );
    stops.push(() => leader.stop());

    // Expired slips nobody clicked lose their buttons; the row stays (a late click is told "expired") until the sweep.
    const closeExpiredSlips = async () => {
      for (const slip of await slips.expired(now(), 50)) {
        // A proposal's slip closes with the proposal (approvals.tick), which shows why.
        if (await proposals.bySlip(slip.slipId)) continue;
        if (!slip.messageId) continue;
        const view = closedSlipView(
          slip.payload as SlipPayload,
          'Bet slip expired',
          'Not confirmed in time, so nothing was placed. Make a new slip with /bet.',
        );
        await outbox.edit(slip.channelId, slip.messageId, view, RANK.final);
      }
    };
    // Once a day per server with a results channel: yesterday's ledger against every session's transactions.
    const dailyReconciliation = async () => {
      for (const guildId of client.guilds.cache.keys()) {
        const settings = await getSettings(store, guildId);
        if (!settings.resultsChannelId) continue;
        const day = dayIn(now() - 86_400_000, settings.timezone);
        const key = `recon:${guildId}:${day}`;
        if (await outbox.has(`create:${key}`)) continue;
        const report = await reconcileDay({
          store,
          gateway,
          callbackUrl,
          guildKey: guildId,
          day,
          timezone: settings.timezone,
          now: now(),
        });
        // A session whose transactions could not be read is tried again on the next beat.
        if (report.sessions.some((s) => s.unread)) continue;
        await outbox.create(key, settings.resultsChannelId, reconciliationView(report));
        await recordBalanceChecks(store, guildId, checksOf(report), now());
      }
    };
    const reconTimer = setInterval(
      () => void dailyReconciliation().catch((err) => logger.warn('daily reconciliation failed', { err })),
      RECONCILIATION_CHECK_MS,
    );
    reconTimer.unref();
    stops.push(() => clearInterval(reconTimer));
    // Proposals expire and remind on their own short beat: one indexed query when nothing is due.
    const proposalTick = setInterval(
      () => void approvals.tick().catch((err) => logger.warn('proposal expiry failed', { err })),
      PROPOSAL_TICK_MS,
    );
    proposalTick.unref();
    stops.push(() => clearInterval(proposalTick));
    const sweep = setInterval(
      () =>
        void closeExpiredSlips()
          .then(() => store.sweep(now()))
          .catch((err) => logger.warn('sweep failed', { err })),
      Math.min(60_000, config.tunables.slipExpiryMs),
    );
    sweep.unref();
    stops.push(() => clearInterval(sweep));

    return {
      client,
      receiverUrl: receiver.url,
      store,
      context,
      settlement,
      reconciler,
      outbox,
      closing,
      closeExpiredSlips,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
