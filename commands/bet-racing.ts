import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import {
  answerRaceOption,
  postRacingSlip,
  raceNumberOption,
  readRaceBetOptions,
  runnerChoices,
} from '../src/bot/betting/handlers/racing.js';
import type { Command } from '../src/bot/context.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import { BOOST_WORDS, REFUND_TYPES, REFUND_WORDS } from '../src/bot/model/racing-bet.js';

export const data = new SlashCommandBuilder()
  .setName('bet-racing')
  .setDescription('Build a racing bet slip (win or place, price-checked) to confirm with a button')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o.setName('track').setDescription('Track, with its race type').setRequired(true).setAutocomplete(true),
  )
  .addIntegerOption(raceNumberOption)
  .addStringOption((o) => o.setName('runner').setDescription('The runner').setRequired(true).setAutocomplete(true))
  .addStringOption((o) =>
    o
      .setName('market')
      .setDescription('win or place')
      .setRequired(true)
      .addChoices({ name: 'win', value: 'win' }, { name: 'place', value: 'place' }),
  )
  .addNumberOption((o) => o.setName('stake').setDescription('Stake in dollars, e.g. 10').setRequired(true))
  .addNumberOption((o) => o.setName('min_odds').setDescription('Refuse if the live price is below this'))
  .addStringOption((o) =>
    o.setName('date').setDescription("today, tomorrow or YYYY-MM-DD, the track's local day (default today)"),
  )
  .addStringOption((o) =>
    o.setName('bookie').setDescription('The book (default: the first active)').setAutocomplete(true),
  )
  .addBooleanOption((o) =>
    o.setName('use_bonus_bet').setDescription('Spend a bonus token worth the stake (the session must hold one)'),
  )
  .addStringOption((o) =>
    o
      .setName('refund')
      .setDescription("Stake back if the runner runs a place (only where the race's promo offers it; see /promos)")
      .addChoices(...REFUND_TYPES.map((t) => ({ name: REFUND_WORDS[t], value: t }))),
  )
  .addStringOption((o) =>
    o
      .setName('boost')
      .setDescription("A boost of the book's: strictly (refused where it has none for the race) or if it offers one")
      .addChoices({ name: BOOST_WORDS.strict, value: 'strict' }, { name: BOOST_WORDS.if_offered, value: 'if_offered' }),
  );

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const market = interaction.options.getString('market', true);
  if (market !== 'win' && market !== 'place') return replyEphemeral(interaction, 'The market must be win or place.');
  const useBonusBet = interaction.options.getBoolean('use_bonus_bet') ?? false;
  const refund = REFUND_TYPES.find((t) => t === interaction.options.getString('refund'));
  const boost = (['strict', 'if_offered'] as const).find((b) => b === interaction.options.getString('boost'));
  const bet = await readRaceBetOptions(ctx, interaction);
  if (!bet) return;
  await postRacingSlip(ctx, interaction, {
    ...bet,
    runner: interaction.options.getString('runner', true).trim(),
    market,
    ...(useBonusBet ? { useBonusBet } : {}),
    ...(refund ? { refund } : {}),
    ...(boost ? { boost } : {}),
  });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const asked = await answerRaceOption(interaction, ctx);
  if (!asked.answered) await respondChoices(interaction, await runnerChoices(ctx, asked.race, asked.typed));
};

export default { data, execute, autocomplete } satisfies Command;
