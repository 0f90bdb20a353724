import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import {
  answerRaceOption,
  legChoices,
  postMultiSlip,
  raceNumberOption,
  readLeg,
  readRaceBetOptions,
} from '../src/bot/betting/handlers/racing.js';
import type { Command } from '../src/bot/context.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import type { MultiLeg } from '../src/bot/model/racing-bet.js';

/** The leg options, in order: the first two are required (a multi has at least two legs). */
const LEGS = ['leg1', 'leg2', 'leg3', 'leg4', 'leg5', 'leg6'] as const;

const builder = new SlashCommandBuilder()
  .setName('multi')
  .setDescription('Build a same-race multi slip (2 to 6 legs on one race) to confirm with a button')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o.setName('track').setDescription('Track, with its race type').setRequired(true).setAutocomplete(true),
  )
  .addIntegerOption(raceNumberOption);
for (const [i, name] of LEGS.slice(0, 2).entries()) {
  builder.addStringOption((o) =>
    o
      .setName(name)
      .setDescription(`Leg ${i + 1}: a runner and where it must finish (win, top 2, top 3, top 4)`)
      .setRequired(true)
      .setAutocomplete(true),
  );
}
builder.addNumberOption((o) => o.setName('stake').setDescription('Stake in dollars, e.g. 10').setRequired(true));
for (const [i, name] of LEGS.slice(2).entries()) {
  builder.addStringOption((o) =>
    o
      .setName(name)
      .setDescription(`Leg ${i + 3}: a runner and where it must finish`)
      .setAutocomplete(true),
  );
}
builder
  .addNumberOption((o) =>
    o.setName('min_odds').setDescription("The lowest combined price to take (default: the book's price)"),
  )
  .addStringOption((o) =>
    o.setName('date').setDescription("today, tomorrow or YYYY-MM-DD, the track's local day (default today)"),
  )
  .addStringOption((o) =>
    o.setName('bookie').setDescription('The book (default: the first active)').setAutocomplete(true),
  )
  .addBooleanOption((o) =>
    o.setName('use_bonus_bet').setDescription('Stake a bonus token worth exactly the stake, not cash'),
  );

export const data = builder;

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const legs: MultiLeg[] = [];
  for (const [i, name] of LEGS.entries()) {
    const text = interaction.options.getString(name);
    if (text === null) continue;
    const leg = readLeg(text);
    if ('error' in leg) return replyEphemeral(interaction, `Leg ${i + 1}: ${leg.error}`);
    legs.push(leg);
  }
  const bet = await readRaceBetOptions(ctx, interaction);
  const bonus = interaction.options.getBoolean('use_bonus_bet') === true;
  if (bet) await postMultiSlip(ctx, interaction, { ...bet, legs, ...(bonus ? { useBonusBet: true } : {}) });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const asked = await answerRaceOption(interaction, ctx);
  if (!asked.answered) await respondChoices(interaction, await legChoices(ctx, asked.race, asked.typed));
};

export default { data, execute, autocomplete } satisfies Command;
