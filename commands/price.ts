import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { raceBoard, raceDay, raceNumberChoices, raceNumberOption } from '../src/bot/betting/handlers/racing.js';
import { priceView } from '../src/bot/betting/views/desk.js';
import {
  bookieChoices,
  eventChoices,
  findMarket,
  marketChoices,
  resolveEventOption,
  resolveRefOption,
  selectionChoices,
} from '../src/bot/catalog/handlers/choices.js';
import { ownerOf } from '../src/bot/catalog/refs.js';
import type { Command } from '../src/bot/context.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import { bettable } from '../src/bot/model/markets.js';
import { matchText } from '../src/bot/model/match-text.js';
import { formatOdds } from '../src/bot/model/odds.js';
import { KNOWN_TRACKS, RACE_TYPES, resolveTrack, trackValue } from '../src/bot/model/tracks.js';

export const data = new SlashCommandBuilder()
  .setName('price')
  .setDescription('Live prices from the bookmakers (a price check)')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((s) =>
    s
      .setName('sports')
      .setDescription('Live price of one selection')
      .addStringOption((o) => o.setName('event').setDescription('The event').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('bookie').setDescription('The book').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('market').setDescription('The market').setRequired(true).setAutocomplete(true))
      .addStringOption((o) =>
        o.setName('selection').setDescription('The selection').setRequired(true).setAutocomplete(true),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('racing')
      .setDescription('Live win/place prices of a race at every active book')
      .addStringOption((o) =>
        o.setName('track').setDescription('Track, e.g. Flemington').setRequired(true).setAutocomplete(true),
      )
      .addIntegerOption(raceNumberOption)
      .addStringOption((o) =>
        o.setName('date').setDescription("today, tomorrow or YYYY-MM-DD, the track's local day (default today)"),
      )
      .addStringOption((o) => o.setName('runner').setDescription('Only this runner'))
      .addStringOption((o) =>
        o
          .setName('race_type')
          .setDescription("Race type (default: the track's own, else thoroughbred)")
          .addChoices(
            { name: 'thoroughbred', value: '(R)' },
            { name: 'greyhound', value: '(G)' },
            { name: 'harness', value: '(H)' },
          ),
      ),
  );

const sports: Command['execute'] = async (interaction, ctx) => {
  const epk = await resolveEventOption(ctx, interaction.options.getString('event', true));
  const bookie = interaction.options.getString('bookie', true).trim();
  const marketRef = await resolveRefOption(ctx, interaction.options.getString('selection', true).trim(), 'selection');
  const card = await ctx.catalog.loadCard(epk, bookie);
  const market = findMarket(card.markets, interaction.options.getString('market', true));
  const sel = card.markets.flatMap((m) => bettable(m)).find((s) => s.market_ref === marketRef);
  if (!sel) {
    return replyEphemeral(interaction, 'That selection is not on the card any more. Pick it again from the list.');
  }
  const event = await ctx.catalog.event(epk);
  const sessionId = await ctx.slipFactory.sessionFor(interaction.guildId, bookie);
  const live = await ctx.slipFactory.livePrice(
    sessionId,
    event?.sport ?? epk.split('/')[0] ?? '',
    epk,
    marketRef,
    bookie,
  );
  const view = priceView({
    title: `${sel.label} — ${market?.label ?? 'market'}`,
    subtitle: `${event?.name ?? epk} · card price ${formatOdds(sel.odds)}`,
    books: [{ bookie, rows: [{ label: sel.label, prices: [{ market: 'live', price: live }] }] }],
  });
  await interaction.editReply({ embeds: view.embeds, components: [] });
};

const racing: Command['execute'] = async (interaction, ctx) => {
  const { track, raceType } = resolveTrack(
    interaction.options.getString('track', true),
    interaction.options.getString('race_type'),
  );
  // The track's own day, as /bet-racing reads it.
  const day = await raceDay(ctx, interaction.guildId, track, interaction.options.getString('date'));
  if (!day.ok) return replyEphemeral(interaction, day.message);
  const race = interaction.options.getInteger('race', true);
  const runner = interaction.options.getString('runner')?.trim() || undefined;
  const board = await raceBoard(
    ctx,
    { track, raceType, raceNum: race, date: day.day },
    { owner: ownerOf(interaction), ...(runner ? { runner } : {}) },
  );
  if (typeof board === 'string') return replyEphemeral(interaction, board);
  await interaction.editReply({ embeds: board.embeds, components: board.components });
};

/** Each subcommand of /price by name, as /settings routes its own. */
const SUBCOMMANDS: Record<string, typeof sports> = { sports, racing };

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  await (SUBCOMMANDS[interaction.options.getSubcommand()] ?? sports)(interaction, ctx);
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const focused = interaction.options.getFocused(true);
  const eventOpt = interaction.options.getString('event');
  const bookie = interaction.options.getString('bookie');
  const member = interaction.user.id;
  let choices: Awaited<ReturnType<typeof eventChoices>>;
  if (focused.name === 'race') {
    // Integer choices: respond directly (respondChoices takes strings).
    const { track } = resolveTrack(interaction.options.getString('track') ?? '');
    const races = await raceNumberChoices(ctx, interaction.guildId, {
      track,
      date: interaction.options.getString('date'),
      typed: String(focused.value),
    });
    return void (await interaction.respond(races.slice(0, 25)).catch(() => undefined));
  }
  if (focused.name === 'track') {
    // Each track with its race type, so a greyhound or harness track is asked for as one.
    const typed = focused.value.trim();
    const known = matchText([...KNOWN_TRACKS], typed, (t) => t.track).map((t) => ({
      name: `${t.track} · ${RACE_TYPES[t.raceType]}`,
      value: trackValue(t.track, t.raceType),
    }));
    choices =
      typed && !KNOWN_TRACKS.some((t) => t.track.toLowerCase() === typed.toLowerCase())
        ? [...known, { name: typed, value: typed }]
        : known;
  } else if (focused.name === 'event') choices = await eventChoices(ctx, focused.value, interaction);
  else if (focused.name === 'bookie') choices = await bookieChoices(ctx, eventOpt, focused.value);
  else if (focused.name === 'market') choices = await marketChoices(ctx, eventOpt, bookie, focused.value, member);
  else {
    const market = interaction.options.getString('market');
    choices = await selectionChoices(ctx, eventOpt, bookie, market, focused.value, member);
  }
  await respondChoices(interaction, choices);
};

export default { data, execute, autocomplete } satisfies Command;
