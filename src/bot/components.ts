import { MessageFlags, ModalBuilder, PermissionFlagsBits } from 'discord.js';
import type { Member } from './approvals.js';
import { type CardRef, cardOf, loadCardRef } from './card-ref.js';
import { COMPARE_COMPONENTS } from './compare-components.js';
import type { ComponentHandler, ComponentInteraction } from './component-handler.js';
import type { BotContext } from './context.js';
import { encodeCustomId } from './custom-id.js';
import { type EventsQueryRef, eventsForDay } from './events-query.js';
import { replyEphemeral } from './interact.js';
import { selectionName, sortMarkets } from './markets.js';
import { formatOdds } from './odds.js';
import { PROMO_COMPONENTS } from './promo-desk.js';
import { RACING_COMPONENTS } from './racing-desk.js';
import { getRef } from './refs.js';
import { priceMovedOptions, slipReprice } from './reprice.js';
import { assertMayBet, postSlip } from './slip-post.js';
import { slipKind } from './slip-rules.js';
import { minOddsField, readMinOdds, readStake, stakeField } from './stake-form.js';
import { UserFacingError } from './user-errors.js';
import { recordStateText } from './views/bet-record.js';
import { cardView, marketView, stakeFormTitle } from './views/card.js';
import { eventsView } from './views/events.js';
import { closedSlipView } from './views/slip.js';

const pageArg = (s: string | undefined) => Math.max(0, Number.parseInt(s ?? '0', 10) || 0);

const eventsPage: ComponentHandler = async (interaction, [ref, page], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const q = ref ? await getRef<EventsQueryRef>(ctx.store, ref) : undefined;
  if (!q) throw new UserFacingError('This listing is too old to page. Run /events again.');
  const events = await eventsForDay(ctx, q);
  const view = eventsView({
    events,
    league: q.league,
    date: q.day,
    timezone: q.timezone,
    page: pageArg(page),
    ref: ref as string,
    ...(q.status ? { status: q.status } : {}),
  });
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};

const cardPage: ComponentHandler = async (interaction, [ref, page], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const cardRef = await loadCardRef(ctx, ref ?? '');
  const card = await cardOf(ctx, cardRef);
  const view = cardView({
    card,
    eventName: cardRef.eventName,
    ref: ref as string,
    page: pageArg(page),
    startTime: cardRef.startTime,
  });
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};

const cardOpen: ComponentHandler = async (interaction, [ref], ctx) => {
  if (!interaction.isStringSelectMenu()) return;
  await interaction.deferUpdate();
  const cardRef = await loadCardRef(ctx, ref ?? '');
  const card = await cardOf(ctx, cardRef);
  const view = marketView({
    card,
    eventName: cardRef.eventName,
    ref: ref as string,
    marketIndex: pageArg(interaction.values[0]),
  });
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};

/** Prev/Next under a market with more selections than one menu holds. */
const marketSelections: ComponentHandler = async (interaction, [ref, marketIndex, page], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const cardRef = await loadCardRef(ctx, ref ?? '');
  const card = await cardOf(ctx, cardRef);
  const view = marketView({
    card,
    eventName: cardRef.eventName,
    ref: ref as string,
    marketIndex: pageArg(marketIndex),
    selectionPage: pageArg(page),
  });
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};

/** The stake form's title: the selection and its card price, read from the cache (never the gateway). */
async function stakeTitle(ctx: BotContext, ref: string, marketIndex: string, selIndex: string): Promise<string> {
  const cardRef = await getRef<CardRef>(ctx.store, ref);
  const card = cardRef
    ? await ctx.catalog.peekCard(cardRef.epk, cardRef.bookie, {
        ...(cardRef.tier ? { tier: cardRef.tier } : {}),
        ...(cardRef.market ? { market: cardRef.market } : {}),
      })
    : undefined;
  const sel = card ? sortMarkets(card.markets)[pageArg(marketIndex)]?.selections[pageArg(selIndex)] : undefined;
  return sel ? stakeFormTitle(selectionName(sel.label, sel.line), sel.odds) : stakeFormTitle();
}

/** Picking a selection opens the stake modal; a modal must be the first answer, so no gateway call here. */
const cardPick: ComponentHandler = async (interaction, [ref, marketIndex], ctx) => {
  if (!interaction.isStringSelectMenu()) return;
  // Refused before the stake is asked for (one store read, well inside the 3 s a modal must come in).
  await assertMayBet(ctx, interaction);
  const selIndex = interaction.values[0] ?? '0';
  const title = await stakeTitle(ctx, ref ?? '', marketIndex ?? '0', selIndex).catch(() => stakeFormTitle());
  const modal = new ModalBuilder()
    .setCustomId(encodeCustomId('slip', 'stake', ref ?? '', marketIndex ?? '0', selIndex))
    .setTitle(title)
    .addComponents(stakeField(), minOddsField('1.80'));
  await interaction.showModal(modal);
};

