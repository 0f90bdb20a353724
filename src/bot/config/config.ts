import { hostname } from 'node:os';
import { z } from 'zod';
import { centsFromDollars } from '../model/money.js';
import { Secret } from './secret.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface BotTunables {
  /** How long a bet slip can be confirmed after it was shown. */
  slipExpiryMs: number;
  /** A live price below the shown one by more than this fraction (0.02 = 2 %) refuses the slip. */
  priceTolerance: number;
  /** Defaults until a server admin sets its own limits with /settings, in cents (the variables are dollars). */
  defaultMaxStakePerBetCents: number;
  defaultMaxStakePerDayCents: number;
  /** A webhook whose delivered_at is further than this from now is refused as stale. */
  webhookToleranceMs: number;
  webhookMaxBodyBytes: number;
  /** How often the settlement watcher reads transactions of sessions with open bets. */
  settlementIntervalMs: number;
  /** A pending job whose process stopped renewing it for this long is taken over by another process. */
  jobLeaseMs: number;
  /** A Discord write a process took from the outbox and did not finish in this long is sent again by another pass. */
  outboxLeaseMs: number;
  /** How long a price check (a slip's, /compare's, /price racing's) may take before the member is told so. */
  priceCheckWaitMs: number;
  /** After this long from a send with no evidence at the gateway, a bet is not placed (stake released). */
  reconcileWindowMs: number;
  reconcileIntervalMs: number;
  /** How often the fund checks for a due strike and follows its cash-outs' withdrawals. */
  fundCheckMs: number;
  /** The most of any card-limit window the closing capture may use (0.25 = a quarter); members always go first. */
  captureShare: number;
  /** How often the watch scheduler looks for due cards (WATCH_TICK_SECONDS). */
  watchTickMs: number;
  /** A watched card is read again after this while its book's re-scrape cadence is unknown (WATCH_FALLBACK_SECONDS). */
  watchFallbackMs: number;
}

/** Discord sharding: how many shards the bot has in all, and which of them this process (or manager) runs. */
export interface ShardingConfig {
  /** Total shards; 'auto' asks Discord (/gateway/bot). 1 = no sharding. */
  count: number | 'auto';
  /** Shard ids run here; undefined = all of them. */
  ids: number[] | undefined;
}

export interface BotConfig {
  gateway: { baseUrl: string | undefined; apiKey: Secret | undefined };
  discord: {
    token: Secret | undefined;
    appId: string | undefined;
    guildId: string | undefined;
    apiUrl: string | undefined;
  };
  /** host: the address the receiver binds (WEBHOOK_HOST; absent: 127.0.0.1). */
  webhook: { port: number; publicUrl: string | undefined; host?: string };
  /** sqlite://path (one process) or postgres://user:pass@host:port/db (several processes share it). */
  storeUrl: string;
  sharding: ShardingConfig;
  /** Owner of this process's job leases; stable across restarts so a restart resumes its jobs at once. */
  processId?: string;
  logLevel: LogLevel;
  tunables: BotTunables;
  /** What operators run the desk by (docs/operations.md); absent: metrics off, a 20 s drain. */
  ops?: OpsConfig;
}

export interface OpsConfig {
  /** GET /metrics on the receiver's port: on when METRICS=on or a METRICS_TOKEN is set. */
  metrics: boolean;
  /** When set, /metrics answers only a request with `Authorization: Bearer <token>`. */
  metricsToken: Secret | undefined;
  /** How long a SIGTERM drain may finish confirms and flush the outbox before the process exits anyway. */
  drainGraceMs: number;
  /**
   * The nice value npm start's process runs its helper threads at (libuv's pool, V8's), below its event loop
   * (decision 2145); 0 leaves them at the loop's. Absent: 0.
   */
  helperThreadsNice?: number;
}

/** The nice value of npm start's helper threads when HELPER_THREADS_NICE is not set (decision 2145). */
export const DEFAULT_HELPER_THREADS_NICE = 10;
/** The drain's grace period when none is configured. */
export const DEFAULT_DRAIN_GRACE_MS = 20_000;
/** How long a price check may take before the member is told to try again (PRICE_CHECK_WAIT_SECONDS). */
export const DEFAULT_PRICE_CHECK_WAIT_MS = 20_000;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankToUndefined, z.string().trim().min(1).optional());
const optionalUrl = z.preprocess(
  blankToUndefined,
  z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. http://127.0.0.1:8787' }).optional(),
);
const snowflake = z.preprocess(
  blankToUndefined,
  z
    .string()
    .regex(/^\d{5,25}$/, { error: 'must be a Discord id (digits only); copy it with Developer Mode on' })
    .optional(),
);
const intIn = (min: number, max: number, fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: `must be a whole number from ${min} to ${max}` })
      .int({ error: `must be a whole number from ${min} to ${max}` })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );
const numberIn = (min: number, max: number, fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: `must be a number from ${min} to ${max}` })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );

