import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { compareMarket } from '../src/bot/betting/compare.js';
import type { BestPriceRef } from '../src/bot/betting/handlers/compare.js';
import { compareView } from '../src/bot/betting/views/compare.js';
import {
  eventChoices,
  resolveEventOption,
  sharedMarketChoices,
  sharedSelectionChoices,
} from '../src/bot/catalog/handlers/choices.js';
import { ownerOf, putRef } from '../src/bot/catalog/refs.js';
import type { Command } from '../src/bot/context.js';
import { respondChoices } from '../src/bot/discord/interact.js';
import { DEFAULT_MARGIN_METHOD } from '../src/bot/model/fair-price.js';
import { getSettings } from '../src/bot/settings/guild-settings.js';

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
  const settings = interaction.guildId ? await getSettings(ctx.store, interaction.guildId) : undefined;
  const method = settings?.marginMethod ?? DEFAULT_MARGIN_METHOD;
  const chosen = settings?.sessions ?? {};
  const result = await compareMarket(ctx, { epk, market, method, chosen, ...(selection ? { selection } : {}) });
  const betRefs = new Map<string, string>();
  for (const row of result.rows) {
    if (!row.best) continue;
    const { bookie, marketRef, sessionId, price } = row.best;
    const ref: BestPriceRef = { epk, bookie, marketRef, sessionId, price, market, selection: row.key };
    betRefs.set(row.key, await putRef(ctx.store, ref, ownerOf(interaction)));
  }
  const view = compareView({ ...result, betRefs });
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};

/** Choices come from the first listed book's cached card: autocomplete cannot wait for the gateway. */
export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const focused = interaction.options.getFocused(true);
  const eventOpt = interaction.options.getString('event');
  let choices: Awaited<ReturnType<typeof eventChoices>>;
  if (focused.name === 'event') choices = await eventChoices(ctx, focused.value, interaction);
  else if (focused.name === 'market') {
    choices = await sharedMarketChoices(ctx, eventOpt, focused.value, interaction.user.id);
  } else {
    const market = interaction.options.getString('market');
    choices = await sharedSelectionChoices(ctx, eventOpt, market, focused.value, interaction.user.id);
  }
  await respondChoices(interaction, choices);
};

export default { data, execute, autocomplete } satisfies Command;