const slipStake: ComponentHandler = async (interaction, [ref, marketIndex, selIndex], ctx) => {
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
    stake: stake.value,
    ...(minOdds.value === undefined ? {} : { minOdds: minOdds.value }),
  });
};

const slipConfirm: ComponentHandler = async (interaction, [slipId], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  await assertMayBet(ctx, interaction);
  const result = await ctx.bets.confirm(slipId ?? '', interaction.user.id, {
    channelId: interaction.channelId,
    messageId: interaction.message.id,
  });
  switch (result.kind) {
    case 'recorded':
      // The slip message shows the bet's state through the outbox (submitted, then the result).
      return;
    case 'wrong_message':
      return replyEphemeral(interaction, 'This button does not belong to a slip on this message. Nothing was placed.');
    case 'needs_approval':
      return replyEphemeral(interaction, 'This bet is a proposal: it is placed by its last approval, not by Confirm.');
    case 'not_owner':
      return replyEphemeral(interaction, `Only <@${result.ownerId}> can confirm this slip. Make your own with /bet.`);
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
          : await priceMovedOptions(ctx, result.slip, interaction.user.id, result.priceMoved);
      const view = closedSlipView(result.slip, result.title, result.message, moved);
      return void (await interaction.editReply({ content: '', embeds: view.embeds, components: view.components }));
    }
    case 'handled':
      // Buttons still showing on a handled slip: the record's own message is re-queued (it may be in flight).
      if (result.record) await ctx.bets.show(result.record);
      else if (interaction.message.createdTimestamp + ctx.config.tunables.slipExpiryMs < ctx.now()) {
        await interaction.editReply({ components: [] });
      }
      return replyEphemeral(interaction, recordStateText(result.record));
  }
};

const slipCancel: ComponentHandler = async (interaction, [slipId], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const result = await ctx.bets.cancel(slipId ?? '', interaction.user.id);
  if (result.kind === 'cancelled') {
    const view = closedSlipView(result.slip, 'Bet slip cancelled', 'Cancelled. Nothing was placed.');
    return void (await interaction.editReply({ content: '', embeds: view.embeds, components: [] }));
  }
  if (result.kind === 'not_owner')
    return replyEphemeral(interaction, `Only <@${result.ownerId}> can cancel this slip.`);
  return replyEphemeral(interaction, recordStateText(result.record));
};

/** Who clicked, as the approval rules need it: roles in the guild and Manage Server. */
function memberOf(interaction: ComponentInteraction): Member {
  const member = interaction.member as { roles?: string[] | { cache?: Map<string, unknown> } } | null;
  const roles = Array.isArray(member?.roles) ? member.roles : [...(member?.roles?.cache?.keys() ?? [])];
  return {
    id: interaction.user.id,
    roles,
    manager: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) === true,
  };
}

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
const proposalApprove: ComponentHandler = async (interaction, [proposalId], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const result = await ctx.approvals.approve(proposalId ?? '', memberOf(interaction));
  const say = (text: string, kind: 'error' | 'ok' | 'info' = 'info') => replyEphemeral(interaction, text, kind);
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
      return say('You proposed this bet, so you cannot approve it. Another approver must.', 'error');
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

const proposalReject: ComponentHandler = async (interaction, [proposalId], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const result = await ctx.approvals.reject(proposalId ?? '', memberOf(interaction));
  if (result.kind === 'rejected') return replyEphemeral(interaction, 'Rejected. Nothing was placed.', 'ok');
  if (result.kind === 'not_approver') return replyEphemeral(interaction, approverText(result.roleId));
  if (result.kind === 'closed')
    return replyEphemeral(interaction, closedText[result.state] ?? 'This proposal is closed.');
  return replyEphemeral(interaction, 'This proposal no longer exists. Nothing was placed.');
};

/** Component handlers by `<scope>:<action>` of the v1 custom id. */
export const COMPONENTS: Record<string, ComponentHandler> = {
  'ev:page': eventsPage,
  'card:page': cardPage,
  'card:open': cardOpen,
  'card:sels': marketSelections,
  'card:pick': cardPick,
  'slip:stake': slipStake,
  'slip:confirm': slipConfirm,
  'slip:cancel': slipCancel,
  'prop:approve': proposalApprove,
  'prop:reject': proposalReject,
  ...COMPARE_COMPONENTS,
  'slip:reprice': slipReprice,
  ...RACING_COMPONENTS,
  ...PROMO_COMPONENTS,
};
