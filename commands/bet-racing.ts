import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import type { Command } from '../src/bot/discord/command.js';
import { replyEphemeral, respondChoices, typedNumber } from '../src/bot/discord/interact.js';
import { stakeOptionCents } from '../src/bot/handlers/bet-gate.js';
import {
  postRacingSlip,
  raceNumberChoices,
  raceNumberOption,
  runnerChoices,
  trackChoices,
} from '../src/bot/handlers/racing.js';
import { chooseDay } from '../src/bot/model/dates.js';
import { resolveTrack, trackDay, trackZone } from '../src/bot/model/tracks.js';
import { getSettings } from '../src/bot/repos/guild-settings.js';

export const data = new SlashCommandBuilder()
  .setName('bet-racing')
  .setDescription('Build a racing bet slip (win or place, price-checked) to confirm with a button')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o.setName('track').setDescription('Track, with its race type').setRequired(true).setAutocomplete(true),
  )
  .addIntegerOption(raceNumberOption)
  .addStringOption((o) => o.setName('runner').setDescription('The runner').setRequired(true).setAutocomplete(true))
  .addStringOption((o) =>
    o
      .setName('market')
      .setDescription('win or place')
      .setRequired(true)
      .addChoices({ name: 'win', value: 'win' }, { name: 'place', value: 'place' }),
  )
  .addNumberOption((o) => o.setName('stake').setDescription('Stake in dollars, e.g. 10').setRequired(true))
  .addNumberOption((o) => o.setName('min_odds').setDescription('Refuse if the live price is below this'))
  .addStringOption((o) =>
    o.setName('date').setDescription("today, tomorrow or YYYY-MM-DD, the track's local day (default today)"),
  )
  .addStringOption((o) =>
    o.setName('bookie').setDescription('The book (default: the first active)').setAutocomplete(true),
  )
  .addBooleanOption((o) =>
    o.setName('use_bonus_bet').setDescription('Spend a bonus token worth the stake (the session must hold one)'),
  );

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const settings = await getSettings(ctx.store, interaction.guildId);
  const { track, raceType } = resolveTrack(interaction.options.getString('track', true));
  const day = chooseDay(interaction.options.getString('date'), ctx.now(), trackZone(track, settings.timezone));
  if (!day.ok) return replyEphemeral(interaction, day.message);
  const market = interaction.options.getString('market', true);
  if (market !== 'win' && market !== 'place') return replyEphemeral(interaction, 'The market must be win or place.');
  let bookie = interaction.options.getString('bookie')?.trim();
  if (!bookie) {
    bookie = (await ctx.catalog.loadSessions()).find((s) => s.active)?.bookie;
    if (!bookie) return replyEphemeral(interaction, 'No active session to bet with. Start one (see /sessions).');
  }
  const minOdds = interaction.options.getNumber('min_odds') ?? undefined;
  const useBonusBet = interaction.options.getBoolean('use_bonus_bet') ?? false;
  const stakeCents = await stakeOptionCents(ctx, interaction, interaction.options.getNumber('stake', true));
  await postRacingSlip(ctx, interaction, {
    bookie,
    track,
    raceType,
    raceNum: interaction.options.getInteger('race', true),
    date: day.day,
    runner: interaction.options.getString('runner', true).trim(),
    market,
    stakeCents,
    ...(minOdds === undefined ? {} : { minOdds }),
    ...(useBonusBet ? { useBonusBet } : {}),
  });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const focused = interaction.options.getFocused(true);
  const typedTrack = interaction.options.getString('track') ?? '';
  const { track, raceType } = resolveTrack(typedTrack);
  if (focused.name === 'track') return respondChoices(interaction, trackChoices(focused.value));
  const settings = await getSettings(ctx.store, interaction.guildId);
  const day = chooseDay(interaction.options.getString('date'), ctx.now(), trackZone(track, settings.timezone));
  const date = day.ok ? day.day : trackDay(track, ctx.now(), settings.timezone);
  if (focused.name === 'race') {
    // Integer choices: respond directly (respondChoices takes strings).
    const choices = await raceNumberChoices(ctx, interaction.guildId, {
      track,
      date: interaction.options.getString('date'),
      typed: String(focused.value),
    });
    return void (await interaction.respond(choices.slice(0, 25)).catch(() => undefined));
  }
  if (focused.name === 'bookie') {
    const sessions = (await ctx.catalog.loadSessions()).filter((s) => s.active);
    const books = [...new Set(sessions.map((s) => s.bookie))];
    return respondChoices(
      interaction,
      books.filter((b) => b.includes(focused.value.trim().toLowerCase())).map((b) => ({ name: b, value: b })),
    );
  }
  const raceNum = typedNumber(interaction, 'race') ?? 1;
  const choices = await runnerChoices(ctx, { track, raceNum, raceType, date }, focused.value);
  await respondChoices(interaction, choices);
};

export default { data, execute, autocomplete } satisfies Command;
