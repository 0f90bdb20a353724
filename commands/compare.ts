import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { eventChoices, resolveEventOption } from '../src/bot/choices.js';
import type { Command } from '../src/bot/command.js';
import { compareMarket } from '../src/bot/compare.js';
import type { BestPriceRef } from '../src/bot/compare-components.js';
import { matchText, respondChoices } from '../src/bot/interact.js';
import { putRef } from '../src/bot/refs.js';
import { bettable } from '../src/bot/views/card.js';
import { compareView } from '../src/bot/views/compare.js';

export const data = new SlashCommandBuilder()
  .setName('compare')
  .setDescription('Live prices of one market at every book, best marked; betting at the best needs the bet role')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) => o.setName('event').setDescription('The event').setRequired(true).setAutocomplete(true))
  .addStringOption((o) =>
    o.setName('market').setDescription('The market (named markets only)').setRequired(true).setAutocomplete(true),
  )
  .addStringOption((o) =>
    o.setName('selection').setDescription('Only this selection (default: all)').setAutocomplete(true),
  );

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const epk = await resolveEventOption(ctx, interaction.options.getString('event', true));
  const market = interaction.options.getString('market', true).trim();
  const selection = interaction.options.getString('selection')?.trim() || undefined;
  const result = await compareMarket(ctx, { epk, market, ...(selection ? { selection } : {}) });
  const betRefs = new Map<string, string>();
  for (const row of result.rows) {
    if (!row.best || row.best.price === null) continue;
    const ref: BestPriceRef = { epk, bookie: row.best.bookie, marketRef: row.best.marketRef };
    betRefs.set(row.key, await putRef(ctx.store, ref));
  }
  const view = compareView({ ...result, betRefs });
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};

/** Choices come from the first listed book's cached card: autocomplete cannot wait for the gateway. */
export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const focused = interaction.options.getFocused(true);
  if (focused.name === 'event') return respondChoices(interaction, await eventChoices(ctx, focused.value));
  const eventOpt = interaction.options.getString('event');
  const epk = eventOpt ? await resolveEventOption(ctx, eventOpt).catch(() => undefined) : undefined;
  const event = epk ? await ctx.catalog.event(epk) : undefined;
  let markets: Array<{ market: string; label: string; tier: string; selections: unknown[] }> = [];
  for (const bookie of event?.books ?? []) {
    const card = await ctx.catalog.peekCard(event?.event_id ?? '', bookie);
    if (card) {
      markets = card.markets.filter((m) => m.tier !== 'unmapped' && bettable(m).length > 0);
      break;
    }
  }
  if (focused.name === 'market') {
    return respondChoices(
      interaction,
      matchText(markets, focused.value, (m) => `${m.label} ${m.market}`).map((m) => ({
        name: m.label,
        value: m.market,
      })),
    );
  }
  const chosen = interaction.options.getString('market');
  const m = markets.find((x) => x.market === chosen) as Parameters<typeof bettable>[0] | undefined;
  const sels = m ? bettable(m) : [];
  await respondChoices(
    interaction,
    matchText(sels, focused.value, (s) => s.label).map((s) => ({ name: s.label, value: s.slug ?? s.label })),
  );
};

export default { data, execute, autocomplete } satisfies Command;
