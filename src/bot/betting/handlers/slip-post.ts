import type {
  ButtonInteraction,
  ChatInputCommandInteraction,
  MessageMentionOptions,
  ModalSubmitInteraction,
} from 'discord.js';
import type { Logger } from '../../config/logger.js';
import { countApprovers } from '../../discord/approvers.js';
import type { MessageView } from '../../model/limits.js';
import type { SlipPayload } from '../../model/slip-rules.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import type { GuildSettings } from '../../settings/index.js';
import type { Approvals } from '../approvals.js';
import { approvalsNeeded, tooFewApproversText } from '../model/approval-policy.js';
import type { Placement } from '../placement.js';
import type { SlipFactory, SlipRequest } from '../slip-factory.js';
import type { SlipLifetime } from '../slip-kinds.js';
import type { SlipRecord, SlipRepo } from '../slips.js';
import { slipView } from '../views/slip.js';
import { type Bettable, checkBettable, type GateCtx } from './bet-gate.js';

/**
 * Builds the slip (the interaction was deferred ephemerally) and posts it publicly in the channel as a
 * follow-up, so others see it but only its owner can confirm; a stake above the approval tier is posted as
 * a proposal for approvers instead.
 */
export async function postSlip(
  ctx: PostCtx,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  req: Omit<SlipRequest, 'guildId' | 'channelId' | 'userId' | 'settings' | 'bankCents'>,
  gate?: Bettable,
): Promise<void> {
  await postPreparedSlip(
    ctx,
    interaction,
    req.stakeCents,
    (where, expiresInMs) => ctx.slipFactory.prepareSlip({ ...req, ...where }, expiresInMs),
    gate,
  );
}

export type { SlipLifetime } from '../slip-kinds.js';

/**
 * Posts a slip of any kind: passes the interaction's gate (unless the caller already did, handing on what it
 * decided), lets `prepare` build and store it for this channel and member with the settings the gate read, then posts it publicly (a follow-up, or a proposal when the stake needs approvals, for every
 * kind: `prepare` must pass the lifetime on) and stores its message.
 */
export async function postPreparedSlip(
  ctx: PostCtx,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  stakeCents: number,
  prepare: (
    where: {
      guildId: string | null;
      channelId: string;
      userId: string;
      settings: GuildSettings;
      bankCents: number | null;
    },
    expiresInMs: SlipLifetime,
  ) => Promise<SlipRecord<SlipPayload>>,
  passed?: Bettable,
): Promise<void> {
  const { guildId, channelId, userId, settings, policy, bankCents } =
    passed ?? (await checkBettable(ctx, interaction, stakeCents));
  let asked = false;
  const slip = await prepare({ guildId, channelId, userId, settings, bankCents }, (stakeCents) => {
    asked = true;
    return approvalsNeeded(policy, stakeCents) > 0 ? policy.expiryMs : ctx.config.tunables.slipExpiryMs;
  });
  // The tier is read from the stored slip, whatever its kind: no kind of bet passes the tiers unproposed.
  const needed = approvalsNeeded(policy, slip.payload.stakeCents);
  if (needed > 0 && !asked) {
    await ctx.slips.close(slip.slipId);
    throw new Error('a slip above the approval tier was built without asking for its lifetime');
  }
  if (needed > 0) {
    await refuseIfNeverPasses(ctx, interaction, slip, policy);
    const proposal = await ctx.approvals.propose(slip, needed, settings);
    const view = ctx.approvals.view(proposal, slip.payload, [], settings);
    const message = await postBelow(
      interaction,
      `Your stake needs ${needed} approval${needed === 1 ? '' : 's'}: the proposal is posted below for approvers.`,
      view,
      { users: [slip.userId], roles: policy.approverRoleId ? [policy.approverRoleId] : [] },
    );
    await ctx.placement.attachMessage(slip.slipId, message.channelId, message.id);
    await ctx.approvals.attachMessage(proposal.proposalId, message.channelId, message.id);
    return;
  }
  const view = slipView({ slip: slip.payload, slipId: slip.slipId, userId: slip.userId, expiresAt: slip.expiresAt });
  const message = await postBelow(interaction, 'Your bet slip is posted below. Confirm it there.', view, {
    users: [slip.userId],
  });
  await ctx.placement.attachMessage(slip.slipId, message.channelId, message.id);
}

/** Closes the slip and refuses it when the server has fewer members who may approve it than its stake needs. */
async function refuseIfNeverPasses(
  ctx: PostCtx,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  slip: SlipRecord<SlipPayload>,
  policy: Bettable['policy'],
): Promise<void> {
  if (!interaction.guild) return;
  const approvers = await countApprovers(
    interaction.guild,
    { proposerId: slip.userId, approverRoleId: policy.approverRoleId },
    ctx.logger,
  );
  if (approvers === undefined) return;
  const stakeCents = slip.payload.stakeCents;
  const refusal = tooFewApproversText(policy, stakeCents, approvers);
  if (refusal === undefined) return;
  await ctx.slips.close(slip.slipId);
  throw new UserFacingError(refusal);
}

/** Fills the deferred (ephemeral) placeholder with `note`, then posts `view` publicly as a follow-up. */
async function postBelow(
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  note: string,
  view: MessageView,
  allowedMentions: MessageMentionOptions,
) {
  // The first follow-up after a defer would replace the (ephemeral) placeholder, so fill that first.
  await interaction.editReply({ content: note, embeds: [], components: [] });
  return interaction.followUp({
    content: view.content ?? '',
    embeds: view.embeds,
    components: view.components,
    allowedMentions,
  });
}

/** What posting a slip uses: the gate's reads and the bet wing's services. */
type PostCtx = GateCtx & {
  slipFactory: SlipFactory;
  slips: SlipRepo;
  approvals: Approvals;
  placement: Placement;
  logger: Logger;
};
