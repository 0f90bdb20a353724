/** "Bet at best" under a /compare answer: asks the stake, then starts the normal slip at that book. */

import { ActionRowBuilder, MessageFlags, ModalBuilder, TextInputBuilder, TextInputStyle } from 'discord.js';
import { parseStake } from '../betting/odds.js';
import { assertMayBet, postSlip } from '../betting/slip-post.js';
import type { ComponentHandler } from '../discord/component-handler.js';
import { encodeCustomId } from '../discord/custom-id.js';
import { replyEphemeral } from '../discord/interact.js';
import { getRef } from '../discord/refs.js';
import { UserFacingError } from '../discord/user-errors.js';

export interface BestPriceRef {
  epk: string;
  bookie: string;
  marketRef: string;
  /** The session whose price was best: the slip goes through it (absent in refs stored before it was kept). */
  sessionId?: string;
}

/** A modal must be the first answer to the click, so no gateway call here. */
const betAtBest: ComponentHandler = async (interaction, [ref], ctx) => {
  if (!interaction.isButton()) return;
  await assertMayBet(ctx, interaction);
  await interaction.showModal(
    new ModalBuilder()
      .setCustomId(encodeCustomId('cmp', 'stake', ref ?? ''))
      .setTitle('Stake at the best price')
      .addComponents(
        new ActionRowBuilder<TextInputBuilder>().addComponents(
          new TextInputBuilder()
            .setCustomId('stake')
            .setLabel('Stake in dollars')
            .setPlaceholder('e.g. 10 or 12.50')
            .setStyle(TextInputStyle.Short)
            .setRequired(true)
            .setMaxLength(12),
        ),
      ),
  );
};

const stakeAtBest: ComponentHandler = async (interaction, [ref], ctx) => {
  if (!interaction.isModalSubmit()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const text = interaction.fields.getTextInputValue('stake');
  const stake = parseStake(text);
  if (stake === undefined) {
    return replyEphemeral(interaction, `"${text.slice(0, 20)}" is not a stake. Enter dollars such as 10 or 12.50.`);
  }
  const best = ref ? await getRef<BestPriceRef>(ctx.store, ref) : undefined;
  if (!best) throw new UserFacingError('This comparison is too old to bet from. Run /compare again.');
  await postSlip(ctx, interaction, {
    epk: best.epk,
    bookie: best.bookie,
    marketRef: best.marketRef,
    stake,
    ...(best.sessionId ? { sessionId: best.sessionId } : {}),
  });
};

export const COMPARE_COMPONENTS: Record<string, ComponentHandler> = {
  'cmp:bet': betAtBest,
  'cmp:stake': stakeAtBest,
};
