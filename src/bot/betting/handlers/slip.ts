// Handlers of a bet slip (`slip:*` custom ids): the stake form, Confirm and Cancel.
import { MessageFlags } from 'discord.js';
import { cardOf, loadCardRef, ownerOf } from '../../catalog/index.js';
import type { ComponentHandler } from '../../discord/component-handler.js';
import { pageArg } from '../../discord/custom-id.js';
import { logRefusal, refuse, replyEphemeral } from '../../discord/interact.js';
import { sortMarkets } from '../../model/markets.js';
import { slipKind } from '../../model/slip-rules.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import { recordStateText } from '../views/bet-record.js';
import { closedSlipView } from '../views/slip.js';
import { checkBettable } from './bet-gate.js';
import type { BettingDeps } from './deps.js';
import { priceMovedOptions } from './reprice.js';
import { postSlip } from './slip-post.js';
import { readMinOdds, readStake } from './stake-form.js';

export const slipStake: ComponentHandler<BettingDeps> = async (interaction, [ref, marketIndex, selIndex], ctx) => {
  if (!interaction.isModalSubmit()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const stake = readStake(interaction);
  if (!stake.ok) return replyEphemeral(interaction, stake.message);
  const minOdds = readMinOdds(interaction, '1.80');
  if (!minOdds.ok) return replyEphemeral(interaction, minOdds.message);
  const cardRef = await loadCardRef(ctx, ref ?? '');
  const card = await cardOf(ctx, cardRef);
  const market = sortMarkets(card.markets)[pageArg(marketIndex)];
  const sel = market?.selections[pageArg(selIndex)];
  if (!sel?.market_ref || !sel.bettable) {
    throw new UserFacingError('That selection is no longer bettable. Open the card again with /markets.');
  }
  await postSlip(ctx, interaction, {
    epk: cardRef.epk,
    bookie: cardRef.bookie,
    marketRef: sel.market_ref,
    stakeCents: stake.cents,
    ...(minOdds.value === undefined ? {} : { minOdds: minOdds.value }),
  });
};

export const slipConfirm: ComponentHandler<BettingDeps> = async (interaction, [slipId], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const gate = await checkBettable(ctx, interaction);
  const result = await ctx.placement.confirm(
    slipId ?? '',
    interaction.user.id,
    { channelId: interaction.channelId, messageId: interaction.message.id },
    { gate },
  );
  switch (result.kind) {
    case 'recorded':
      // The slip message shows the bet's state through the outbox (submitted, then the result).
      return;
    case 'wrong_message':
      return refuse(
        ctx.logger,
        interaction,
        'This button does not belong to a slip on this message. Nothing was placed.',
      );
    case 'needs_approval':
      return refuse(
        ctx.logger,
        interaction,
        'This bet is a proposal: it is placed by its last approval, not by Confirm.',
      );
    case 'not_owner':
      return refuse(
        ctx.logger,
        interaction,
        `Only <@${result.ownerId}> can confirm this slip. Make your own with /bet.`,
      );
    case 'expired': {
      // Tell the clicker why, then close the public slip for everyone.
      await replyEphemeral(
        interaction,
        'This slip expired before it was confirmed. Nothing was placed; run /bet again.',
      );
      const view = closedSlipView(
        result.slip,
        'Bet slip closed',
        'Expired: not confirmed in time, so nothing was placed.',
      );
      return void (await interaction.editReply({ content: '', embeds: view.embeds, components: [] }));
    }
    case 'closed': {
      const moved =
        result.priceMoved === undefined || slipKind(result.slip) !== 'sports'
          ? {}
          : await priceMovedOptions(ctx, result.slip, interaction.user.id, result.priceMoved, ownerOf(interaction));
      logRefusal(ctx.logger, interaction, result.message);
      const view = closedSlipView(result.slip, result.title, result.message, moved);
      return void (await interaction.editReply({ content: '', embeds: view.embeds, components: view.components }));
    }
    case 'handled':
      // Buttons still showing on a handled slip: the record's own message is re-queued (it may be in flight).
      if (result.record) await ctx.betResults.show(result.record);
      else if (interaction.message.createdTimestamp + ctx.config.tunables.slipExpiryMs < ctx.now()) {
        await interaction.editReply({ components: [] });
      }
      return replyEphemeral(interaction, recordStateText(result.record));
  }
};

export const slipCancel: ComponentHandler<BettingDeps> = async (interaction, [slipId], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const result = await ctx.placement.cancel(slipId ?? '', interaction.user.id);
  if (result.kind === 'cancelled') {
    const view = closedSlipView(result.slip, 'Bet slip cancelled', 'Cancelled. Nothing was placed.');
    return void (await interaction.editReply({ content: '', embeds: view.embeds, components: [] }));
  }
  if (result.kind === 'not_owner')
    return refuse(ctx.logger, interaction, `Only <@${result.ownerId}> can cancel this slip.`);
  return replyEphemeral(interaction, recordStateText(result.record));
};
