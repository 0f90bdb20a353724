import type { ComponentHandler } from '../../discord/component-handler.js';
import { refuse, replyEphemeral } from '../../discord/interact.js';
import { formatOdds } from '../../model/odds.js';
import { memberOf } from '../../settings/index.js';
import type { BettingDeps } from './deps.js';

const approverText = (roleId: string | undefined) =>
  roleId
    ? `Only members with the <@&${roleId}> role can approve or reject proposals.`
    : 'Only members with Manage Server can approve or reject proposals (no approver role is set).';

const closedText: Record<string, string> = {
  placing: 'This proposal is approved and being placed.',
  placed: 'This proposal was approved and placed.',
  closed: 'This proposal was approved but not placed; the message says why.',
  rejected: 'This proposal was rejected. Nothing was placed.',
  expired: 'This proposal expired. Nothing was placed.',
};

/** Approve: acknowledged at once, then the live price is checked and the approval bound to it. */
export const proposalApprove: ComponentHandler<BettingDeps> = async (interaction, [proposalId], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const result = await ctx.approvals.approve(proposalId ?? '', memberOf(interaction));
  const say = (text: string, kind: 'error' | 'ok' | 'info' = 'info') =>
    kind === 'error' ? refuse(ctx.logger, interaction, text) : replyEphemeral(interaction, text, kind);
  switch (result.kind) {
    case 'approved':
      return say(
        result.left === 0
          ? 'Approved.'
          : `Approved. ${result.left} more approval${result.left === 1 ? '' : 's'} needed.`,
        'ok',
      );
    case 'placed':
      return say('Approved: that was the last approval, the bet is placed through the normal Confirm.', 'ok');
    case 'not_placed':
      return say(`Approved, but the bet was not placed: ${result.message}`, 'error');
    case 'lapsed':
      return say(
        `Not counted: the price moved ${formatOdds(result.from)} → ${formatOdds(result.to)}, beyond the tolerance. Approvals so far lapsed; the proposal now asks again at ${formatOdds(result.to)}.`,
        'error',
      );
    case 'self':
      return say(
        'You proposed this bet, so you cannot approve it: another approver must. You may Reject it to withdraw it.',
        'error',
      );
    case 'duplicate':
      return say(
        `You already approved this. Each member counts once; ${result.left} more approval${result.left === 1 ? '' : 's'} needed from others.`,
        'error',
      );
    case 'not_approver':
      return say(approverText(result.roleId), 'error');
    case 'expired':
      return say('This proposal expired before your approval. Nothing was placed.', 'error');
    case 'closed':
      return say(closedText[result.state] ?? 'This proposal is closed.', 'error');
    case 'gone':
      return say('This proposal no longer exists. Nothing was placed.', 'error');
  }
};

export const proposalReject: ComponentHandler<BettingDeps> = async (interaction, [proposalId], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const result = await ctx.approvals.reject(proposalId ?? '', memberOf(interaction));
  if (result.kind === 'rejected') return replyEphemeral(interaction, 'Rejected. Nothing was placed.', 'ok');
  if (result.kind === 'not_approver') return refuse(ctx.logger, interaction, approverText(result.roleId));
  if (result.kind === 'closed')
    return refuse(ctx.logger, interaction, closedText[result.state] ?? 'This proposal is closed.');
  return replyEphemeral(interaction, 'This proposal no longer exists. Nothing was placed.');
};
