import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { showPromos } from '../src/bot/betting/handlers/promos.js';
import { ownerOf } from '../src/bot/catalog/refs.js';
import type { Command } from '../src/bot/context.js';

export const data = new SlashCommandBuilder()
  .setName('promos')
  .setDescription("The syndicate's active account promos; place a bet-boost card from here")
  .setContexts(InteractionContextType.Guild);

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const view = await showPromos(ctx, ownerOf(interaction));
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};

export default { data, execute } satisfies Command;