const EnvSchema = z.object({
  GATEWAY_BASE_URL: optionalUrl,
  GATEWAY_API_KEY: optionalText,
  DISCORD_TOKEN: optionalText,
  DISCORD_APP_ID: snowflake,
  DISCORD_GUILD_ID: snowflake,
  DISCORD_API_URL: optionalUrl,
  WEBHOOK_PORT: intIn(0, 65535, 8790),
  // The address the receiver (webhooks, probes, metrics) binds: loopback unless a proxy, a probe or a container's
  // port mapping must reach it from outside the machine.
  WEBHOOK_HOST: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z.:[\]-]+$/, { error: 'must be an address to listen on, e.g. 127.0.0.1 or 0.0.0.0' })
      .optional(),
  ),
  WEBHOOK_PUBLIC_URL: optionalUrl,
  STORE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^(sqlite:\/\/.+|postgres(ql)?:\/\/[^/]+\/[^/?]+)/, {
        error:
          'must look like sqlite://path/to/file.sqlite (one process) or postgres://user:password@host:5432/database (several processes)',
      })
      .default('sqlite://data/bot.sqlite'),
  ),
  SHARD_COUNT: z.preprocess(
    blankToUndefined,
    z
      .union([z.literal('auto'), z.coerce.number().int().min(1).max(1024)], {
        error: "must be 'auto' or a whole number from 1 to 1024 (total Discord shards)",
      })
      .default(1),
  ),
  // discord.js's ShardingManager passes SHARDS to each shard process as one id; people write lists.
  SHARDS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^\[?\s*\d+(\s*,\s*\d+)*\s*\]?$/, { error: 'must list shard ids, e.g. 0 or 0,1 (each below SHARD_COUNT)' })
      .transform((v) =>
        v
          .replace(/[[\]\s]/g, '')
          .split(',')
          .map(Number),
      )
      .optional(),
  ),
  JOB_LEASE_SECONDS: intIn(2, 3600, 60),
  OUTBOX_LEASE_SECONDS: intIn(5, 3600, 30),
  PRICE_CHECK_WAIT_SECONDS: intIn(2, 300, DEFAULT_PRICE_CHECK_WAIT_MS / 1000),
  BOT_PROCESS_ID: z.preprocess(
    blankToUndefined,
    z.string().trim().max(200, { error: 'must be at most 200 characters, e.g. desk-1' }).optional(),
  ),
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(['debug', 'info', 'warn', 'error'], { error: 'must be one of debug, info, warn, error' }).default('info'),
  ),
  SLIP_EXPIRY_SECONDS: intIn(10, 3600, 120),
  PRICE_TOLERANCE_PERCENT: numberIn(0, 50, 2),
  DEFAULT_MAX_STAKE_PER_BET: numberIn(1, 1_000_000, 100),
  DEFAULT_MAX_STAKE_PER_DAY: numberIn(1, 10_000_000, 500),
  WEBHOOK_TOLERANCE_SECONDS: intIn(10, 86_400, 300),
  WEBHOOK_MAX_BODY_BYTES: intIn(1024, 10_485_760, 262_144),
  SETTLEMENT_INTERVAL_SECONDS: intIn(1, 86_400, 60),
  RECONCILE_WINDOW_SECONDS: intIn(1, 86_400, 600),
  // The spec: an async job's timeout_at is about 5 minutes after it was submitted; until then it may still run.
  GATEWAY_JOB_DEADLINE_SECONDS: intIn(1, 3_600, 300),
  RECONCILE_INTERVAL_SECONDS: intIn(1, 86_400, 30),
  FUND_CHECK_SECONDS: intIn(1, 3_600, 60),
  CAPTURE_SHARE_PERCENT: numberIn(1, 90, 25),
  WATCH_TICK_SECONDS: numberIn(0.05, 60, 2),
  WATCH_FALLBACK_SECONDS: numberIn(1, 3600, 60),
  METRICS: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
  ),
  METRICS_TOKEN: optionalText,
  DRAIN_GRACE_SECONDS: intIn(0, 600, DEFAULT_DRAIN_GRACE_MS / 1000),
  HELPER_THREADS_NICE: intIn(0, 19, DEFAULT_HELPER_THREADS_NICE),
});

