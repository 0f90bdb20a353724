// Handlers of a fund cash-out above the tier (`fund:*` custom ids): Approve and Reject, by a checker other than the member.
import { buttonRoute, type ComponentHandler, type ComponentRoute } from '../../discord/component-handler.js';
import { replyEphemeral } from '../../discord/interact.js';
import { getSettings, isChecker } from '../../settings/index.js';
import { cashoutRequestView } from '../views/fund.js';
import type { FundDeps } from './deps.js';

const decide =
  (approve: boolean): ComponentHandler<FundDeps> =>
  async (interaction, [cashoutId], ctx) => {
    if (!interaction.isButton()) return;
    await interaction.deferUpdate();
    const guildId = interaction.guildId;
    const asked = await ctx.fund.cashout(cashoutId ?? '');
    if (asked?.memberId === interaction.user.id) {
      return replyEphemeral(
        interaction,
        'You asked for this cash-out, so you cannot approve it. Another treasurer or approver must.',
      );
    }
    if (!guildId || !isChecker(interaction, await getSettings(ctx.store, guildId))) {
      return replyEphemeral(
        interaction,
        'Only a treasurer or an approver can decide a cash-out (Manage Server, or the roles set in /settings).',
      );
    }
    const r = await ctx.fund.decideCashout(cashoutId ?? '', interaction.user.id, approve);
    if (!r.ok) {
      return replyEphemeral(
        interaction,
        r.why === 'own'
          ? 'You asked for this cash-out, so you cannot approve it. Another treasurer or approver must.'
          : 'This cash-out is no longer waiting for a decision.',
      );
    }
    const view = cashoutRequestView(r.cashout, true);
    await interaction.editReply({ embeds: view.embeds, components: view.components });
    await replyEphemeral(
      interaction,
      approve ? 'Approved: it is redeemed at the next strike.' : 'Rejected: nothing is redeemed.',
      'ok',
    );
  };

export const fundApprove = decide(true);
export const fundReject = decide(false);

export const FUND_COMPONENTS: Record<string, ComponentRoute<FundDeps>> = {
  'fund:approve': buttonRoute(fundApprove),
  'fund:reject': buttonRoute(fundReject),
};
