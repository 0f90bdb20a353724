import { type ChatInputCommandInteraction, type ModalSubmitInteraction, PermissionFlagsBits } from 'discord.js';
import type { SlipRequest } from './bet-service.js';
import type { BotContext } from './context.js';
import { approvalPolicy, approvalsNeeded, getSettings } from './settings.js';
import { UserFacingError } from './user-errors.js';
import { slipView } from './views/slip.js';

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

/**
 * Builds the slip (the interaction was deferred ephemerally) and posts it publicly in the channel as a
 * follow-up, so others see it but only its owner can confirm.
 */
export async function postSlip(
  ctx: BotContext,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction,
  req: Omit<SlipRequest, 'guildId' | 'channelId' | 'userId'>,
): Promise<void> {
  await assertMayBet(ctx, interaction);
  const channelId = interaction.channelId;
  if (!channelId) throw new UserFacingError('Bets can only be made in a server channel.');
  const settings = await getSettings(ctx.store, interaction.guildId);
  const policy = approvalPolicy(settings);
  let needed = 0;
  const slip = await ctx.bets.prepareSlip(
    { ...req, guildId: interaction.guildId, channelId, userId: interaction.user.id },
    (stakeCents) => {
      needed = approvalsNeeded(policy, stakeCents);
      return needed > 0 ? policy.expiryMs : ctx.config.tunables.slipExpiryMs;
    },
  );
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
