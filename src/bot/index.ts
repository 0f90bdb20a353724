import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { type Client, Events } from 'discord.js';
import { GatewayClient } from '../gateway/index.js';
import { AccountHealth } from './accounts/account-health.js';
import { ClosingCapture } from './analytics/closing.js';
import { RaceCloseCapture } from './analytics/race-closes.js';
import { DEFAULT_SKILL_MIN_BETS } from './analytics/skill.js';
import { reconcileYesterday } from './audit/daily-reconciliation.js';
import { Approvals } from './betting/approvals.js';
import { NavOrSetBank } from './betting/bank.js';
import { BetRecordRepo } from './betting/bet-records.js';
import { type BetJobContext, BetResults, type StackJobContext } from './betting/bet-results.js';
import type { RiskCheck } from './betting/index.js';
import { raceWinPrices } from './betting/multi-prices.js';
import { Placement } from './betting/placement.js';
import type { BetPresenter } from './betting/presenter.js';
import { ProposalRepo } from './betting/proposals.js';
import { Reconciler } from './betting/reconciler.js';
import { SettlementWatcher } from './betting/settlement.js';
import { closeExpiredSlips } from './betting/slip-expiry.js';
import { SlipFactory } from './betting/slip-factory.js';
import { SlipRepo } from './betting/slips.js';
import { betViews } from './betting/views/bet-presenter.js';
import { missingBetView, settlementView } from './betting/views/notice.js';
import { Catalog } from './catalog/catalog.js';
import { warmCaches } from './catalog/handlers/choices.js';
import { sharedCardBudgetOf } from './catalog/shared-card-window.js';
import { type BotConfig, callbackUrlOf, DEFAULT_DRAIN_GRACE_MS } from './config/config.js';
import { createLogger, type Logger } from './config/logger.js';
import type { Secret } from './config/secret.js';
import type { BotContext } from './context.js';
import { COMPONENTS } from './controls.js';
import { botClient } from './discord/client.js';
import type { Command } from './discord/command.js';
import { deployCommands } from './discord/deploy.js';
import { Intake } from './discord/intake.js';
import { type DiscordPoster, restPoster } from './discord/poster.js';
import { attachRouter } from './discord/router.js';
import { fundFacts, tipsterPnl } from './fund/fund-facts.js';
import { FundGate } from './fund/fund-gate.js';
import { fundAccountNames } from './fund/fund-repo.js';
import { postWeeklyFundReports } from './fund/fund-report.js';
import { checkFundRisk } from './fund/fund-risk.js';
import { FundService } from './fund/fund-service.js';
import { fundViews } from './fund/views/fund-presenter.js';
import { fundReportView } from './fund/views/report.js';
import type { GatewayPort } from './gateway-port.js';
import { type JobRecord, JobRepo } from './jobs/jobs-repo.js';
import { ResultTracker } from './jobs/result-tracker.js';
import { JOBS_SWEEP } from './jobs/sweep-jobs.js';
import { startJobTakeover } from './jobs/takeover.js';
import { chainStaged, Ledger } from './ledger/ledger-repo.js';
import { loadCommands } from './loader.js';
import { BET_STATES } from './model/bet-states.js';
import { startTimers, whileLeader } from './ops/beats.js';
import { drain } from './ops/drain.js';
import { prioritiseEventLoop } from './ops/helper-threads.js';
import { collectBacklogs, type DeskMetrics, deskMetrics } from './ops/metrics.js';
import { readiness } from './ops/readiness.js';
import { collectStartGarbage } from './ops/start-garbage.js';
import { Stops } from './ops/stops.js';
import { Outbox } from './outbox/outbox.js';
import { OUTBOX_SWEEP } from './outbox/sweep-outbox.js';
import { COMPONENT_OWNERS } from './owners.js';
import { OnceRepo } from './receiver/once.js';
import { type Receiver, shapeProblem, startReceiver, type WebhookDelivery } from './receiver/receiver.js';
import {
  outcomeAccepted,
  quarantineDelivery,
  replayReceiptJournal,
  replayStoredDeliveries,
  storedDelivery,
} from './receiver/stored-deliveries.js';
import { getSettings } from './settings/guild-settings.js';
import { type BotStore, openStore, StoreClosedError } from './store/index.js';
import { WatchEngine } from './watch/engine.js';
import { WATCH_SWEEP } from './watch/sweep-watches.js';
import { alertsFoldedView, alertView } from './watch/views/watch.js';

