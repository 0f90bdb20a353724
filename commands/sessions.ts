import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { sessionsView } from '../src/bot/betting/views/desk.js';
import type { Command } from '../src/bot/context.js';

export const data = new SlashCommandBuilder()
  .setName('sessions')
  .setDescription("The desk's betting sessions and their state")
  .setContexts(InteractionContextType.Guild);

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const sessions = await ctx.gateway.sessions.list();
  const view = sessionsView(sessions);
  await interaction.editReply({ embeds: view.embeds, components: [] });
};

export default { data, execute } satisfies Command;
