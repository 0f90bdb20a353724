// Handlers of a market card (`card:*` custom ids): paging, opening a market, picking a selection.
import { ModalBuilder } from 'discord.js';
import type { MarketCard } from '../../../gateway/index.js';
import {
  type CardRef,
  cardOf,
  cardView,
  getRef,
  loadCardRef,
  marketView,
  stakeFormTitle,
} from '../../catalog/index.js';
import type { ComponentHandler, ComponentInteraction } from '../../discord/component-handler.js';
import { encodeCustomId, pageArg } from '../../discord/custom-id.js';
import type { MessageView } from '../../model/limits.js';
import { selectionName, sortMarkets } from '../../model/markets.js';
import { checkBettable, suggestedStakeFor } from './bet-gate.js';
import type { BettingDeps } from './deps.js';
import { minOddsField, stakeField } from './stake-form.js';

/** What every card control builds its view from: the card behind the ref and the ref's own facts. */
interface CardShown {
  card: MarketCard;
  eventName: string;
  ref: string;
  startTime?: string | undefined;
}

/**
 * The five steps every card control shares: take its kind of interaction, acknowledge by updating the message, load
 * the card behind the ref, build the view the control asks for, and edit the message with it.
 */
function cardControl(
  accepts: (i: ComponentInteraction) => boolean,
  build: (shown: CardShown, args: string[], i: ComponentInteraction) => MessageView,
): ComponentHandler<BettingDeps> {
  return async (interaction, args, ctx) => {
    if (!accepts(interaction)) return;
    await interaction.deferUpdate();
    const ref = args[0] ?? '';
    const cardRef = await loadCardRef(ctx, ref);
    const card = await cardOf(ctx, cardRef);
    const view = build({ card, eventName: cardRef.eventName, ref, startTime: cardRef.startTime }, args, interaction);
    await interaction.editReply({ embeds: view.embeds, components: view.components });
  };
}

const isButton = (i: ComponentInteraction) => i.isButton();
const isMenu = (i: ComponentInteraction) => i.isStringSelectMenu();

export const cardPage = cardControl(isButton, (shown, [, page]) => cardView({ ...shown, page: pageArg(page) }));

export const cardOpen = cardControl(isMenu, (shown, _args, i) =>
  marketView({ ...shown, marketIndex: pageArg(i.isStringSelectMenu() ? i.values[0] : undefined) }),
);

/** Prev/Next under a market with more selections than one menu holds. */
export const marketSelections = cardControl(isButton, (shown, [, marketIndex, page]) =>
  marketView({ ...shown, marketIndex: pageArg(marketIndex), selectionPage: pageArg(page) }),
);

/** The picked selection on its cached card (never the gateway). */
async function pickedFromCache(ctx: BettingDeps, ref: string, marketIndex: string, selIndex: string) {
  const cardRef = await getRef<CardRef>(ctx.store, ref);
  const card = cardRef
    ? await ctx.catalog.peekCard(cardRef.epk, cardRef.bookie, {
        ...(cardRef.tier ? { tier: cardRef.tier } : {}),
        ...(cardRef.market ? { market: cardRef.market } : {}),
      })
    : undefined;
  const sel = card ? sortMarkets(card.markets)[pageArg(marketIndex)]?.selections[pageArg(selIndex)] : undefined;
  return { cardRef, sel };
}

/** Picking a selection opens the stake modal; a modal must be the first answer, so no gateway call here. */
export const cardPick: ComponentHandler<BettingDeps> = async (interaction, [ref, marketIndex], ctx) => {
  if (!interaction.isStringSelectMenu()) return;
  // Refused before the stake is asked for; store and cache reads only, well inside the 3 s a modal must come in.
  const gate = await checkBettable(ctx, interaction);
  const selIndex = interaction.values[0] ?? '0';
  const picked = await pickedFromCache(ctx, ref ?? '', marketIndex ?? '0', selIndex).catch(() => undefined);
  const sel = picked?.sel;
  const title = sel ? stakeFormTitle(selectionName(sel.label, sel.line), sel.odds) : stakeFormTitle();
  const suggested =
    picked?.cardRef && sel?.market_ref
      ? await suggestedStakeFor(ctx, gate, {
          epk: picked.cardRef.epk,
          bookie: picked.cardRef.bookie,
          marketRef: sel.market_ref,
        })
      : undefined;
  const modal = new ModalBuilder()
    .setCustomId(encodeCustomId('slip', 'stake', ref ?? '', marketIndex ?? '0', selIndex))
    .setTitle(title)
    .addComponents(stakeField(suggested), minOddsField('1.80'));
  await interaction.showModal(modal);
};
