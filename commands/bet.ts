import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { postBestPriceSlip } from '../src/bot/betting/handlers/best-price.js';
import { stakeOptionCents } from '../src/bot/betting/handlers/bet-gate.js';
import { postSlip } from '../src/bot/betting/handlers/slip-post.js';
import {
  resolveEventOption,
  resolveRefOption,
  selectionRefAt,
  slipOptionChoices,
} from '../src/bot/catalog/handlers/choices.js';
import type { Command } from '../src/bot/context.js';
import { respondChoices } from '../src/bot/discord/interact.js';
import { booksLeftOutNow } from '../src/bot/watch/takers.js';

// Discord lists required options first, so the optional book comes after the stake.
export const data = new SlashCommandBuilder()
  .setName('bet')
  .setDescription('Build a price-checked bet slip (needs the bet role; until one is set, only Manage Server)')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) => o.setName('event').setDescription('The event').setRequired(true).setAutocomplete(true))
  .addStringOption((o) => o.setName('market').setDescription('The market').setRequired(true).setAutocomplete(true))
  .addStringOption((o) =>
    o.setName('selection').setDescription('The selection').setRequired(true).setAutocomplete(true),
  )
  .addNumberOption((o) => o.setName('stake').setDescription('Stake in dollars, e.g. 10').setRequired(true))
  .addStringOption((o) =>
    o
      .setName('bookie')
      .setDescription('The book (leave out: the best live price among the books that can take the stake)')
      .setAutocomplete(true),
  )
  .addNumberOption((o) => o.setName('min_odds').setDescription('Refuse if the live price is below this'));

export const execute: Command['execute'] = async (interaction, ctx) => {
  // Price checks at several books can take longer than Discord's 3 s: acknowledge first.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const epk = await resolveEventOption(ctx, interaction.options.getString('event', true));
  const minOdds = interaction.options.getNumber('min_odds') ?? undefined;
  const bookie = interaction.options.getString('bookie')?.trim() || undefined;
  const market = interaction.options.getString('market', true).trim();
  const selection = await resolveRefOption(ctx, interaction.options.getString('selection', true).trim(), 'selection');
  const stake = interaction.options.getNumber('stake', true);
  const odds = minOdds === undefined ? {} : { minOdds };
  if (!bookie) {
    const stakeCents = await stakeOptionCents(ctx, interaction, stake);
    return postBestPriceSlip(ctx, interaction, { epk, market, selection, stakeCents, ...odds });
  }
  const marketRef = await selectionRefAt(ctx, { epk, bookie, market, selection });
  const stakeCents = await stakeOptionCents(ctx, interaction, stake);
  await postSlip(ctx, interaction, { epk, bookie, marketRef, stakeCents, ...odds });
};

/** With a book chosen, its own card (values are market_refs); without, markets and selections every book shares. */
export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const focused = interaction.options.getFocused(true);
  const eventOpt = interaction.options.getString('event');
  const bookie = interaction.options.getString('bookie')?.trim() || null;
  const market = interaction.options.getString('market');
  const member = interaction.user.id;
  const choices = await slipOptionChoices(
    ctx,
    focused,
    { event: eventOpt, bookie, market, member, guildId: interaction.guildId },
    { forBetting: { member } },
  );
  // Not a book the desk heard refuse the event's sport, nor one whose card lists nothing to bet on (decision 1996).
  const epk = focused.name === 'bookie' && eventOpt ? await resolveEventOption(ctx, eventOpt).catch(() => null) : null;
  const drop = epk ? await booksLeftOutNow(ctx, epk) : new Set<string>();
  await respondChoices(
    interaction,
    choices.filter((c) => !drop.has(String(c.value))),
  );
};

export default { data, execute, autocomplete } satisfies Command;
