import {
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
  PermissionFlagsBits,
} from 'discord.js';
import type { SlipRequest } from '../betting/bet-service.js';
import type { SlipLifetime } from '../betting/slip-kinds.js';
import type { BotContext } from '../context.js';
import { UserFacingError } from '../discord/user-errors.js';
import { approvalPolicy, approvalsNeeded } from '../model/approval-policy.js';
import { dayIn } from '../model/dates.js';
import { checkDailyRoom, checkStake, type SlipPayload } from '../model/slip-rules.js';
import { BetRecordRepo } from '../repos/bet-records.js';
import { getSettings, stakeLimits } from '../repos/guild-settings.js';
import { type SlipRecord, SlipRepo } from '../repos/slips.js';
import { slipView } from '../views/slip.js';

/** Why a member may not bet, shown by every betting command: closed until an admin names a bet role. */
export const CLOSED_BY_DEFAULT =
  'Betting is closed on this server until an admin sets a bet role with /settings bet-role; until then only members with Manage Server can bet.';

/**
 * Closed by default: with no bet role configured only members with Manage Server may start or confirm bets;
 * with one, only its members (and Manage Server).
 */
export async function assertMayBet(
  ctx: BotContext,
  interaction: { guildId: string | null; member: unknown; memberPermissions?: { has(bit: bigint): boolean } | null },
) {
  if (interaction.guildId === null) throw new UserFacingError('Bets can only be made in a server channel.');
  const manager = interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) === true;
  const settings = await getSettings(ctx.store, interaction.guildId);
  if (!settings.betRoleId) {
    if (manager) return;
    throw new UserFacingError(CLOSED_BY_DEFAULT);
  }
  const member = interaction.member as { roles?: string[] | { cache?: Map<string, unknown> } } | null;
  const roles = Array.isArray(member?.roles) ? member.roles : [...(member?.roles?.cache?.keys() ?? [])];
  if (!roles.includes(settings.betRoleId) && !manager) {
    throw new UserFacingError(`Betting here needs the <@&${settings.betRoleId}> role. Ask a server admin.`);
  }
}

/** A stake that would pass today's limit is refused before any price check or slip. */
export async function assertDailyRoom(ctx: BotContext, guildId: string | null, userId: string, stake: number) {
  const settings = await getSettings(ctx.store, guildId);
  const limits = stakeLimits(settings, ctx.config.tunables);
  // A stake the per-bet rules refuse is answered by those (the more specific message) when the slip is built.
  if (!checkStake(stake, limits).ok) return;
  const { perDay } = limits;
  const day = dayIn(ctx.now(), settings.timezone);
  const used = (await new BetRecordRepo(ctx.store).usedCents(guildId ?? 'dm', userId, day)) / 100;
  const room = checkDailyRoom(stake, used, perDay);
  if (!room.ok) throw new UserFacingError(room.message);
}

/**
 * Builds the slip (the interaction was deferred ephemerally) and posts it publicly in the channel as a
 * follow-up, so others see it but only its owner can confirm; a stake above the approval tier is posted as
 * a proposal for approvers instead.
 */
export async function postSlip(
  ctx: BotContext,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  req: Omit<SlipRequest, 'guildId' | 'channelId' | 'userId'>,
): Promise<void> {
  await postPreparedSlip(ctx, interaction, req.stake, (where, expiresInMs) =>
    ctx.bets.prepareSlip({ ...req, ...where }, expiresInMs),
  );
}

export type { SlipLifetime } from '../betting/slip-kinds.js';

/**
 * Posts a slip of any kind: checks the bettor and the day's room, lets `prepare` build and store it for this
 * channel and member, then posts it publicly (a follow-up, or a proposal when the stake needs approvals, for every
 * kind: `prepare` must pass the lifetime on) and stores its message.
 */
export async function postPreparedSlip(
  ctx: BotContext,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  stake: number,
  prepare: (
    where: { guildId: string | null; channelId: string; userId: string },
    expiresInMs: SlipLifetime,
  ) => Promise<SlipRecord<SlipPayload>>,
): Promise<void> {
  await assertMayBet(ctx, interaction);
  const channelId = interaction.channelId;
  if (!channelId) throw new UserFacingError('Bets can only be made in a server channel.');
  await assertDailyRoom(ctx, interaction.guildId, interaction.user.id, stake);
  const settings = await getSettings(ctx.store, interaction.guildId);
  const policy = approvalPolicy(settings);
  let asked = false;
  const slip = await prepare({ guildId: interaction.guildId, channelId, userId: interaction.user.id }, (stakeCents) => {
    asked = true;
    return approvalsNeeded(policy, stakeCents) > 0 ? policy.expiryMs : ctx.config.tunables.slipExpiryMs;
  });
  // The tier is read from the stored slip, whatever its kind: no kind of bet passes the tiers unproposed.
  const needed = approvalsNeeded(policy, slip.payload.stakeCents ?? Math.round(slip.payload.stake * 100));
  if (needed > 0 && !asked) {
    await new SlipRepo(ctx.store).close(slip.slipId);
    throw new Error('a slip above the approval tier was built without asking for its lifetime');
  }
  if (needed > 0) {
    const proposal = await ctx.approvals.propose(slip, needed, settings);
    const view = ctx.approvals.view(proposal, slip.payload, [], settings);
    await interaction.editReply({
      content: `Your stake needs ${needed} approval${needed === 1 ? '' : 's'}: the proposal is posted below for approvers.`,
      embeds: [],
      components: [],
    });
    const message = await interaction.followUp({
      content: view.content ?? '',
      embeds: view.embeds,
      components: view.components,
      allowedMentions: { users: [slip.userId], roles: policy.approverRoleId ? [policy.approverRoleId] : [] },
    });
    await ctx.bets.attachMessage(slip.slipId, message.channelId, message.id);
    await ctx.approvals.attachMessage(proposal.proposalId, message.channelId, message.id);
    return;
  }
  const view = slipView({ slip: slip.payload, slipId: slip.slipId, userId: slip.userId, expiresAt: slip.expiresAt });
  // The first follow-up after a defer would replace the (ephemeral) placeholder, so fill that first.
  await interaction.editReply({
    content: 'Your bet slip is posted below. Confirm it there.',
    embeds: [],
    components: [],
  });
  const message = await interaction.followUp({
    content: view.content ?? '',
    embeds: view.embeds,
    components: view.components,
    allowedMentions: { users: [slip.userId] },
  });
  await ctx.bets.attachMessage(slip.slipId, message.channelId, message.id);
}
