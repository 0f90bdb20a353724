import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { balancesView } from '../src/bot/betting/views/desk.js';
import { sessionsForChoices } from '../src/bot/catalog/handlers/choices.js';
import type { Command } from '../src/bot/context.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import { matchText } from '../src/bot/model/match-text.js';
import { userMessage } from '../src/bot/model/user-errors.js';

export const data = new SlashCommandBuilder()
  .setName('balance')
  .setDescription("Balances of the desk's active sessions")
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) => o.setName('bookie').setDescription('Only this book').setAutocomplete(true));

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const bookie = interaction.options.getString('bookie')?.trim();
  const sessions = await ctx.catalog.loadSessions();
  const books = [...new Set(sessions.map((s) => s.bookie))];
  if (bookie && !books.includes(bookie)) {
    return replyEphemeral(
      interaction,
      `No session for "${bookie}". Books on this desk: ${books.join(', ') || 'none'}.`,
    );
  }
  const chosen = sessions.filter((s) => s.active && (!bookie || s.bookie === bookie));
  const rows = [];
  for (const session of chosen) {
    try {
      rows.push({ session, balance: await ctx.gateway.balances.get({ session_id: session.session_id }) });
    } catch (err) {
      rows.push({ session, error: userMessage(err) });
    }
  }
  const view = balancesView(rows);
  await interaction.editReply({ embeds: view.embeds, components: [] });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const sessions = await sessionsForChoices(ctx);
  const books = [...new Set(sessions.map((s) => s.bookie))].sort();
  await respondChoices(
    interaction,
    matchText(books, interaction.options.getFocused(), (b) => b).map((b) => ({ name: b, value: b })),
  );
};

export default { data, execute, autocomplete } satisfies Command;
