import { ActionRowBuilder, type ModalSubmitInteraction, TextInputBuilder, TextInputStyle } from 'discord.js';
import { type CentsRead, formatCentsDecimal, readCents } from '../../model/money.js';

// The fields the stake forms share (a sports selection, a racing runner, a promo) and how they are read back.

/** A field read back from a submitted form: its value, or what to tell the member. */
export type FieldRead<T> = { ok: true; value: T } | { ok: false; message: string };

const rowOf = (input: TextInputBuilder) => new ActionRowBuilder<TextInputBuilder>().addComponents(input);

/** The stake in dollars, required; `suggestedCents` (the suggested Kelly stake) is offered as its value. */
export function stakeField(suggestedCents?: number): ActionRowBuilder<TextInputBuilder> {
  const input = new TextInputBuilder()
    .setCustomId('stake')
    .setLabel(suggestedCents ? 'Stake in dollars (suggested filled in)' : 'Stake in dollars')
    .setPlaceholder('e.g. 10 or 12.50')
    .setStyle(TextInputStyle.Short)
    .setRequired(true)
    .setMaxLength(12);
  if (suggestedCents && suggestedCents > 0) input.setValue(formatCentsDecimal(suggestedCents));
  return rowOf(input);
}

/** The lowest price the member takes, optional; `example` is a price typical of the form's bets. */
export function minOddsField(example: string): ActionRowBuilder<TextInputBuilder> {
  return rowOf(
    new TextInputBuilder()
      .setCustomId('min_odds')
      .setLabel('Min odds (optional)')
      .setPlaceholder(`refuse below this price, e.g. ${example}`)
      .setStyle(TextInputStyle.Short)
      .setRequired(false)
      .setMaxLength(8),
  );
}

/** The stake typed into a form, in whole cents (what the slip request carries), or what to tell the member. */
export function readStake(interaction: ModalSubmitInteraction): CentsRead {
  return readCents(interaction.fields.getTextInputValue('stake'), 'stake');
}

/** undefined when left empty. */
export function readMinOdds(interaction: ModalSubmitInteraction, example: string): FieldRead<number | undefined> {
  const text = interaction.fields.getTextInputValue('min_odds')?.trim() ?? '';
  const minOdds = text === '' ? undefined : Number(text);
  return minOdds !== undefined && !Number.isFinite(minOdds)
    ? {
        ok: false,
        message: `"${text.slice(0, 20)}" is not odds. Enter decimal odds such as ${example}, or leave it empty.`,
      }
    : { ok: true, value: minOdds };
}
