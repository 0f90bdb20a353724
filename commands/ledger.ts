import {
  AttachmentBuilder,
  type ChatInputCommandInteraction,
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  SlashCommandBuilder,
} from 'discord.js';
import { recordBalanceChecks } from '../src/bot/audit/balance-check.js';
import { checksOf, reconcileDay, reconciliationView } from '../src/bot/audit/daily-reconciliation.js';
import type { BotContext, Command } from '../src/bot/context.js';
import { replyEphemeral } from '../src/bot/discord/interact.js';
import { ledgerCsv, verifyText } from '../src/bot/ledger/ledger-repo.js';
import { dayIn, dayStart } from '../src/bot/model/dates.js';
import { getSettings } from '../src/bot/settings/guild-settings.js';

export const data = new SlashCommandBuilder()
  .setName('ledger')
  .setDescription("The syndicate's append-only ledger: check its hash chain or export it (Manage Server)")
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) => s.setName('verify').setDescription('Walk the hash chain and name the first broken entry'))
  .addSubcommand((s) =>
    s
      .setName('reconcile')
      .setDescription("Check the ledger against every session's transactions now; posts to the results channel")
      .addStringOption((o) => o.setName('day').setDescription('The day, YYYY-MM-DD (default: today)')),
  )
  .addSubcommand((s) =>
    s
      .setName('export')
      .setDescription("This server's entries as a CSV file")
      .addStringOption((o) => o.setName('from').setDescription('First day, YYYY-MM-DD (default: 30 days ago)'))
      .addStringOption((o) => o.setName('to').setDescription('Last day, YYYY-MM-DD (default: today)')),
  );

/** What each subcommand gets: the interaction, the context and the server (Manage Server already checked). */
interface LedgerCall {
  interaction: ChatInputCommandInteraction;
  ctx: BotContext;
  guildId: string;
}

const verify = async ({ interaction, ctx }: LedgerCall) => {
  const result = await ctx.ledger.verify();
  return replyEphemeral(interaction, verifyText(result), result.ok ? 'ok' : 'error');
};

const reconcile = async ({ interaction, ctx, guildId }: LedgerCall) => {
  const { timezone, resultsChannelId } = await getSettings(ctx.store, guildId);
  const day = interaction.options.getString('day')?.trim() || dayIn(ctx.now(), timezone);
  if (dayStart(day, timezone) === undefined) {
    return replyEphemeral(interaction, `"${day.slice(0, 20)}" is not a date. Use YYYY-MM-DD.`);
  }
  const channelId = resultsChannelId ?? interaction.channelId;
  // Reading every session's transactions can take a while under load: answered now, posted when done.
  void reconcileDay({
    store: ctx.store,
    gateway: ctx.gateway,
    callbackUrl: ctx.callbackUrl,
    guildKey: guildId,
    day,
    timezone,
    now: ctx.now(),
  })
    .then(async (report) => {
      await ctx.poster.post(channelId, reconciliationView(report));
      await recordBalanceChecks(ctx.store, guildId, checksOf(report), ctx.now(), interaction.user.id);
    })
    .catch((err) => ctx.logger.warn('reconciliation on demand failed', { err, day }));
  return replyEphemeral(
    interaction,
    `Reconciliation of ${day} started: the report is posted in <#${channelId}> when every session's transactions are read.`,
    'info',
  );
};

const exportCsv = async ({ interaction, ctx, guildId }: LedgerCall) => {
  const { timezone } = await getSettings(ctx.store, guildId);
  const today = dayIn(ctx.now(), timezone);
  const fromText = interaction.options.getString('from')?.trim() || dayIn(ctx.now() - 30 * 86_400_000, timezone);
  const toText = interaction.options.getString('to')?.trim() || today;
  const from = dayStart(fromText, timezone);
  const toDay = dayStart(toText, timezone);
  if (from === undefined || toDay === undefined) {
    const bad = from === undefined ? fromText : toText;
    return replyEphemeral(interaction, `"${bad.slice(0, 20)}" is not a date. Use YYYY-MM-DD, e.g. ${today}.`);
  }
  if (toDay < from) return replyEphemeral(interaction, `"to" (${toText}) is before "from" (${fromText}). Swap them.`);
  // The end is the start of the day after `to` (a day is not always 24 h across a clock change).
  const to = dayStart(dayIn(toDay + 36 * 3_600_000, timezone), timezone) ?? toDay + 86_400_000;
  const entries = await ctx.ledger.range(guildId, from, to);
  const file = new AttachmentBuilder(Buffer.from(ledgerCsv(entries), 'utf8'), {
    name: `ledger-${fromText}-to-${toText}.csv`,
  });
  await interaction.editReply({
    content: `${entries.length} ledger entr${entries.length === 1 ? 'y' : 'ies'} from ${fromText} to ${toText} (${timezone}).`,
    files: [file],
  });
};

/** Each subcommand of /ledger by name, as /settings routes its own. */
const SUBCOMMANDS: Record<string, (call: LedgerCall) => Promise<unknown>> = { verify, reconcile, export: exportCsv };

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const guildId = interaction.guildId;
  if (!guildId) return replyEphemeral(interaction, 'The ledger belongs to a server: run /ledger there.');
  if (!interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) {
    return replyEphemeral(interaction, 'Only members with Manage Server can read the ledger.');
  }
  const run = SUBCOMMANDS[interaction.options.getSubcommand()] ?? exportCsv;
  await run({ interaction, ctx, guildId });
};

export default { data, execute } satisfies Command;
