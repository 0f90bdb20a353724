import { z } from 'zod';
import type { BotTunables } from '../config/config.js';
import { lowerOf, type ShareCap } from '../model/bank-caps.js';
import type { CapName, ExposureCaps } from '../model/bet-states.js';
import { centsFromDollars } from '../model/money.js';
import type { StakeLimits } from '../model/slip-rules.js';
import type { BotStore } from '../store/index.js';

/** The stored shape: 2 keeps money in whole cents (decision 1931); a record without it holds dollars. */
const SETTINGS_VERSION = 2;
const cents = () => z.number().int();

const GuildSettingsSchema = z.object({
  /** Written on every save; absent only on a record stored before decision 1931 (money in dollars). */
  version: z.literal(SETTINGS_VERSION).optional(),
  timezone: z.string().default('UTC'),
  resultsChannelId: z.string().optional(),
  betRoleId: z.string().optional(),
  maxStakePerBetCents: cents().positive().optional(),
  maxStakePerDayCents: cents().positive().optional(),
  /** Exposure caps in cents across every member and account (none by default). */
  maxPerEventCents: cents().positive().optional(),
  maxPerMarketCents: cents().positive().optional(),
  maxPerSessionDayCents: cents().positive().optional(),
  maxPerSyndicateDayCents: cents().positive().optional(),
  /** Racing: open stake on one runner of a race, its singles and every multi leg naming it (decision 2011). */
  maxPerRunnerCents: cents().positive().optional(),
  /** Approval tiers in cents: up to t1 none, up to t2 one approver, above t2 two (defaults in approval-policy). */
  approvalT1Cents: cents().nonnegative().optional(),
  approvalT2Cents: cents().nonnegative().optional(),
  /** Who may approve; none set: members with Manage Server. */
  approverRoleId: z.string().optional(),
  approvalMinutes: z.number().positive().optional(),
  /** The same limits as a share of the bank, in percent (the lower of dollars and share binds; see capsFor). */
  maxStakePerBetPct: z.number().positive().max(100).optional(),
  maxStakePerDayPct: z.number().positive().max(100).optional(),
  maxPerEventPct: z.number().positive().max(100).optional(),
  maxPerMarketPct: z.number().positive().max(100).optional(),
  /** The bank an admin set, in cents, and when (epoch ms): sizes stakes and share caps where no fund is open. */
  bankCents: cents().positive().optional(),
  bankSetAt: z.number().optional(),
  /** Share of full Kelly suggested (default ¼), the stake unit in cents (default $1), the margin method. */
  kellyFraction: z.number().positive().max(1).optional(),
  stakeUnitCents: cents().positive().optional(),
  marginMethod: z.enum(['multiplicative', 'power', 'shin']).optional(),
  /** The fund (docs/fund.md): who may act as treasurer besides admins, dealing days, the cash-out approval tier,
   *  the performance fee (percent of gain above the high-water mark; 0: off) and the opening unit price. */
  fundTreasurerRoleId: z.string().optional(),
  fundSchedule: z.string().optional(),
  fundCashoutTierCents: cents().nonnegative().optional(),
  /** The smallest cash-out in cents (asking for everything is always allowed). */
  fundMinCashoutCents: cents().nonnegative().optional(),
  fundFeePercent: z.number().min(0).max(50).optional(),
  /** How often the accrued fee crystallises (default month) and who it is then owed to (decision 1704). */
  fundFeePeriod: z.enum(['month', 'quarter', 'year']).optional(),
  fundFeeManagerId: z.string().optional(),
  /** The tipster share: percent of each tipster's attributed profit above their own mark; 0 or absent: off (1923). */
  fundSharePercent: z.number().min(0).max(50).optional(),
  fundOpeningPriceCents: cents().positive().optional(),
  /** bookie → session id chosen by an admin; otherwise the first active session of that bookie. */
  sessions: z.record(z.string(), z.string()).default({}),
});

/** The money fields a record stored before version 2 held in dollars, and their names in cents. */
const DOLLAR_FIELDS = {
  maxStakePerBet: 'maxStakePerBetCents',
  maxStakePerDay: 'maxStakePerDayCents',
  maxPerEvent: 'maxPerEventCents',
  maxPerMarket: 'maxPerMarketCents',
  maxPerSessionDay: 'maxPerSessionDayCents',
  maxPerSyndicateDay: 'maxPerSyndicateDayCents',
  approvalT1: 'approvalT1Cents',
  approvalT2: 'approvalT2Cents',
  bank: 'bankCents',
  stakeUnit: 'stakeUnitCents',
  fundCashoutTier: 'fundCashoutTierCents',
  fundMinCashout: 'fundMinCashoutCents',
  fundOpeningPrice: 'fundOpeningPriceCents',
} as const;

