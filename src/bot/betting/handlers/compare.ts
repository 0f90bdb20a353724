/**
 * "Bet at best" under a /compare answer: asks the stake, then routes it as best-price /bet does (only books that
 * can take it, cash included) and starts the normal slip there. When the slip is refused at that book, the other
 * books that can take it are offered as buttons, so the member always has a next step.
 */

import { ButtonStyle, ComponentType, MessageFlags, ModalBuilder, type ModalSubmitInteraction } from 'discord.js';
import { getRef, ownerOf, putRef } from '../../catalog/index.js';
import {
  buttonRoute,
  type ComponentHandler,
  type ComponentRoute,
  modalRoute,
} from '../../discord/component-handler.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { noticeView, replyEphemeral } from '../../discord/interact.js';
import { clip, LIMITS } from '../../model/limits.js';
import { formatOdds } from '../../model/odds.js';
import { type StoredStake, storedStakeCents } from '../../model/slip-rules.js';
import { userMessage } from '../../model/user-errors.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import { leftOutAtBest, type PricedBook, routeToBestPrice } from './best-price.js';
import { checkBettable, suggestedStakeFor } from './bet-gate.js';
import type { BettingDeps } from './deps.js';
import { postSlip } from './slip-post.js';
import { readStake, stakeField } from './stake-form.js';

export interface BestPriceRef {
  epk: string;
  bookie: string;
  marketRef: string;
  /** The session whose price was best: the slip goes through it (absent in refs stored before it was kept). */
  sessionId?: string;
  /** The best live price, for the stake form's suggested stake (absent in older refs). */
  price?: number;
  /** The market key and the selection's shared key: with them the stake is routed afresh (older refs lack them). */
  market?: string;
  selection?: string;
}

/** One other book offered after a refusal: the slip goes straight there with the stake already given. */
interface AtBookRef extends StoredStake {
  epk: string;
  bookie: string;
  marketRef: string;
  sessionId: string;
}

/** A modal must be the first answer to the click, so no gateway call here. */
const betAtBest: ComponentHandler<BettingDeps> = async (interaction, [ref], ctx) => {
  if (!interaction.isButton()) return;
  const gate = await checkBettable(ctx, interaction);
  // Store and cache reads only: the modal must be the first answer.
  const best = ref ? await getRef<BestPriceRef>(ctx.store, ref) : undefined;
  const suggested = best
    ? await suggestedStakeFor(ctx, gate, {
        epk: best.epk,
        bookie: best.bookie,
        marketRef: best.marketRef,
        ...(best.price === undefined ? {} : { odds: best.price }),
      })
    : undefined;
  await interaction.showModal(
    new ModalBuilder()
      .setCustomId(encodeCustomId('cmp', 'stake', ref ?? ''))
      .setTitle('Stake at the best price')
      .addComponents(stakeField(suggested)),
  );
};

const stakeAtBest: ComponentHandler<BettingDeps> = async (interaction, [ref], ctx) => {
  if (!interaction.isModalSubmit()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const stake = readStake(interaction);
  if (!stake.ok) return replyEphemeral(interaction, stake.message);
  const best = ref ? await getRef<BestPriceRef>(ctx.store, ref) : undefined;
  if (!best) throw new UserFacingError('This comparison is too old to bet from. Run /compare again.');
  if (!best.market || !best.selection) {
    // An older ref names one session: account health may still leave it out.
    const leftOut = best.sessionId
      ? await leftOutAtBest(ctx, { ...best, sessionId: best.sessionId, stakeCents: stake.cents })
      : undefined;
    if (leftOut) return replyEphemeral(interaction, leftOut);
    return postSlip(ctx, interaction, {
      epk: best.epk,
      bookie: best.bookie,
      marketRef: best.marketRef,
      stakeCents: stake.cents,
      ...(best.sessionId ? { sessionId: best.sessionId } : {}),
    });
  }
  const gate = await checkBettable(ctx, interaction, stake.cents);
  const routed = await routeToBestPrice(ctx, {
    chosen: gate.settings.sessions,
    epk: best.epk,
    market: best.market,
    selection: best.selection,
    stakeCents: stake.cents,
    fundAccounts: (await ctx.bank.fundAccounts?.(gate.guildId)) ?? null,
  });
  try {
    await postSlip(
      ctx,
      interaction,
      {
        epk: best.epk,
        bookie: routed.bookie,
        marketRef: routed.marketRef,
        stakeCents: stake.cents,
        routed: { sessionId: routed.sessionId, live: routed.price, route: routed.route },
      },
      gate,
    );
  } catch (err) {
    if (!(err instanceof UserFacingError)) throw err;
    const others = routed.ranked.filter((r) => r.sessionId !== routed.sessionId);
    await offerOthers(ctx, interaction, userMessage(err), others, { epk: best.epk, stakeCents: stake.cents });
  }
};

/** The refusal, with a button per other book that can take the bet (or, with none, what to do). */
async function offerOthers(
  ctx: BettingDeps,
  interaction: ModalSubmitInteraction,
  refusal: string,
  others: readonly PricedBook[],
  bet: { epk: string; stakeCents: number },
): Promise<void> {
  if (others.length === 0) {
    return replyEphemeral(interaction, `${refusal} No other book can take this bet now: run /compare again later.`);
  }
  const buttons = [];
  for (const o of others.slice(0, LIMITS.buttonsPerRow)) {
    const value: AtBookRef = { ...bet, bookie: o.bookie, marketRef: o.marketRef, sessionId: o.sessionId };
    buttons.push({
      type: ComponentType.Button as const,
      style: ButtonStyle.Primary as const,
      custom_id: encodeCustomId('cmp', 'at', await putRef(ctx.store, value, ownerOf(interaction))),
      label: clip(`Bet at ${o.bookie} ${formatOdds(o.price)}`, LIMITS.buttonLabel),
    });
  }
  const view = noticeView(`${refusal}\nThese books can take it instead:`);
  await interaction.followUp({
    embeds: view.embeds,
    components: [{ type: ComponentType.ActionRow, components: buttons }],
    flags: MessageFlags.Ephemeral,
  });
}

const betAtBook: ComponentHandler<BettingDeps> = async (interaction, [ref], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const at = ref ? await getRef<AtBookRef>(ctx.store, ref) : undefined;
  if (!at) throw new UserFacingError('This offer is too old to bet from. Run /compare again.');
  const { stake: _dollars, ...bet } = at;
  await postSlip(ctx, interaction, { ...bet, stakeCents: storedStakeCents(at) });
};

export const COMPARE_COMPONENTS: Record<string, ComponentRoute<BettingDeps>> = {
  'cmp:bet': buttonRoute(betAtBest),
  'cmp:stake': modalRoute(stakeAtBest),
  'cmp:at': buttonRoute(betAtBook),
};
