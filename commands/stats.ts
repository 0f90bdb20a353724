import { AttachmentBuilder, InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { multiPart } from '../src/bot/analytics/multis.js';
import { report, reportBy } from '../src/bot/analytics/report.js';
import { chartOf, profitCurve } from '../src/bot/analytics/series.js';
import { DEFAULT_SKILL_MIN_BETS, skillOf } from '../src/bot/analytics/skill.js';
import { analyticsSource } from '../src/bot/analytics/source.js';
import { edgeAtPlacement, stakeDiscipline } from '../src/bot/analytics/staking.js';
import { STATS_CHART_FILE, statsView } from '../src/bot/analytics/views/stats.js';
import { sessionsForChoices } from '../src/bot/catalog/handlers/choices.js';
import type { Command } from '../src/bot/context.js';
import { respondChoices } from '../src/bot/discord/interact.js';
import { matchText } from '../src/bot/model/match-text.js';
import { readCents } from '../src/bot/model/money.js';
import { UserFacingError } from '../src/bot/model/user-facing-error.js';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;

export const data = new SlashCommandBuilder()
  .setName('stats')
  .setDescription("Profit and closing line value of the desk's bets, with a chart")
  .setContexts(InteractionContextType.Guild)
  .addUserOption((o) => o.setName('member').setDescription("Only this member's bets (default: everyone)"))
  .addStringOption((o) => o.setName('book').setDescription('Only this book').setAutocomplete(true))
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
      .setDescription(`Bets with a close needed before saying skill or luck (default ${DEFAULT_SKILL_MIN_BETS})`)
      .setMinValue(2)
      .setMaxValue(10_000),
  )
  .addNumberOption((o) => o.setName('unit').setDescription('Dollars per unit, to show units too').setMinValue(0.01))
  .addNumberOption((o) => o.setName('bank').setDescription('Bank in dollars, for ROI on bank').setMinValue(0.01));

/** A dollar option in whole cents, or the refusal that says what to type. */
function centsTyped(value: number, noun: string): number {
  const read = readCents(value, noun);
  if (!read.ok) throw new UserFacingError(read.message);
  return read.cents;
}

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const member = interaction.options.getUser('member');
  const book = interaction.options.getString('book')?.trim() || undefined;
  const days = interaction.options.getInteger('days') ?? DEFAULT_DAYS;
  const minBets = interaction.options.getInteger('min_bets') ?? DEFAULT_SKILL_MIN_BETS;
  const unit = interaction.options.getNumber('unit');
  const bank = interaction.options.getNumber('bank');
  const facts = await analyticsSource(ctx).facts({
    guild: interaction.guildId,
    since: ctx.now() - days * DAY_MS,
    ...(member ? { member: member.id } : {}),
    ...(book ? { book } : {}),
  });
  const money = {
    ...(unit ? { unitCents: centsTyped(unit, 'unit') } : {}),
    ...(bank ? { bankCents: centsTyped(bank, 'bank') } : {}),
  };
  const scope = `${member ? `<@${member.id}>` : 'Everyone'} · ${book ?? 'every book'} · last ${days} day${days === 1 ? '' : 's'}`;
  const points = profitCurve(facts);
  // The chart engine (chart.js on a native canvas) is loaded on the first chart, not at start: most desks
  // never draw one, and it is the largest thing the bot would otherwise hold in memory.
  const curve = chartOf(points);
  const chart = curve.draw ? await import('../src/bot/analytics/chart.js') : undefined;
  const files = chart
    ? [
        new AttachmentBuilder(
          chart.renderStatsChart({ title: scope.replace(/<@(\d+)>/, member?.username ?? '$1'), points }),
          { name: STATS_CHART_FILE },
        ),
      ]
    : [];
  const multis = multiPart(facts);
  const view = statsView({
    scope: facts.length ? `${scope}${curve.note ? `\n\n${curve.note}` : ''}` : `${scope}\n\nNo bets in this window.`,
    report: report(facts, money),
    staking: { edge: edgeAtPlacement(facts), discipline: stakeDiscipline(facts) },
    byBook: book ? [] : reportBy(facts, 'book', money),
    skill: skillOf(facts, minBets),
    chart: files.length > 0,
    ...(multis ? { multis } : {}),
  });
  await interaction.editReply({ embeds: view.embeds, components: [], files });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const typed = interaction.options.getFocused();
  const sessions = await sessionsForChoices(ctx);
  const books = [...new Set(sessions.map((s) => s.bookie))].sort();
  await respondChoices(
    interaction,
    matchText(books, typed, (b) => b).map((b) => ({ name: b, value: b })),
  );
};

export default { data, execute, autocomplete } satisfies Command;
