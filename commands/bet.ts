import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import {
  bookieChoices,
  eventChoices,
  marketChoices,
  resolveEventOption,
  resolveRefOption,
  selectionChoices,
} from '../src/bot/choices.js';
import type { Command } from '../src/bot/command.js';
import { respondChoices } from '../src/bot/interact.js';
import { postSlip } from '../src/bot/slip-post.js';

export const data = new SlashCommandBuilder()
  .setName('bet')
  .setDescription('Build a price-checked bet slip (needs the bet role; until one is set, only Manage Server)')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) => o.setName('event').setDescription('The event').setRequired(true).setAutocomplete(true))
  .addStringOption((o) => o.setName('bookie').setDescription('The book').setRequired(true).setAutocomplete(true))
  .addStringOption((o) => o.setName('market').setDescription('The market').setRequired(true).setAutocomplete(true))
  .addStringOption((o) =>
    o.setName('selection').setDescription('The selection').setRequired(true).setAutocomplete(true),
  )
  .addNumberOption((o) => o.setName('stake').setDescription('Stake in dollars, e.g. 10').setRequired(true))
  .addNumberOption((o) => o.setName('min_odds').setDescription('Refuse if the live price is below this'));

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const epk = await resolveEventOption(ctx, interaction.options.getString('event', true));
  const minOdds = interaction.options.getNumber('min_odds') ?? undefined;
  await postSlip(ctx, interaction, {
    epk,
    bookie: interaction.options.getString('bookie', true).trim(),
    marketRef: await resolveRefOption(ctx, interaction.options.getString('selection', true).trim(), 'selection'),
    stake: interaction.options.getNumber('stake', true),
    ...(minOdds === undefined ? {} : { minOdds }),
  });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const focused = interaction.options.getFocused(true);
  const eventOpt = interaction.options.getString('event');
  const bookie = interaction.options.getString('bookie');
  const market = interaction.options.getString('market');
  let choices: Awaited<ReturnType<typeof eventChoices>>;
  if (focused.name === 'event') choices = await eventChoices(ctx, focused.value);
  else if (focused.name === 'bookie') choices = await bookieChoices(ctx, eventOpt, focused.value, { forBetting: true });
  else if (focused.name === 'market') choices = await marketChoices(ctx, eventOpt, bookie, focused.value);
  else choices = await selectionChoices(ctx, eventOpt, bookie, market, focused.value);
  await respondChoices(interaction, choices);
};

export default { data, execute, autocomplete } satisfies Command;