export { drainOnSignals } from './ops/drain.js';

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
  /** Host the webhook receiver binds (default config.webhook.host, else 127.0.0.1; 0.0.0.0 behind a proxy). */
  webhookHost?: string;
  /** Register the slash commands at start (default: when DISCORD_GUILD_ID is set). */
  deployCommands?: boolean;
  /** Id of this process for job leases (default config.processId, else the host name). */
  processId?: string;
  /**
   * The process runs the desk alone (npm start's): its helper threads then run below the event loop at
   * config.ops.helperThreadsNice (decision 2145). A process that hosts the desk beside other work leaves them.
   */
  ownProcess?: boolean;
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
  /** A same-race multi's close: the race's win prices read while the multi is open (decision 2040). */
  raceCloses: RaceCloseCapture;
  /** This bot's metrics (GET /metrics shows them when enabled). */
  metrics: DeskMetrics;
  /** Closes the messages of expired slips nobody clicked (runs on a timer; tests call it directly). */
  closeExpiredSlips(): Promise<void>;
  /**
   * SIGTERM's clean stop: new interactions are told the desk is restarting, those under way finish, their results
   * are applied and the outbox sent, for at most graceMs; then the bot stops (leases released). True when all of it
   * finished within the grace period; what did not resumes on the next start from the store.
   */
  drain(graceMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not set. See .env.example.`);
  return value;
}

/** What every start-up step may use. */
interface Start {
  config: BotConfig;
  deps: BotDeps;
  logger: Logger;
  now: () => number;
  stops: Stops;
  /** Whether new interactions are taken (closed by a drain). */
  intake: Intake;
  metrics: DeskMetrics;
}

/**
 * Starts the desk: the store, the gateway client, discord.js, the services, the webhook receiver, the background
 * workers; then logs in, resumes what a stop left half done and starts the timers. Each step is a function below.
 */
export async function startBot(config: BotConfig, deps: BotDeps = {}): Promise<RunningBot> {
  const token = required(config.discord.token, 'DISCORD_TOKEN');
  const logger =
    deps.logger ?? createLogger({ level: config.logLevel, secrets: [config.gateway.apiKey, config.discord.token] });
  const stops = new Stops(logger);
  const metrics = deskMetrics(undefined, { watchLoop: config.ops?.metrics === true });
  stops.push(() => metrics.stop());
  const start: Start = { config, deps, logger, now: deps.now ?? Date.now, stops, intake: new Intake(metrics), metrics };
  try {
    const store = await openStore(deps.storeUrl ?? config.storeUrl, { metrics, receipts: true });
    for (const part of [JOBS_SWEEP, OUTBOX_SWEEP, WATCH_SWEEP]) store.registerSweep(part);
    stops.push(() => store.close());
    // A clean stop leaves nothing staged: the moves' entries whose chaining runs in the background (decision 2131).
    stops.push(() => chainStaged(store).catch(() => undefined));
    const gateway = gatewayOf(start, store);
    const client = discordClient(start);
    const services = buildServices(start, { store, gateway, client });
    const receiver = await startWebhookReceiver(start, services);
    const workers = backgroundWorkers(start, services);
    await goOnline(start, services, token);
    await resumeAfterStop(start, services);
    const closeExpired = () => closeExpiredSlips({ ...services, present: betViews, now: start.now });
    startBeats(start, services, workers, closeExpired);
    collectOnceReady(start, client);
    if (deps.ownProcess) stops.push(prioritiseEventLoop(config.ops?.helperThreadsNice ?? 0, logger));
    stops.push(
      collectBacklogs(metrics, {
        outboxPending: () => services.outbox.pendingCount(),
        cardLimiter: services.gateway.marketsLimiter,
      }),
    );
    return {
      client,
      receiverUrl: receiver.url,
      store,
      context: services.context,
      ...workers,
      outbox: services.outbox,
      metrics,
      closeExpiredSlips: closeExpired,
      drain: (graceMs) =>
        drain(
          { ...services, intake: start.intake, metrics, logger, stop: () => stops.run() },
          graceMs ?? config.ops?.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS,
        ),
      stop: () => stops.run(),
    };
  } catch (err) {
    await stops.run();
    throw err;
  }
}

/** The gateway client: the one passed in (not closed by the bot), else one the bot builds and closes. */
function gatewayOf({ config, deps, logger, stops, now }: Start, store: BotStore): GatewayPort {
  if (deps.gateway) return deps.gateway;
  const client = new GatewayClient({
    baseUrl: required(config.gateway.baseUrl, 'GATEWAY_BASE_URL'),
    apiKey: required(config.gateway.apiKey, 'GATEWAY_API_KEY').reveal(),
    // The closing capture and the watches read cards in the limiter's background lane, at most this share of any
    // window; on PostgreSQL every process's reads also take the key's one window (decision 1941).
    marketRateLimit: {
      backgroundShare: config.tunables.captureShare,
      shared: sharedCardBudgetOf(store, config.tunables.captureShare),
    },
    poller: {
      intervalMs: deps.pollIntervalMs ?? 1500,
      // A job's timeout_at is on the gateway's clock: compared on the desk's (the sandbox's where it is pinned).
      now,
      onError: (err) => logger.warn('result poll failed; will retry', { err }),
    },
  });
  stops.push(() => client.close());
  return client;
}

/** discord.js for this bot: its shards, its caches, acknowledgements timed into the metrics. */
function discordClient({ config, logger, stops, metrics }: Start): Client {
  const client = botClient(config, logger, (seconds) => metrics.ackSeconds.observe(seconds));
  stops.push(() => client.destroy());
  return client;
}

/** The repositories and services over the store, and the context every handler gets. */
function buildServices(
  { config, deps, logger, now, stops, metrics }: Start,
  { store, gateway, client }: { store: BotStore; gateway: GatewayPort; client: Client },
) {
  const poster = deps.poster ?? restPoster(client);
  const owner = deps.processId ?? config.processId ?? hostname();
  const jobLeaseMs = config.tunables.jobLeaseMs;
  const jobs = new JobRepo(store, owner, jobLeaseMs);
  const outbox = new Outbox({
    store,
    poster,
    logger,
    now,
    owner,
    leaseMs: config.tunables.outboxLeaseMs,
    metrics,
    foldedView: alertsFoldedView,
  });
  stops.push(() => outbox.stop());
  // Runs after the tracker stopped renewing: a restart or another process resumes these jobs at once.
  stops.push(() => jobs.releaseLeases());
  const once = new OnceRepo(store);
  const tracker = new ResultTracker({
    jobs,
    store,
    once,
    gateway,
    logger,
    now,
    leaseRenewMs: Math.floor(jobLeaseMs / 3),
    storedDelivery: (correlationId) => storedDelivery(store, correlationId, logger, now()),
    accepts: (correlationId, outcome) => outcomeAccepted(store, outcome, correlationId, logger, now()),
    metrics,
  });
  stops.push(() => tracker.stop());
  const catalog = new Catalog(gateway, store, { logger, metrics, now });
  const callbackUrl = callbackUrlOf(config);
  const records = new BetRecordRepo(store, (m) => metrics.betTransitions.inc(m));
  // A record moved some other way than its receipt: the copy placement gave the tracker is stale (decision 2137).
  records.whenMoved((r) => {
    if (r.correlationId) tracker.unshow(r.correlationId);
  });
  const slips = new SlipRepo(store);
  const { tunables } = config;
  const betPresenter: BetPresenter = betViews;
  const accounts = new AccountHealth({ store, catalog, outbox, present: betPresenter, logger, now });
  const results = new BetResults({ records, outbox, present: betPresenter, logger, now, accounts });
  // A bet job's outcome moves its record (placed, refused, result unknown) and queues the slip message's edit.
  tracker.on(
    'bet',
    (job, outcome) => results.apply(job as JobRecord<BetJobContext>, outcome),
    (tx, job, outcome) => results.applyInTx(tx, job as JobRecord<BetJobContext>, outcome),
    (job, outcome, read) => results.ahead(job, outcome, read),
  );
  // A stack's job (one stacked_srm call) moves each of its multis' records (decision 2010).
  tracker.on('stack', (job, outcome) => results.applyStack(job as JobRecord<StackJobContext>, outcome));
  const proposals = new ProposalRepo(store);
  const ledger = new Ledger(store);
  // The syndicate's fund: built before the bank, whose stakes it sizes by its NAV, and the limits it sets.
  const fund: FundService = new FundService({
    store,
    gateway,
    outbox,
    present: fundViews,
    logger,
    now,
    callbackUrl,
    withdrawalWindowMs: tunables.reconcileWindowMs,
    // The tipster share's P&L by tipster, read as /fund tipsters reads it (at strikes).
    tipsterPnl: async (guildId, self): Promise<ReadonlyMap<string, number>> =>
      tipsterPnl(await fundFacts({ store, catalog, fund: self }, guildId)),
  });
  // The fund's limits, asked at a slip's Confirm and at a proposal's last approval.
  const riskAtConfirm: RiskCheck = (guildId, timezone, bet) =>
    checkFundRisk({ store, fund, catalog, ledger, now }, guildId, timezone, bet);
  const bank = new NavOrSetBank(
    store,
    (guildId) => fund.lastStrike(guildId),
    (guildId) => fundAccountNames(store, guildId),
  );
  const factory = new SlipFactory({ gateway, store, catalog, slips, tunables, callbackUrl, now, accounts, bank });
  const placement = new Placement({
    gateway,
    store,
    slips,
    records,
    proposals,
    tracker,
    results,
    prices: factory,
    tunables,
    callbackUrl,
    logger,
    now,
    accounts,
  });
  const approvals = new Approvals({
    store,
    placement,
    prices: factory,
    records,
    slips,
    proposals,
    ledger,
    outbox,
    present: betPresenter,
    tunables,
    logger,
    now,
    riskCheck: riskAtConfirm,
  });
  // Every claim passes the fund's gate: whose the bet is, and the fund's rooms reserved with its record.
  placement.useFundGate(new FundGate({ store, fund, catalog, ledger, now, gateway }));
  // Watches: the scheduler owns every card read made for them; it runs in one process at a time (startBeats).
  const watch = new WatchEngine({
    store,
    alertView,
    catalog,
    outbox,
    logger,
    now,
    tickMs: tunables.watchTickMs,
    schedule: {
      fallbackMs: tunables.watchFallbackMs,
      probeMs: Math.max(1_000, Math.round(tunables.watchFallbackMs / 6)),
      maxStaleMs: 30 * 60_000,
    },
    metrics,
    booksNotTaking: (sport) => accounts.booksNotTaking(sport),
  });
  stops.push(() => watch.stop());
  const context: BotContext = {
    riskAtConfirm,
    config,
    gateway,
    store,
    catalog,
    watch,
    slipFactory: factory,
    placement,
    bank,
    betResults: results,
    approvals,
    accounts,
    tracker,
    jobs,
    records,
    slips,
    proposals,
    ledger,
    fund,
    poster,
    logger,
    callbackUrl,
    now,
  };
  return {
    client,
    store,
    gateway,
    owner,
    once,
    jobs,
    outbox,
    tracker,
    records,
    slips,
    proposals,
    results,
    placement,
    approvals,
    accounts,
    callbackUrl,
    context,
  };
}

type Services = ReturnType<typeof buildServices>;

/** The webhook receiver: verified deliveries are stored once (dedupe in the store), then handed to the tracker. */
async function startWebhookReceiver(
  { config, deps, logger, now, stops, intake, metrics }: Start,
  s: Services,
): Promise<Receiver> {
  const { store, jobs, tracker } = s;
  const token = config.ops?.metricsToken?.reveal();
  const receiver = await startReceiver({
    port: config.webhook.port,
    ...((deps.webhookHost ?? config.webhook.host) ? { host: deps.webhookHost ?? config.webhook.host } : {}),
    maxBodyBytes: config.tunables.webhookMaxBodyBytes,
    toleranceMs: config.tunables.webhookToleranceMs,
    apiKey: config.gateway.apiKey?.reveal(),
    once: s.once,
    take: (body, raw) => tracker.take(body, raw),
    check: async (body) => shapeProblem((await jobs.get(body.correlation_id))?.kind, body),
    quarantine: (body, raw, reason) => quarantineDelivery(store, { body, raw, reason, now: now() }),
    onDelivery: (body: WebhookDelivery, meta) =>
      tracker.fromWebhook(body).then(() => s.context.fund.fromWebhook(body, meta?.query)),
    logger,
    now,
    ...(config.ops?.metrics ? { metrics: { text: () => metrics.registry.text(), ...(token ? { token } : {}) } } : {}),
    ready: readiness({
      store,
      discordReady: () => s.client.isReady(),
      gateway: s.gateway,
      draining: () => !intake.open,
    }),
  });
  stops.push(() => receiver.close());
  return receiver;
}

/** The reconciler, the closing-line capture and the settlement watcher (run by the leader, see startBeats). */
function backgroundWorkers(start: Start, s: Services) {
  const { config, logger, now, stops } = start;
  const { gateway, records, results, placement, callbackUrl } = s;
  const reconciler = new Reconciler({
    gateway,
    records,
    logger,
    now,
    safeWindowMs: config.tunables.reconcileWindowMs,
    intervalMs: config.tunables.reconcileIntervalMs,
    callbackUrl,
    show: (record) => results.show(record),
    resend: (record) => placement.resendPromo(record),
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
  const raceCloses = raceCloseCapture(start, s);
  stops.push(() => raceCloses.stop());

  const settlement = new SettlementWatcher({
    gateway,
    store: s.store,
    records,
    outbox: s.outbox,
    logger,
    now,
    intervalMs: config.tunables.settlementIntervalMs,
    callbackUrl,
    present: { settled: settlementView, missing: missingBetView },
  });
  stops.push(() => settlement.stop());
  return { reconciler, closing, raceCloses, settlement };
}

/** Each open multi's race read at one active session per book, its fair chance the multi's close (decision 2040). */
function raceCloseCapture({ config, logger, now }: Start, s: Services): RaceCloseCapture {
  const { gateway, records, callbackUrl } = s;
  return new RaceCloseCapture({
    openMultis: async () =>
      (await records.inStates(BET_STATES.placed)).flatMap((r) => {
        const m = r.payload.kind === 'multi' ? r.payload.multi : undefined;
        if (!m) return [];
        const race = { track: m.track, raceNum: m.raceNum, raceType: m.raceType, date: m.date };
        const legs = m.legs.map((l) => ({ runner: l.runner, position: l.position }));
        return [{ betId: r.placementId, race, legs, method: m.method }];
      }),
    readRace: async (race) => {
      const active = (await s.context.catalog.loadSessions()).filter((x) => x.active);
      const perBook = [...new Map(active.map((x) => [x.bookie, x] as const)).values()];
      if (perBook.length === 0) return [];
      return raceWinPrices(gateway, race, perBook, callbackUrl, config.tunables.priceCheckWaitMs);
    },
    recordClose: (placementId, odds, market, at) => records.recordClose(placementId, odds, market, at),
    now,
    logger,
  });
}

type Workers = ReturnType<typeof backgroundWorkers>;

/** The start's garbage collected once the client is ready and the start's work is done (ops/start-garbage.ts). */
function collectOnceReady({ logger, stops }: Start, client: Client): void {
  let stopped = false;
  stops.push(() => {
    stopped = true;
  });
  const collect = () => setImmediate(() => stopped || collectStartGarbage(logger)).unref();
  if (client.isReady()) collect();
  else client.once(Events.ClientReady, collect);
}

/** Routes interactions, registers the commands, warms the autocomplete caches, logs in. */
async function goOnline({ config, deps, logger, stops, intake }: Start, s: Services, token: Secret): Promise<void> {
  const commands: Map<string, Command> = await loadCommands();
  attachRouter(s.client, commands, COMPONENTS, COMPONENT_OWNERS, s.context, intake);
  if (deps.deployCommands ?? config.discord.guildId !== undefined) {
    await deployCommands({ config, commands: [...commands.values()] });
  }
  // Warm the caches autocomplete reads before the bot shows up as ready, so the first ask after start
  // (an event, a book) is answered from them; a slow gateway only delays login by a few seconds.
  let stopping = false;
  const warm = warmCaches(s.context).catch((err) => {
    if (!stopping && !(err instanceof StoreClosedError)) logger.warn('cache warm-up failed', { err });
  });
  stops.push(async () => {
    stopping = true;
    await Promise.race([warm, delay(WARM_UP_STOP_WAIT_MS, undefined, { ref: false })]);
  });
  await Promise.race([warm, delay(WARM_BEFORE_READY_MS, undefined, { ref: false })]);
  await s.client.login(token.reveal());
}

/**
 * What a stop (or crash) left half done: ledger entries staged and not chained, deliveries stored but not applied,
 * jobs to re-track and results to post, and records between states whose message the outbox has not recorded
 * (re-queued; the reconciler asks the gateway).
 */
async function resumeAfterStop({ config, logger, now }: Start, s: Services): Promise<void> {
  // Ledger entries a crash left staged (committed with their moves, not yet chained).
  await chainStaged(s.store);
  // Receipts a stop left in the journal (decision 2120) join the deliveries stored and not applied.
  await replayReceiptJournal(s.store, s.once, logger);
  await replayStoredDeliveries(s.store, (body) => s.tracker.fromWebhook(body), logger, now());
  // Proposals a crash left `placing` (after a lease, in case another process is placing them).
  await s.approvals.recoverPlacing(config.tunables.jobLeaseMs);
  const resumed = await s.tracker.resume();
  if (resumed.retracked + resumed.reposted > 0) logger.info('resumed jobs after restart', resumed);
  const touched = await s.records.inStates(['submitted', 'unknown', 'placed', 'refused', 'not_sent', 'not_placed']);
  const stages = [];
  for (const record of touched) {
    if (!record.messageId || now() - record.updatedAt >= 86_400_000) continue;
    const staged = betViews.record(record);
    if (staged) stages.push({ record, channelId: record.channelId, messageId: record.messageId, rank: staged.rank });
  }
  for (const { record } of await s.outbox.unrecorded(stages)) await s.results.show(record);
  await s.accounts.resume(touched).catch((err) => logger.warn('judging account health after restart failed', { err }));
}

/**
 * The timers: job takeover and the outbox in every process; settlements, reconciliation and closing capture in one
 * process at a time (a leader lease: another takes over when it stops or dies); the daily reconciliation,
 * proposal expiry and the expired-slip sweep.
 */
function startBeats(
  { config, logger, now, stops, metrics }: Start,
  s: Services,
  w: Workers,
  closeExpired: () => Promise<void>,
): void {
  const { store } = s;
  const { tunables } = config;
  stops.push(
    startJobTakeover({ store, tracker: s.tracker, owner: s.owner, leaseMs: tunables.jobLeaseMs, logger, now }),
  );
  s.outbox.start();
  const leases = { stops, logger, leases: store };
  whileLeader(leases, 'settlement', () => {
    logger.info('this process now watches settlements and reconciles bets');
    void w.reconciler.run().catch(() => undefined);
    const stopTimers = startTimers([
      { everyMs: tunables.settlementIntervalMs, run: () => w.settlement.tick() },
      { everyMs: tunables.reconcileIntervalMs, run: () => w.reconciler.run() },
      // The fund's scheduled strikes and withdrawals: one process at a time, so nothing is struck or sent twice.
      { everyMs: tunables.fundCheckMs, run: () => s.context.fund.tick(s.client.guilds.cache.keys()) },
    ]);
    w.closing.start();
    w.raceCloses.start();
    return () => {
      stopTimers();
      void w.closing.stop();
      void w.raceCloses.stop();
    };
  });
  // Watch reads and alerts: one process at a time on the store, so the watch budget is spent once per key.
  whileLeader(leases, 'watch', () => {
    s.context.watch.start();
    return () => void s.context.watch.stop();
  });
  // Once a day per server with a results channel: yesterday's ledger against every session's transactions.
  stops.every(RECONCILIATION_CHECK_MS, 'daily reconciliation', () =>
    reconcileYesterday({ ...s, guildIds: s.client.guilds.cache.keys(), now: now(), metrics }),
  );
  // Once a week per fund with a results channel: last week's report, once (the outbox key; decision 1922), looked
  // for at the fund's own beat (FUND_CHECK_SECONDS) when that is sooner, so it follows the week's turn within a minute.
  stops.every(Math.min(RECONCILIATION_CHECK_MS, config.tunables.fundCheckMs), 'weekly fund report', () =>
    postWeeklyFundReports(
      {
        ...s.context,
        outbox: s.outbox,
        settingsOf: (guildId) => getSettings(store, guildId),
        render: (report) => fundReportView(report, { chart: false }),
        minBets: DEFAULT_SKILL_MIN_BETS,
      },
      s.client.guilds.cache.keys(),
    ),
  );
  // Proposals expire and remind on their own short beat: one indexed query when nothing is due.
  stops.every(PROPOSAL_TICK_MS, 'proposal expiry', () => s.approvals.tick());
  stops.every(Math.min(60_000, tunables.slipExpiryMs), 'sweep', () => closeExpired().then(() => store.sweep(now())));
}
