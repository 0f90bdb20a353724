import {
  ActionRowBuilder,
  ModalBuilder,
  PermissionFlagsBits,
  SlashCommandBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

const commands = [
  new SlashCommandBuilder()
    .setName('settings')
    .setDescription('Admin only')
    .setDefaultMemberPermissions(PermissionFlagsBits.Administrator),
  new SlashCommandBuilder()
    .setName('bet')
    .setDescription('Bet')
    .addStringOption((o) => o.setName('event').setDescription('Event').setRequired(true).setAutocomplete(true))
    .addStringOption((o) =>
      o
        .setName('side')
        .setDescription('Side')
        .addChoices({ name: 'Home', value: 'home' }, { name: 'Away', value: 'away' }),
    ),
].map((c) => c.toJSON());

describe('the local Discord only lets users do what the Discord client would', () => {
  let h: Harness;
  beforeAll(async () => {
    // A shorter window keeps the refused-autocomplete test quick; every handler here answers at once.
    h = await startHarness({ ackDeadlineMs: 1500 });
    await h.client.application!.commands.set(commands, h.ld.guildId);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('hides a command with default_member_permissions from members who lack them', async () => {
    h.onInteraction = async (i) => {
      if (i.isChatInputCommand()) await i.reply({ content: 'settings', flags: 64 });
    };
    await expect(
      h.ld.sendCommand({ user: h.ld.users.viewer, channelId: h.ld.channelIds.bets, name: 'settings' }),
    ).rejects.toThrow(/default_member_permissions/);
    const ok = await h.ld.sendCommand({ user: h.ld.users.admin, channelId: h.ld.channelIds.bets, name: 'settings' });
    expect((await ok.acknowledged).type).toBe(4);
  });

  it('only sends option values among the declared choices', async () => {
    await expect(
      h.ld.sendCommand({
        user: h.ld.users.bettor,
        channelId: h.ld.channelIds.bets,
        name: 'bet',
        options: { event: 'e', side: 'draw' },
      }),
    ).rejects.toThrow(/must be one of its choices: "home", "away"/);
  });

  it('closes a modal once submitted', async () => {
    h.onInteraction = async (i) => {
      if (i.isChatInputCommand()) {
        const input = new TextInputBuilder()
          .setCustomId('stake')
          .setLabel('Stake')
          .setStyle(TextInputStyle.Short)
          .setMaxLength(6);
        await i.showModal(
          new ModalBuilder()
            .setCustomId('stake-modal')
            .setTitle('Stake')
            .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
        );
      } else if (i.isModalSubmit()) {
        await i.deferReply({ flags: 64 });
      }
    };
    const cmd = await h.ld.sendCommand({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'bet',
      options: { event: 'e' },
    });
    await cmd.acknowledged;
    const input = { user: h.ld.users.bettor, channelId: h.ld.channelIds.bets, customId: 'stake-modal' };
    await expect(h.ld.submitModal({ ...input, fields: { stake: '1234567' } })).rejects.toThrow(/at most 6 characters/);
    await expect(h.ld.submitModal({ ...input, fields: { stake: '' } })).rejects.toThrow(/"stake" is required/);
    const submit = await h.ld.submitModal({ ...input, fields: { stake: '20' } });
    expect((await submit.acknowledged).type).toBe(5);
    await expect(h.ld.submitModal({ ...input, fields: { stake: '20' } })).rejects.toThrow(/has not opened a modal/);
  });

  it('names the refused callback when an autocomplete answer breaks the limits', async () => {
    h.onInteraction = async (i) => {
      if (!i.isAutocomplete()) return;
      const many = Array.from({ length: 26 }, (_, n) => ({ name: `e${n}`, value: `e${n}` }));
      // discord.js does not check the count itself; the double refuses it as Discord does.
      await i.respond(many).catch(() => undefined);
    };
    await expect(
      h.ld.autocomplete({
        user: h.ld.users.bettor,
        channelId: h.ld.channelIds.bets,
        name: 'bet',
        options: { event: 'x' },
        focused: 'event',
      }),
    ).rejects.toThrow(/last callback was refused: 50035 Invalid Form Body/);
  });
});