/**
 * A stored record in the current shape: one without a version holds its money in dollars (the shape before
 * decision 1931), converted here to whole cents; the next save writes it back as version 2.
 */
export function settingsFromStored(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || (raw as { version?: unknown }).version === SETTINGS_VERSION) {
    return raw;
  }
  const record: Record<string, unknown> = { ...raw, version: SETTINGS_VERSION };
  for (const [dollars, inCents] of Object.entries(DOLLAR_FIELDS)) {
    const value = record[dollars];
    delete record[dollars];
    if (typeof value === 'number' && Number.isFinite(value)) record[inCents] = centsFromDollars(value);
  }
  return record;
}

export type GuildSettings = z.infer<typeof GuildSettingsSchema>;

const key = (guildId: string) => `guild:${guildId}`;

export async function getSettings(store: BotStore, guildId: string | null): Promise<GuildSettings> {
  const raw = guildId === null ? undefined : await store.kv.get(key(guildId));
  const parsed = GuildSettingsSchema.safeParse(settingsFromStored(raw ?? {}));
  return parsed.success ? parsed.data : GuildSettingsSchema.parse({});
}

/** Read-modify-write under the guild's lock: two admins saving at once do not lose either change. */
export async function updateSettings(
  store: BotStore,
  guildId: string,
  change: (s: GuildSettings) => GuildSettings,
): Promise<GuildSettings> {
  return store.withLock(key(guildId), async () => {
    const next = GuildSettingsSchema.parse({ ...change(await getSettings(store, guildId)), version: SETTINGS_VERSION });
    await store.kv.set(key(guildId), next);
    return next;
  });
}

/**
 * Per-bet and per-day limits in cents. With a bank (cents) and a share set, the lower of the dollar limit and the
 * share binds; `shares` says which share bound, for the refusal that names both (model/bank-caps.ts).
 */
export function stakeLimits(s: GuildSettings, t: BotTunables, bankCents?: number | null): StakeLimits {
  const perBet = lowerOf(s.maxStakePerBetCents ?? t.defaultMaxStakePerBetCents, s.maxStakePerBetPct, bankCents);
  const perDay = lowerOf(s.maxStakePerDayCents ?? t.defaultMaxStakePerDayCents, s.maxStakePerDayPct, bankCents);
  return {
    perBetCents: perBet.cents,
    perDayCents: perDay.cents,
    ...(perBet.share || perDay.share
      ? {
          shares: {
            ...(perBet.share ? { perBet: perBet.share } : {}),
            ...(perDay.share ? { perDay: perDay.share } : {}),
          },
        }
      : {}),
  };
}

export function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The server's exposure caps in whole cents (absent: not capped); with a bank, share caps bind when lower. */
export function exposureCaps(s: GuildSettings, bankCents?: number | null): ExposureCaps {
  const caps: ExposureCaps = {};
  const set = (k: keyof ExposureCaps, v: number | undefined) => {
    if (v !== undefined) caps[k] = v;
  };
  set('perEventCents', lowerOf(s.maxPerEventCents, s.maxPerEventPct, bankCents)?.cents);
  set('perMarketCents', lowerOf(s.maxPerMarketCents, s.maxPerMarketPct, bankCents)?.cents);
  set('perSessionDayCents', s.maxPerSessionDayCents);
  set('perSyndicateDayCents', s.maxPerSyndicateDayCents);
  set('perRunnerCents', s.maxPerRunnerCents);
  return caps;
}

/** The share of the bank behind a cap a claim hit, when the share (not the dollar cap) bound: for the refusal. */
export function bindingShare(
  s: GuildSettings,
  t: BotTunables,
  bankCents: number | null | undefined,
  cap: CapName,
): ShareCap | undefined {
  if (cap === 'member_day') return stakeLimits(s, t, bankCents).shares?.perDay;
  if (cap === 'event') return lowerOf(s.maxPerEventCents, s.maxPerEventPct, bankCents)?.share;
  if (cap === 'market') return lowerOf(s.maxPerMarketCents, s.maxPerMarketPct, bankCents)?.share;
  return undefined;
}
