import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { listingLeftOut } from '../src/bot/catalog/book-offer.js';
import { type EventsQueryRef, eventsForDay } from '../src/bot/catalog/events-query.js';
import { knownLeagues, leagueChoices } from '../src/bot/catalog/handlers/choices.js';
import { ownerOf, putRef } from '../src/bot/catalog/refs.js';
import { eventsView } from '../src/bot/catalog/views/events.js';
import type { Command } from '../src/bot/context.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import { chooseDay } from '../src/bot/model/dates.js';
import { leagueKeyOf, leagueName } from '../src/bot/model/leagues.js';
import { getSettings } from '../src/bot/settings/guild-settings.js';

export const data = new SlashCommandBuilder()
  .setName('events')
  .setDescription("Events of a league for a day, in this server's time zone")
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o.setName('league').setDescription('League, e.g. nba').setRequired(true).setAutocomplete(true),
  )
  .addStringOption((o) =>
    o
      .setName('date')
      .setDescription('today, tomorrow or YYYY-MM-DD (default: the next 24 hours); yesterday with status finished'),
  )
  .addStringOption((o) =>
    o
      .setName('status')
      .setDescription('Only events in this state')
      .addChoices(
        { name: 'upcoming', value: 'prematch' },
        { name: 'in play', value: 'in_play' },
        { name: 'finished', value: 'finished' },
      ),
  );

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const settings = await getSettings(ctx.store, interaction.guildId);
  const league = leagueKeyOf(interaction.options.getString('league', true));
  const status = interaction.options.getString('status') as EventsQueryRef['status'] | null;
  const day = chooseDay(interaction.options.getString('date'), ctx.now(), settings.timezone, {
    past: status === 'finished',
  });
  if (!day.ok) return replyEphemeral(interaction, day.message);
  const leagues = await knownLeagues(ctx);
  if (!leagues.includes(league)) {
    const some = leagues
      .slice(0, 15)
      .map((l) => leagueName(l))
      .join(', ');
    return replyEphemeral(interaction, `Unknown league "${league}". Pick one from the list, e.g. ${some}.`);
  }
  // No date: what is in play or starts within a day (tonight's games, wherever the server's day ends).
  const comingUp = !interaction.options.getString('date')?.trim() && status !== 'finished';
  const q: EventsQueryRef = {
    league,
    day: day.day,
    timezone: settings.timezone,
    ...(status ? { status } : {}),
    ...(comingUp ? { from: ctx.now() } : {}),
  };
  const events = await eventsForDay(ctx, q);
  const ref = await putRef(ctx.store, q, ownerOf(interaction));
  const view = eventsView({
    events,
    leftOut: await listingLeftOut(ctx, events),
    league,
    date: q.day,
    timezone: q.timezone,
    ...(q.from === undefined ? {} : { from: q.from }),
    page: 0,
    ref,
    ...(status ? { status } : {}),
  });
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  await respondChoices(interaction, await leagueChoices(ctx, interaction.options.getFocused()));
};

export default { data, execute, autocomplete } satisfies Command;
