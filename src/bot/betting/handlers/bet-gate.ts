import type { Catalog } from '../../catalog/index.js';
import type { BotConfig } from '../../config/config.js';
import { decodeCustomId } from '../../discord/custom-id.js';
import { dayIn } from '../../model/dates.js';
import { checkDailyRoom, checkStake, readStakeOption, type StakeLimits } from '../../model/slip-rules.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import { type GuildSettings, getSettings, mayBet, stakeLimits } from '../../settings/index.js';
import type { BotStore } from '../../store/index.js';
import { type BankSource, bankCentsFor } from '../bank.js';
import type { BetRecordRepo } from '../bet-records.js';
import { type ApprovalPolicy, approvalPolicy } from '../model/approval-policy.js';
import type { RiskCheck } from '../model/risk-check.js';
import { suggestedAtFair, suggestedFromCache } from '../slip-edge.js';
import type { SlipRepo } from '../slips.js';

/** Why a member may not bet, shown by every betting command: closed until an admin names a bet role. */
export const CLOSED_BY_DEFAULT =
  'Betting is closed on this server until an admin sets a bet role with /settings bet-role; until then only members with Manage Server can bet.';

/** What one interaction's gate read and decided, handed on so nothing after it reads the settings again. */
export interface Bettable {
  guildId: string;
  channelId: string;
  userId: string;
  settings: GuildSettings;
  limits: StakeLimits;
  policy: ApprovalPolicy;
  /** The bank (cents) the limits were worked out from; null when none is set. */
  bankCents: number | null;
}

/** The interaction as the gate reads it: where it came from, and who (with their roles and permissions). */
export interface BetAsker {
  guildId: string | null;
  channelId: string | null;
  user: { id: string };
  member: unknown;
  memberPermissions?: { has(bit: bigint): boolean } | null;
  /** The component's custom id: a slip's Confirm names the slip, whose bet the fund's risk limits check. */
  customId?: string;
}

/** The slip a Confirm button names, or undefined for any other interaction. */
function confirmedSlipId(asker: BetAsker): string | undefined {
  const id = asker.customId === undefined ? undefined : decodeCustomId(asker.customId);
  return id?.scope === 'slip' && id.action === 'confirm' ? id.args[0] : undefined;
}

/**
 * The fund's risk limits (decision 1921) at a slip's Confirm: the drawdown stop, the daily loss limit and the
 * per-event share of NAV, for a bet through the fund's accounts.
 */
async function checkRiskAtConfirm(
  ctx: GateCtx,
  asker: BetAsker,
  settings: GuildSettings,
  guildId: string,
): Promise<void> {
  const slipId = confirmedSlipId(asker);
  if (slipId === undefined || !ctx.riskAtConfirm || !ctx.slips) return;
  const slip = await ctx.slips.get(slipId);
  if (!slip) return;
  const p = slip.payload;
  const risk = await ctx.riskAtConfirm(guildId, settings.timezone, {
    bookie: p.bookie,
    account: p.account,
    sessionId: p.sessionId,
    epk: p.epk,
    eventName: p.eventName,
    stakeCents: p.stakeCents,
  });
  if (!risk.ok) throw new UserFacingError(risk.message);
}

/** What the gate reads: the settings and records, the bank, and at Confirm the slip and the fund's limits. */
export interface GateCtx {
  store: BotStore;
  records: BetRecordRepo;
  config: BotConfig;
  now: () => number;
  bank?: BankSource;
  riskAtConfirm?: RiskAtConfirm;
  slips?: SlipRepo;
}

/**
 * The fund's risk limits as the gate asks them at a slip's Confirm (the fund wing answers; the composition hands
 * it in, so the bet wing never reaches into the fund's insides).
 */
export type RiskAtConfirm = RiskCheck;

/**
 * The one gate of an interaction that starts or confirms a bet: reads the guild's settings once and answers
 * every refusal it can know before a price check, in the order a member should hear them: a server channel,
 * the bet role (closed by default: with no role set only members with Manage Server may bet; with one, its
 * members and Manage Server), at a slip's Confirm the fund's risk limits, then, when a stake is given, the per-bet
 * limits and today's room.
 */
export async function checkBettable(ctx: GateCtx, asker: BetAsker, stakeCents?: number): Promise<Bettable> {
  const { guildId, channelId } = asker;
  if (guildId === null) throw new UserFacingError('Bets can only be made in a server channel.');
  const settings = await getSettings(ctx.store, guildId);
  if (!mayBet(asker, settings)) {
    throw new UserFacingError(
      settings.betRoleId
        ? `Betting here needs the <@&${settings.betRoleId}> role. Ask a server admin.`
        : CLOSED_BY_DEFAULT,
    );
  }
  if (!channelId) throw new UserFacingError('Bets can only be made in a server channel.');
  const bankCents = await bankCentsFor(ctx.bank, guildId, undefined, settings);
  const limits = stakeLimits(settings, ctx.config.tunables, bankCents);
  const policy = approvalPolicy(settings);
  const gate = { guildId, channelId, userId: asker.user.id, settings, limits, policy, bankCents };
  await checkRiskAtConfirm(ctx, asker, settings, guildId);
  if (stakeCents === undefined) return gate;
  const perBet = checkStake(stakeCents, limits);
  if (!perBet.ok) throw new UserFacingError(perBet.message);
  const day = dayIn(ctx.now(), settings.timezone);
  const used = await ctx.records.usedCents(guildId, asker.user.id, day);
  const room = checkDailyRoom(stakeCents, used, limits.perDayCents, limits.shares?.perDay);
  if (!room.ok) throw new UserFacingError(room.message);
  return gate;
}

/**
 * The stake of a command's number option (dollars) in whole cents, read once here. One it cannot read is refused
 * after the gate's own refusals (server channel, bet role), in the order a member hears them.
 */
export async function stakeOptionCents(ctx: GateCtx, asker: BetAsker, dollars: number): Promise<number> {
  const read = readStakeOption(dollars);
  if (read.ok) return read.cents;
  await checkBettable(ctx, asker);
  throw new UserFacingError(read.message);
}

/**
 * The suggested stake a stake form offers for a selection, from what the gate read and cached cards (no reads); or,
 * given `fairProbability` (what an alert showed), sized from that price so the form agrees with what was shown.
 */
export function suggestedStakeFor(
  ctx: { catalog: Catalog },
  gate: Bettable,
  q: { epk: string; bookie: string; marketRef: string; odds?: number; fairProbability?: number },
): Promise<number | undefined> {
  const { settings, bankCents } = gate;
  const capCents = gate.limits.perBetCents;
  if (q.fairProbability !== undefined && q.odds !== undefined) {
    const cents = suggestedAtFair({ probability: q.fairProbability, odds: q.odds, settings, bankCents, capCents });
    return Promise.resolve(cents);
  }
  return suggestedFromCache(ctx.catalog, { ...q, settings, bankCents, capCents }).catch(() => undefined);
}
