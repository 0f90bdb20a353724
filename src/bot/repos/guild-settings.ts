import { z } from 'zod';
import type { BotTunables } from '../config/config.js';
import { lowerOf, type ShareCap } from '../model/bank-caps.js';
import { centsFromDollars } from '../model/money.js';
import type { StakeLimits } from '../model/slip-rules.js';
import type { BotStore } from '../store/index.js';
import type { CapName, ExposureCaps } from './bet-records.js';

const GuildSettingsSchema = z.object({
  timezone: z.string().default('UTC'),
  resultsChannelId: z.string().optional(),
  betRoleId: z.string().optional(),
  maxStakePerBet: z.number().positive().optional(),
  maxStakePerDay: z.number().positive().optional(),
  /** Exposure caps in dollars across every member and account (none by default). */
  maxPerEvent: z.number().positive().optional(),
  maxPerMarket: z.number().positive().optional(),
  maxPerSessionDay: z.number().positive().optional(),
  maxPerSyndicateDay: z.number().positive().optional(),
  /** Approval tiers in dollars: up to t1 none, up to t2 one approver, above t2 two (defaults below). */
  approvalT1: z.number().nonnegative().optional(),
  approvalT2: z.number().nonnegative().optional(),
  /** Who may approve; none set: members with Manage Server. */
  approverRoleId: z.string().optional(),
  approvalMinutes: z.number().positive().optional(),
  /** The same limits as a share of the bank, in percent (the lower of dollars and share binds; see capsFor). */
  maxStakePerBetPct: z.number().positive().max(100).optional(),
  maxStakePerDayPct: z.number().positive().max(100).optional(),
  maxPerEventPct: z.number().positive().max(100).optional(),
  maxPerMarketPct: z.number().positive().max(100).optional(),
  /** The bank an admin set, in dollars, and when (epoch ms): sizes stakes and share caps where no fund is open. */
  bank: z.number().positive().optional(),
  bankSetAt: z.number().optional(),
  /** Share of full Kelly suggested (default ¼), the stake unit in dollars (default $1), the margin method. */
  kellyFraction: z.number().positive().max(1).optional(),
  stakeUnit: z.number().positive().optional(),
  marginMethod: z.enum(['multiplicative', 'power', 'shin']).optional(),
  /** The fund (docs/fund.md): who may act as treasurer besides admins, dealing days, the cash-out approval tier,
   *  the performance fee (percent of gain above the high-water mark; 0: off) and the opening unit price. */
  fundTreasurerRoleId: z.string().optional(),
  fundSchedule: z.string().optional(),
  fundCashoutTier: z.number().nonnegative().optional(),
  /** The smallest cash-out in dollars (asking for everything is always allowed). */
  fundMinCashout: z.number().nonnegative().optional(),
  fundFeePercent: z.number().min(0).max(50).optional(),
  /** How often the accrued fee crystallises (default month) and who it is then owed to (decision 1704). */
  fundFeePeriod: z.enum(['month', 'quarter', 'year']).optional(),
  fundFeeManagerId: z.string().optional(),
  fundOpeningPrice: z.number().positive().optional(),
  /** bookie → session id chosen by an admin; otherwise the first active session of that bookie. */
  sessions: z.record(z.string(), z.string()).default({}),
});

export type GuildSettings = z.infer<typeof GuildSettingsSchema>;

const key = (guildId: string) => `guild:${guildId}`;

export async function getSettings(store: BotStore, guildId: string | null): Promise<GuildSettings> {
  const raw = guildId === null ? undefined : await store.kv.get(key(guildId));
  const parsed = GuildSettingsSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : GuildSettingsSchema.parse({});
}

/** Read-modify-write under the guild's lock: two admins saving at once do not lose either change. */
export async function updateSettings(
  store: BotStore,
  guildId: string,
  change: (s: GuildSettings) => GuildSettings,
): Promise<GuildSettings> {
  return store.withLock(key(guildId), async () => {
    const next = GuildSettingsSchema.parse(change(await getSettings(store, guildId)));
    await store.kv.set(key(guildId), next);
    return next;
  });
}

/**
 * Per-bet and per-day limits in dollars. With a bank (cents) and a share set, the lower of the dollar limit and the
 * share binds; `shares` says which share bound, for the refusal that names both (model/bank-caps.ts).
 */
export function stakeLimits(s: GuildSettings, t: BotTunables, bankCents?: number | null): StakeLimits {
  const perBet = lowerOf(s.maxStakePerBet ?? t.defaultMaxStakePerBet, s.maxStakePerBetPct, bankCents);
  const perDay = lowerOf(s.maxStakePerDay ?? t.defaultMaxStakePerDay, s.maxStakePerDayPct, bankCents);
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

const cents = (dollars: number | undefined) => (dollars === undefined ? undefined : centsFromDollars(dollars));

/** The server's exposure caps in whole cents (absent: not capped); with a bank, share caps bind when lower. */
export function exposureCaps(s: GuildSettings, bankCents?: number | null): ExposureCaps {
  const caps: ExposureCaps = {};
  const set = (k: keyof ExposureCaps, v: number | undefined) => {
    if (v !== undefined) caps[k] = v;
  };
  set('perEventCents', lowerOf(s.maxPerEvent, s.maxPerEventPct, bankCents)?.cents);
  set('perMarketCents', lowerOf(s.maxPerMarket, s.maxPerMarketPct, bankCents)?.cents);
  set('perSessionDayCents', cents(s.maxPerSessionDay));
  set('perSyndicateDayCents', cents(s.maxPerSyndicateDay));
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
  if (cap === 'event') return lowerOf(s.maxPerEvent, s.maxPerEventPct, bankCents)?.share;
  if (cap === 'market') return lowerOf(s.maxPerMarket, s.maxPerMarketPct, bankCents)?.share;
  return undefined;
}
