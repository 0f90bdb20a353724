import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { leaderboard } from '../src/bot/analytics/leaderboard.js';
import { DEFAULT_SKILL_MIN_BETS } from '../src/bot/analytics/skill.js';
import { analyticsSource } from '../src/bot/analytics/source.js';
import { leaderboardView } from '../src/bot/analytics/views/stats.js';
import type { Command } from '../src/bot/context.js';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 90;

export const data = new SlashCommandBuilder()
  .setName('leaderboard')
  .setDescription('Members ranked by closing line value (not by profit), surest edge first')
  .setContexts(InteractionContextType.Guild)
  .addIntegerOption((o) =>
    o
      .setName('days')
      .setDescription(`Bets placed in the last N days (default ${DEFAULT_DAYS})`)
      .setMinValue(1)
      .setMaxValue(3650),
  )
  .addIntegerOption((o) =>
    o
      .setName('min_bets')
      .setDescription(`Bets with a captured close needed to be ranked (default ${DEFAULT_SKILL_MIN_BETS})`)
      .setMinValue(2)
      .setMaxValue(10_000),
  );

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const days = interaction.options.getInteger('days') ?? DEFAULT_DAYS;
  const minBets = interaction.options.getInteger('min_bets') ?? DEFAULT_SKILL_MIN_BETS;
  const facts = await analyticsSource(ctx).facts({ guild: interaction.guildId, since: ctx.now() - days * DAY_MS });
  const view = leaderboardView(
    leaderboard(facts, minBets),
    `Last ${days} day${days === 1 ? '' : 's'} · at least ${minBets} bet${minBets === 1 ? '' : 's'} with a close`,
  );
  await interaction.editReply({ embeds: view.embeds, components: [] });
};

export default { data, execute } satisfies Command;
