import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  EmbedBuilder,
  Events,
  GatewayIntentBits,
  MessageFlags,
  SlashCommandBuilder,
} from 'discord.js';
import type { LocalDiscord } from '../../../src/local-discord/index.js';

// A tiny test-only bot: enough real discord.js to drive the playground without the product bot.
const commands = [
  new SlashCommandBuilder()
    .setName('card')
    .setDescription('Shows a card with a button')
    .addStringOption((o) => o.setName('team').setDescription('Team').setRequired(true).setAutocomplete(true)),
  new SlashCommandBuilder().setName('secret').setDescription('Answers only to you'),
];

export async function startEchoBot(ld: LocalDiscord): Promise<Client> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: ld.apiUrl } });
  client.on(Events.Error, () => {});
  client.on(Events.InteractionCreate, async (ix) => {
    if (ix.isAutocomplete()) {
      const typed = String(ix.options.getFocused()).toLowerCase();
      const teams = [
        { name: 'Lakers', value: 'team-lal' },
        { name: 'Celtics', value: 'team-bos' },
      ];
      await ix.respond(teams.filter((t) => t.name.toLowerCase().startsWith(typed)));
    } else if (ix.isChatInputCommand() && ix.commandName === 'card') {
      const embed = new EmbedBuilder()
        .setTitle(`Card for ${ix.options.getString('team', true)}`)
        .setColor(0x5865f2)
        .addFields({ name: 'Odds', value: '1.91', inline: true })
        .setFooter({ text: 'test card' });
      const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
        new ButtonBuilder().setCustomId('confirm').setLabel('Confirm').setStyle(ButtonStyle.Success),
      );
      await ix.reply({ embeds: [embed], components: [row] });
    } else if (ix.isChatInputCommand() && ix.commandName === 'secret') {
      await ix.reply({ content: 'only for you', flags: MessageFlags.Ephemeral });
    } else if (ix.isButton()) {
      await ix.update({ content: `confirmed by ${ix.user.username}`, components: [] });
    }
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(ld.token);
  await ready;
  await client.application!.commands.set(
    commands.map((c) => c.toJSON()),
    ld.guildId,
  );
  return client;
}
