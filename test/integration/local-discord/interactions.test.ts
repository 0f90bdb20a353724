import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type ChatInputCommandInteraction,
  ModalBuilder,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

const commands = [
  new SlashCommandBuilder()
    .setName('markets')
    .setDescription('Show a market card')
    .addStringOption((o) => o.setName('event').setDescription('Event key').setRequired(true).setAutocomplete(true))
    .addNumberOption((o) => o.setName('stake').setDescription('Stake in dollars'))
    .addUserOption((o) => o.setName('for').setDescription('Bet on behalf of')),
  new SlashCommandBuilder()
    .setName('admin')
    .setDescription('Syndicate settings')
    .addSubcommand((s) =>
      s
        .setName('channel')
        .setDescription('Set the results channel')
        .addChannelOption((o) => o.setName('target').setDescription('Channel').setRequired(true)),
    ),
].map((c) => c.toJSON());

describe('interactions from the local Discord to a real discord.js bot', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.client.application!.commands.set(commands, h.ld.guildId);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('delivers a slash command with typed options, resolved user, member and channel; reply lands in the channel', async () => {
    let seen: ChatInputCommandInteraction | undefined;
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      seen = i;
      await i.reply({ content: `card for ${i.options.getString('event')} at ${i.options.getNumber('stake')}` });
    };
    const ix = await h.ld.sendCommand({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      options: { event: 'nba-1', stake: 12.5, for: h.ld.users.viewer.id },
    });
    const ack = await ix.acknowledged;
    expect(ack.type).toBe(4);
    expect(seen?.commandName).toBe('markets');
    expect(seen?.user.id).toBe(h.ld.users.bettor.id);
    expect(seen?.channelId).toBe(h.ld.channelIds.bets);
    expect(seen?.guildId).toBe(h.ld.guildId);
    expect(seen?.options.getUser('for')?.id).toBe(h.ld.users.viewer.id);
    expect(seen?.memberPermissions?.has('Administrator')).toBe(false);
    expect(seen?.inGuild()).toBe(true);
    const reply = await h.ld.waitForMessage(h.ld.channelIds.bets, (m) => m.content === 'card for nba-1 at 12.5');
    expect(reply.author.id).toBe(h.ld.applicationId);
    expect(reply.interaction_metadata?.user.id).toBe(h.ld.users.bettor.id);
    expect(ix.responses().map((m) => m.id)).toEqual([reply.id]);
  });

  it('delivers subcommands and resolved channels', async () => {
    let target: string | undefined;
    let sub: string | undefined;
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      sub = i.options.getSubcommand();
      target = i.options.getChannel('target')?.id;
      await i.reply({ content: 'saved', flags: 64 });
    };
    const ix = await h.ld.sendCommand({
      user: h.ld.users.admin,
      channelId: h.ld.channelIds.bets,
      name: 'admin',
      subcommand: 'channel',
      options: { target: h.ld.channelIds.results },
    });
    await ix.acknowledged;
    expect(sub).toBe('channel');
    expect(target).toBe(h.ld.channelIds.results);
    const [reply] = ix.responses();
    expect(reply?.flags).toBe(64);
    expect(reply?.visibleTo).toBe(h.ld.users.admin.id);
    expect(h.ld.messages(h.ld.channelIds.bets, { viewer: h.ld.users.bettor.id }).some((m) => m.id === reply?.id)).toBe(
      false,
    );
  });

  it('shows a deferred reply as loading, then the edit replaces it', async () => {
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply();
      await i.editReply({ content: 'priced', embeds: [{ title: 'Card', description: 'odds 2.10' }] });
    };
    const ix = await h.ld.sendCommand({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      options: { event: 'e2' },
    });
    expect((await ix.acknowledged).type).toBe(5);
    const edited = await h.ld.waitForMessage(h.ld.channelIds.bets, (m) => m.content === 'priced');
    expect(edited.embeds[0]?.title).toBe('Card');
    expect((edited.flags ?? 0) & 128).toBe(0);
    expect(ix.responses()).toHaveLength(1);
  });

  it('routes a button click with the component message and applies update()', async () => {
    h.onInteraction = async (i) => {
      if (i.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('slip:confirm:1').setLabel('Confirm').setStyle(ButtonStyle.Success),
        );
        await i.reply({ content: 'Confirm your bet', components: [row] });
      } else if (i.isButton()) {
        expect(i.message.content).toBe('Confirm your bet');
        await i.update({ content: `submitted by ${i.user.id}`, components: [] });
      }
    };
    const cmd = await h.ld.sendCommand({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      options: { event: 'e3' },
    });
    await cmd.acknowledged;
    const [slip] = cmd.responses();
    const click = await h.ld.clickButton({ user: h.ld.users.bettor, message: slip!, customId: 'slip:confirm:1' });
    expect((await click.acknowledged).type).toBe(7);
    const updated = h.ld.message(slip!.id);
    expect(updated?.content).toBe(`submitted by ${h.ld.users.bettor.id}`);
    expect(updated?.components).toEqual([]);
    expect(updated?.edited_timestamp).not.toBeNull();
  });

  it('routes a select menu with its values', async () => {
    let values: string[] = [];
    h.onInteraction = async (i) => {
      if (i.isChatInputCommand()) {
        const menu = new StringSelectMenuBuilder()
          .setCustomId('pick')
          .addOptions({ label: 'Home', value: 'home' }, { label: 'Away', value: 'away' });
        await i.reply({
          content: 'pick',
          components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)],
        });
      } else if (i.isStringSelectMenu()) {
        values = i.values;
        await i.deferUpdate();
      }
    };
    const cmd = await h.ld.sendCommand({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      options: { event: 'e4' },
    });
    await cmd.acknowledged;
    const [msg] = cmd.responses();
    const sel = await h.ld.selectMenu({ user: h.ld.users.bettor, message: msg!, customId: 'pick', values: ['away'] });
    expect((await sel.acknowledged).type).toBe(6);
    expect(values).toEqual(['away']);
    await expect(
      h.ld.selectMenu({ user: h.ld.users.bettor, message: msg!, customId: 'pick', values: ['draw'] }),
    ).rejects.toThrow(/no option draw/);
  });

  it('opens a modal, emits it, and delivers the submitted fields', async () => {
    let stake: string | undefined;
    h.onInteraction = async (i) => {
      if (i.isChatInputCommand()) {
        const input = new TextInputBuilder().setCustomId('stake').setLabel('Stake').setStyle(TextInputStyle.Short);
        await i.showModal(
          new ModalBuilder()
            .setCustomId('stake-modal')
            .setTitle('Your stake')
            .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
        );
      } else if (i.isModalSubmit()) {
        stake = i.fields.getTextInputValue('stake');
        await i.reply({ content: `stake ${stake}`, flags: 64 });
      }
    };
    const opened = new Promise<{ userId: string; modal: Record<string, unknown> }>((resolve) =>
      h.ld.events.once('modal', resolve),
    );
    const cmd = await h.ld.sendCommand({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      options: { event: 'e5' },
    });
    expect((await cmd.acknowledged).type).toBe(9);
    const modal = await opened;
    expect(modal.userId).toBe(h.ld.users.bettor.id);
    expect(modal.modal.title).toBe('Your stake');
    const submit = await h.ld.submitModal({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      customId: 'stake-modal',
      fields: { stake: '25' },
    });
    expect((await submit.acknowledged).type).toBe(4);
    expect(stake).toBe('25');
    expect(submit.responses()[0]?.content).toBe('stake 25');
  });

  it('lets a modal opened from a button update that button’s message on submit', async () => {
    h.onInteraction = async (i) => {
      if (i.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('stake:open').setLabel('Set stake').setStyle(ButtonStyle.Primary),
        );
        await i.reply({ content: 'slip without stake', components: [row] });
      } else if (i.isButton()) {
        const input = new TextInputBuilder().setCustomId('stake').setLabel('Stake').setStyle(TextInputStyle.Short);
        await i.showModal(
          new ModalBuilder()
            .setCustomId('stake:modal')
            .setTitle('Stake')
            .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
        );
      } else if (i.isModalSubmit() && i.isFromMessage()) {
        await i.update({ content: `slip at $${i.fields.getTextInputValue('stake')}`, components: [] });
      }
    };
    const cmd = await h.ld.sendCommand({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      options: { event: 'e7' },
    });
    await cmd.acknowledged;
    const slip = cmd.responses()[0]!;
    const click = await h.ld.clickButton({ user: h.ld.users.bettor, message: slip, customId: 'stake:open' });
    expect((await click.acknowledged).type).toBe(9);
    const submit = await h.ld.submitModal({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      customId: 'stake:modal',
      fields: { stake: '15' },
    });
    expect((await submit.acknowledged).type).toBe(7);
    expect(h.ld.message(slip.id)?.content).toBe('slip at $15');
  });

  it('resolves autocomplete with the choices the bot responded with', async () => {
    h.onInteraction = async (i) => {
      if (!i.isAutocomplete()) return;
      const typed = i.options.getFocused();
      await i.respond([{ name: `NBA ${typed}`, value: `nba-${typed}` }]);
    };
    const choices = await h.ld.autocomplete({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      options: { event: 'lak' },
      focused: 'event',
    });
    expect(choices).toEqual([{ name: 'NBA lak', value: 'nba-lak' }]);
  });

  it('sends a number typed before the focused option as Discord does in autocomplete: as a string', async () => {
    let seen: { name: string; value: unknown; focused?: boolean }[] = [];
    h.onInteraction = async (i) => {
      if (!i.isAutocomplete()) return;
      seen = i.options.data.map(({ name, value, focused }) => ({ name, value, ...(focused ? { focused } : {}) }));
      await i.respond([{ name: 'Lakers v Celtics', value: 'nba-lal-bos' }]);
    };
    const choices = await h.ld.autocomplete({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      // What the playground's box sends: the text typed so far for every option.
      options: [
        { name: 'stake', value: '100' },
        { name: 'for', value: h.ld.users.viewer.id },
        { name: 'event', value: 'la' },
      ],
      focused: 'event',
    });
    expect(choices).toEqual([{ name: 'Lakers v Celtics', value: 'nba-lal-bos' }]);
    expect(seen).toEqual([
      { name: 'stake', value: '100' },
      { name: 'for', value: h.ld.users.viewer.id },
      { name: 'event', value: 'la', focused: true },
    ]);
  });

  it('leaves out of an autocomplete the other options that fail validation, and sends the focused one as typed', async () => {
    let seen: { name: string; value: unknown }[] = [];
    h.onInteraction = async (i) => {
      if (!i.isAutocomplete()) return;
      seen = i.options.data.map(({ name, value }) => ({ name, value }));
      await i.respond([]);
    };
    await h.ld.autocomplete({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      options: [
        { name: 'stake', value: '12,5' },
        { name: 'for', value: '@nobody' },
        { name: 'event', value: '' },
      ],
      focused: 'event',
    });
    expect(seen).toEqual([{ name: 'event', value: '' }]);
  });

  it('reports the acknowledgement time measured by the double', async () => {
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await new Promise((r) => setTimeout(r, 120));
      await i.reply({ content: 'slow but fine' });
    };
    const ix = await h.ld.sendCommand({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      name: 'markets',
      options: { event: 'e6' },
    });
    const { ms } = await ix.acknowledged;
    expect(ms).toBeGreaterThanOrEqual(100);
    expect(ms).toBeLessThan(3000);
  });

  it('refuses commands that are not registered or options that do not fit', async () => {
    await expect(
      h.ld.sendCommand({ user: h.ld.users.bettor, channelId: h.ld.channelIds.bets, name: 'nope' }),
    ).rejects.toThrow(/not registered/);
    await expect(
      h.ld.sendCommand({
        user: h.ld.users.bettor,
        channelId: h.ld.channelIds.bets,
        name: 'markets',
        options: { stake: 1 },
      }),
    ).rejects.toThrow(/"event" is required/);
    await expect(
      h.ld.sendCommand({
        user: h.ld.users.bettor,
        channelId: h.ld.channelIds.bets,
        name: 'markets',
        options: { event: 'x', stake: 'ten' },
      }),
    ).rejects.toThrow(/expects a number/);
  });
});
