import { type BankSource, bankCentsFor } from '../betting/bank.js';
import { suggestedFromCache } from '../betting/slip-edge.js';
import type { BotContext } from '../context.js';
import { mayBet } from '../discord/permissions.js';
import { type ApprovalPolicy, approvalPolicy } from '../model/approval-policy.js';
import { dayIn } from '../model/dates.js';
import { checkDailyRoom, checkStake, type StakeLimits } from '../model/slip-rules.js';
import { UserFacingError } from '../model/user-facing-error.js';
import { type GuildSettings, getSettings, stakeLimits } from '../repos/guild-settings.js';

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
}

/**
 * The one gate of an interaction that starts or confirms a bet: reads the guild's settings once and answers
 * every refusal it can know before a price check, in the order a member should hear them: a server channel,
 * the bet role (closed by default: with no role set only members with Manage Server may bet; with one, its
 * members and Manage Server), then, when a stake is given, the per-bet limits and today's room.
 */
export async function checkBettable(
  ctx: Pick<BotContext, 'store' | 'records' | 'config' | 'now'> & { bank?: BankSource },
  asker: BetAsker,
  stake?: number,
): Promise<Bettable> {
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
  const bankCents = await bankCentsFor(ctx.bank, guildId);
  const limits = stakeLimits(settings, ctx.config.tunables, bankCents);
  const policy = approvalPolicy(settings);
  const gate = { guildId, channelId, userId: asker.user.id, settings, limits, policy, bankCents };
  if (stake === undefined) return gate;
  const perBet = checkStake(stake, limits);
  if (!perBet.ok) throw new UserFacingError(perBet.message);
  const day = dayIn(ctx.now(), settings.timezone);
  const used = (await ctx.records.usedCents(guildId, asker.user.id, day)) / 100;
  const room = checkDailyRoom(stake, used, limits.perDay, limits.shares?.perDay);
  if (!room.ok) throw new UserFacingError(room.message);
  return gate;
}

/** The suggested stake a stake form offers for a selection, from what the gate read and cached cards (no reads). */
export function suggestedStakeFor(
  ctx: Pick<BotContext, 'catalog'>,
  gate: Bettable,
  q: { epk: string; bookie: string; marketRef: string; odds?: number },
): Promise<number | undefined> {
  const { settings, bankCents } = gate;
  const capCents = Math.round(gate.limits.perBet * 100);
  return suggestedFromCache(ctx.catalog, { ...q, settings, bankCents, capCents }).catch(() => undefined);
}
