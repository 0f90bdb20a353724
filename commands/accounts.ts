import { InteractionContextType, MessageFlags, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { accountsView } from '../src/bot/accounts/views/accounts.js';
import type { Command } from '../src/bot/context.js';
import { replyEphemeral } from '../src/bot/discord/interact.js';

export const data = new SlashCommandBuilder()
  .setName('accounts')
  .setDescription('Health of each bookmaker session: limits, restrictions, refusals (Manage Server)')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild);

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const guildId = interaction.guildId;
  if (!guildId) return replyEphemeral(interaction, "Accounts belong to a server's desk: run /accounts there.");
  if (!interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) {
    return replyEphemeral(interaction, 'Only members with Manage Server can read account health.');
  }
  // Reading the list is itself evidence: a session seen inactive now is announced as offline (once).
  const rows = await ctx.accounts.all({ guildId, guildKey: guildId, channelId: interaction.channelId });
  const view = accountsView(rows);
  await interaction.editReply({ embeds: view.embeds, components: [] });
};

export default { data, execute } satisfies Command;