/** Parses the environment once; a bad value throws a ConfigError naming each variable and what to put there. */
export function parseConfig(env: Record<string, string | undefined> = process.env): BotConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      return `- ${name} ${issue.message} (see .env.example)`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.SHARDS && e.SHARD_COUNT === 'auto') {
    throw new ConfigError(
      'Invalid configuration:\n- SHARDS needs SHARD_COUNT set to the total number of shards, not auto',
    );
  }
  if (e.SHARDS && typeof e.SHARD_COUNT === 'number' && e.SHARDS.some((id) => id >= (e.SHARD_COUNT as number))) {
    throw new ConfigError(
      `Invalid configuration:\n- SHARDS must only list ids below SHARD_COUNT (${e.SHARD_COUNT}): shard ids run from 0 to ${e.SHARD_COUNT - 1}`,
    );
  }
  // A bet or withdrawal whose answer was lost is judged never made after RECONCILE_WINDOW_SECONDS; a job the gateway
  // still runs could complete after that and be sent again, so the window never ends before the job's deadline.
  if (e.RECONCILE_WINDOW_SECONDS < e.GATEWAY_JOB_DEADLINE_SECONDS) {
    throw new ConfigError(
      `Invalid configuration:\n- RECONCILE_WINDOW_SECONDS (${e.RECONCILE_WINDOW_SECONDS}) must be at least GATEWAY_JOB_DEADLINE_SECONDS (${e.GATEWAY_JOB_DEADLINE_SECONDS}): a bet or withdrawal whose answer was lost may still complete until its job's deadline, and judging it never made sooner could send it twice`,
    );
  }
  if (e.DEFAULT_MAX_STAKE_PER_BET > e.DEFAULT_MAX_STAKE_PER_DAY) {
    throw new ConfigError(
      'Invalid configuration:\n- DEFAULT_MAX_STAKE_PER_BET must not exceed DEFAULT_MAX_STAKE_PER_DAY (lower the first or raise the second)',
    );
  }
  return {
    gateway: {
      baseUrl: e.GATEWAY_BASE_URL?.replace(/\/+$/, ''),
      apiKey: e.GATEWAY_API_KEY === undefined ? undefined : new Secret(e.GATEWAY_API_KEY),
    },
    discord: {
      token: e.DISCORD_TOKEN === undefined ? undefined : new Secret(e.DISCORD_TOKEN),
      appId: e.DISCORD_APP_ID,
      guildId: e.DISCORD_GUILD_ID,
      apiUrl: e.DISCORD_API_URL?.replace(/\/+$/, ''),
    },
    webhook: {
      port: e.WEBHOOK_PORT,
      publicUrl: e.WEBHOOK_PUBLIC_URL?.replace(/\/+$/, ''),
      ...(e.WEBHOOK_HOST ? { host: e.WEBHOOK_HOST.replace(/^\[(.*)\]$/, '$1') } : {}),
    },
    storeUrl: e.STORE_URL,
    sharding: {
      count: e.SHARD_COUNT,
      ids: e.SHARDS === undefined ? undefined : [...new Set(e.SHARDS)].sort((a, b) => a - b),
    },
    processId: e.BOT_PROCESS_ID ?? hostname(),
    logLevel: e.LOG_LEVEL,
    tunables: {
      slipExpiryMs: e.SLIP_EXPIRY_SECONDS * 1000,
      priceTolerance: e.PRICE_TOLERANCE_PERCENT / 100,
      defaultMaxStakePerBetCents: centsFromDollars(e.DEFAULT_MAX_STAKE_PER_BET),
      defaultMaxStakePerDayCents: centsFromDollars(e.DEFAULT_MAX_STAKE_PER_DAY),
      webhookToleranceMs: e.WEBHOOK_TOLERANCE_SECONDS * 1000,
      webhookMaxBodyBytes: e.WEBHOOK_MAX_BODY_BYTES,
      settlementIntervalMs: e.SETTLEMENT_INTERVAL_SECONDS * 1000,
      jobLeaseMs: e.JOB_LEASE_SECONDS * 1000,
      outboxLeaseMs: e.OUTBOX_LEASE_SECONDS * 1000,
      priceCheckWaitMs: e.PRICE_CHECK_WAIT_SECONDS * 1000,
      reconcileWindowMs: e.RECONCILE_WINDOW_SECONDS * 1000,
      reconcileIntervalMs: e.RECONCILE_INTERVAL_SECONDS * 1000,
      fundCheckMs: e.FUND_CHECK_SECONDS * 1000,
      captureShare: e.CAPTURE_SHARE_PERCENT / 100,
      watchTickMs: Math.round(e.WATCH_TICK_SECONDS * 1000),
      watchFallbackMs: Math.round(e.WATCH_FALLBACK_SECONDS * 1000),
    },
    ops: opsOf(e),
  };
}

function opsOf(e: z.infer<typeof EnvSchema>): OpsConfig {
  return {
    metrics: e.METRICS === 'on' || e.METRICS_TOKEN !== undefined,
    metricsToken: e.METRICS_TOKEN === undefined ? undefined : new Secret(e.METRICS_TOKEN),
    drainGraceMs: e.DRAIN_GRACE_SECONDS * 1000,
    helperThreadsNice: e.HELPER_THREADS_NICE,
  };
}

/** The webhook URL sent as callback_url, or undefined when results are polled only. */
export function callbackUrlOf(config: BotConfig): string | undefined {
  return config.webhook.publicUrl === undefined ? undefined : `${config.webhook.publicUrl}/webhooks/gateway`;
}
