/** "Bet at best" under a /compare answer: asks the stake, then starts the normal slip at that book. */

import { MessageFlags, ModalBuilder } from 'discord.js';
import { buttonRoute, type ComponentHandler, type ComponentRoute, modalRoute } from '../discord/component-handler.js';
import { encodeCustomId } from '../discord/custom-id.js';
import { replyEphemeral } from '../discord/interact.js';
import { getRef } from '../discord/refs.js';
import { UserFacingError } from '../discord/user-errors.js';
import { leftOutAtBest } from './best-price.js';
import { checkBettable, suggestedStakeFor } from './bet-gate.js';
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
}

/** A modal must be the first answer to the click, so no gateway call here. */
const betAtBest: ComponentHandler = async (interaction, [ref], ctx) => {
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

const stakeAtBest: ComponentHandler = async (interaction, [ref], ctx) => {
  if (!interaction.isModalSubmit()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const stake = readStake(interaction);
  if (!stake.ok) return replyEphemeral(interaction, stake.message);
  const best = ref ? await getRef<BestPriceRef>(ctx.store, ref) : undefined;
  if (!best) throw new UserFacingError('This comparison is too old to bet from. Run /compare again.');
  const leftOut = best.sessionId
    ? await leftOutAtBest(ctx, { ...best, sessionId: best.sessionId, stakeCents: Math.round(stake.value * 100) })
    : undefined;
  if (leftOut) return replyEphemeral(interaction, leftOut);
  await postSlip(ctx, interaction, {
    epk: best.epk,
    bookie: best.bookie,
    marketRef: best.marketRef,
    stake: stake.value,
    ...(best.sessionId ? { sessionId: best.sessionId } : {}),
  });
};

export const COMPARE_COMPONENTS: Record<string, ComponentRoute> = {
  'cmp:bet': buttonRoute(betAtBest),
  'cmp:stake': modalRoute(stakeAtBest),
};
