import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { openCard } from '../src/bot/catalog/handlers/card-show.js';
import { bookieChoices, eventChoices, marketChoices, resolveEventOption } from '../src/bot/catalog/handlers/choices.js';
import { ownerOf } from '../src/bot/catalog/refs.js';
import type { Command } from '../src/bot/context.js';
import { acksSent } from '../src/bot/discord/intake.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import { Tier } from '../src/gateway/index.js';

export const data = new SlashCommandBuilder()
  .setName('markets')
  .setDescription("A book's market card: markets, selections, odds; betting from it needs the bet role")
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) => o.setName('event').setDescription('The event').setRequired(true).setAutocomplete(true))
  .addStringOption((o) =>
    o.setName('bookie').setDescription('A book listing the event').setRequired(true).setAutocomplete(true),
  )
  .addStringOption((o) =>
    o
      .setName('tier')
      .setDescription('Only markets of this tier')
      .addChoices(
        { name: 'popular', value: 'popular' },
        { name: 'other', value: 'other' },
        { name: 'this book only', value: 'unmapped' },
      ),
  )
  .addStringOption((o) => o.setName('market').setDescription('Only this market').setAutocomplete(true));

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  // Under a burst, the other members' acknowledgements leave before this card's read and rendering.
  await acksSent();
  const epk = await resolveEventOption(ctx, interaction.options.getString('event', true));
  const bookie = interaction.options.getString('bookie', true).trim();
  const tierOption = interaction.options.getString('tier');
  // Discord offers only the three tiers as choices.
  const tier = tierOption === null ? undefined : Tier.parse(tierOption);
  const market = interaction.options.getString('market')?.trim() || undefined;
  const event = await ctx.catalog.event(epk);
  if (event?.books && !event.books.includes(bookie)) {
    return replyEphemeral(
      interaction,
      `${bookie} does not list this event. Books that do: ${event.books.join(', ') || 'none yet'}.`,
    );
  }
  const cardRef = {
    epk,
    bookie,
    eventName: event?.name ?? epk,
    ...(event?.start_time ? { startTime: event.start_time } : {}),
    ...(tier ? { tier } : {}),
    ...(market && !market.startsWith('#') ? { market } : {}),
  };
  // Over the card limit the read queues in the client library; the member is told how long, once.
  const view = await openCard(ctx, cardRef, ownerOf(interaction), (content) => interaction.editReply({ content }));
  await interaction.editReply({ content: '', embeds: view.embeds, components: view.components });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const focused = interaction.options.getFocused(true);
  const eventOpt = interaction.options.getString('event');
  const bookie = interaction.options.getString('bookie');
  const choices =
    focused.name === 'event'
      ? await eventChoices(ctx, focused.value, interaction)
      : focused.name === 'bookie'
        ? await bookieChoices(ctx, eventOpt, focused.value)
        : await marketChoices(ctx, eventOpt, bookie, focused.value, interaction.user.id);
  await respondChoices(interaction, choices);
};

export default { data, execute, autocomplete } satisfies Command;
