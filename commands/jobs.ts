import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { jobsView } from '../src/bot/betting/views/desk.js';
import type { Command } from '../src/bot/context.js';
import { replyEphemeral } from '../src/bot/discord/interact.js';

export const data = new SlashCommandBuilder()
  .setName('jobs')
  .setDescription('Pending and recent gateway jobs of this server (bets and their results)')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) => o.setName('id').setDescription("One job's correlation id"));

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const id = interaction.options.getString('id')?.trim();
  if (id) {
    const job = await ctx.jobs.get(id);
    if (!job || (job.guildId !== null && job.guildId !== interaction.guildId)) {
      return replyEphemeral(
        interaction,
        `No job ${id.slice(0, 80)} on this server. Run /jobs without an id to list them.`,
      );
    }
    const view = jobsView([job]);
    return void (await interaction.editReply({ embeds: view.embeds, components: [] }));
  }
  const jobs = await ctx.jobs.recent({ guildId: interaction.guildId, limit: 10 });
  const view = jobsView(jobs);
  await interaction.editReply({ embeds: view.embeds, components: [] });
};

export default { data, execute } satisfies Command;
