import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { exposureReport, stakeOfProposal, stakeOfRecord } from '../src/bot/betting/exposure.js';
import { exposureView } from '../src/bot/betting/views/exposure.js';
import { eventChoices, resolveEventOption } from '../src/bot/catalog/handlers/choices.js';
import type { Command } from '../src/bot/context.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import { riskLines } from '../src/bot/fund/fund-risk.js';
import { limitLines } from '../src/bot/fund/model/risk-limits.js';
import { dayIn } from '../src/bot/model/dates.js';
import { getSettings, stakeLimits } from '../src/bot/settings/guild-settings.js';

export const data = new SlashCommandBuilder()
  .setName('exposure')
  .setDescription('Open stake and the room left under each cap, per event, market, member and account')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) => o.setName('event').setDescription('Only this event').setAutocomplete(true));

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const guildId = interaction.guildId;
  if (!guildId) return replyEphemeral(interaction, 'Exposure belongs to a server: run /exposure there.');
  const eventOpt = interaction.options.getString('event')?.trim();
  const epk = eventOpt ? await resolveEventOption(ctx, eventOpt) : undefined;
  const settings = await getSettings(ctx.store, guildId);
  const bankCents = (await ctx.bank.bankFor(guildId))?.cents ?? null;
  const day = dayIn(ctx.now(), settings.timezone);
  const records = await ctx.records.forExposure(guildId, day);
  const proposals = await ctx.proposals.holding(guildId);
  const slips = ctx.slips;
  const stakes = [
    ...records.map((r) => stakeOfRecord(r, day)),
    // A proposal being placed has its record already: count it once, as the record.
    ...(await Promise.all(
      proposals
        .filter((p) => !records.some((r) => r.slipId === p.slipId))
        .map(async (p) => stakeOfProposal(p, (await slips.get(p.slipId))?.payload, day)),
    )),
  ];
  // Accounts are named by their user names at the books, as on slips (ids stay for /sessions and exports).
  const sessions = (await ctx.catalog.peekSessions()) ?? (await ctx.catalog.loadSessions().catch(() => []));
  const accountNames = Object.fromEntries(sessions.map((s) => [s.session_id, s.username ?? '']));
  const report = exposureReport({
    stakes,
    accountNames,
    settings,
    memberDayCents: stakeLimits(settings, ctx.config.tunables, bankCents).perDayCents,
    bankCents,
    ...(epk === undefined ? {} : { epk }),
  });
  if (epk !== undefined && report.event && report.totalOpenCents === 0) {
    const event = await ctx.catalog.event(epk);
    report.event = { epk, name: event?.name ?? epk };
  }
  const risk = limitLines(await riskLines(ctx, guildId, settings.timezone, epk));
  const view = exposureView(report, day, risk);
  await interaction.editReply({ embeds: view.embeds, components: [] });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  await respondChoices(interaction, await eventChoices(ctx, interaction.options.getFocused(), interaction));
};

export default { data, execute, autocomplete } satisfies Command;
