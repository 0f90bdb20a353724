import { z } from 'zod';
import type { BotTunables } from '../config/config.js';
import type { BotStore } from '../store/index.js';
import type { ExposureCaps } from './bet-records.js';

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
  /** The fund (docs/fund.md): who may act as treasurer besides admins, dealing days, the cash-out approval tier,
   *  the performance fee (percent of gain above the high-water mark; 0: off) and the opening unit price. */
  fundTreasurerRoleId: z.string().optional(),
  fundSchedule: z.string().optional(),
  fundCashoutTier: z.number().nonnegative().optional(),
  fundFeePercent: z.number().min(0).max(50).optional(),
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

export function stakeLimits(s: GuildSettings, t: BotTunables) {
  return { perBet: s.maxStakePerBet ?? t.defaultMaxStakePerBet, perDay: s.maxStakePerDay ?? t.defaultMaxStakePerDay };
}

export function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const cents = (dollars: number | undefined) => (dollars === undefined ? undefined : Math.round(dollars * 100));

/** The server's exposure caps in whole cents (absent: not capped). */
export function exposureCaps(s: GuildSettings): ExposureCaps {
  const caps: ExposureCaps = {};
  const set = (k: keyof ExposureCaps, v: number | undefined) => {
    if (v !== undefined) caps[k] = v;
  };
  set('perEventCents', cents(s.maxPerEvent));
  set('perMarketCents', cents(s.maxPerMarket));
  set('perSessionDayCents', cents(s.maxPerSessionDay));
  set('perSyndicateDayCents', cents(s.maxPerSyndicateDay));
  return caps;
}
