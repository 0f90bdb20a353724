import { ActionRowBuilder, ButtonBuilder, ButtonStyle, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionResponseEvent, MessageEvent } from '../../../src/local-discord/index.js';
import { type Harness, startHarness } from './harness.js';

const ping = new SlashCommandBuilder().setName('ping').setDescription('Ping').toJSON();

describe('interaction responses and channel messages as Discord stores them', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.client.application!.commands.set([ping], h.ld.guildId);
  });
  afterAll(async () => {
    await h?.close();
  });
  const run = (user = h.ld.users.bettor) => h.ld.sendCommand({ user, channelId: h.ld.channelIds.bets, name: 'ping' });

  it('returns the interaction callback response with withResponse: true', async () => {
    let resourceContent: string | undefined;
    let responseId: string | null | undefined;
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      const res = await i.reply({ content: 'with response', withResponse: true });
      resourceContent = res.resource?.message?.content;
      responseId = res.interaction.responseMessageId;
    };
    const ix = await run();
    await ix.acknowledged;
    await expect.poll(() => resourceContent).toBe('with response');
    expect(responseId).toBe(ix.responses()[0]?.id);
  });

  it('turns the first follow-up after an ephemeral deferral into the reply, later ones into new messages', async () => {
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply({ flags: MessageFlags.Ephemeral });
      await i.followUp({ content: 'first' });
      await i.followUp({ content: 'second', flags: MessageFlags.Ephemeral });
    };
    const ix = await run();
    await ix.acknowledged;
    await expect.poll(() => ix.responses().map((m) => m.content)).toEqual(['first', 'second']);
    const [first, second] = ix.responses();
    expect(first?.flags).toBe(64);
    expect(second?.flags).toBe(64);
    expect(first?.visibleTo).toBe(h.ld.users.bettor.id);
  });

  it('fetches and deletes the original reply', async () => {
    let fetched: string | undefined;
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply({ content: 'to delete' });
      fetched = (await i.fetchReply()).content;
      await i.deleteReply();
    };
    const deleted = new Promise<MessageEvent>((resolve) => h.ld.events.once('messageDelete', resolve));
    const ix = await run();
    await ix.acknowledged;
    const gone = await deleted;
    expect(fetched).toBe('to delete');
    expect(gone.message.content).toBe('to delete');
    expect(h.ld.message(gone.message.id)).toBeUndefined();
  });

  it('edits the component message after deferUpdate + editReply and emits interactionResponse', async () => {
    h.onInteraction = async (i) => {
      if (i.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('refresh').setLabel('Refresh').setStyle(ButtonStyle.Secondary),
        );
        await i.reply({ content: 'price 2.10', components: [row] });
      } else if (i.isButton()) {
        await i.deferUpdate();
        await i.editReply({ content: 'price 2.05' });
      }
    };
    const cmd = await run();
    await cmd.acknowledged;
    const card = cmd.responses()[0]!;
    const responses: InteractionResponseEvent[] = [];
    const onResponse = (e: InteractionResponseEvent) => responses.push(e);
    h.ld.events.on('interactionResponse', onResponse);
    const edited = h.ld.waitForEdit(h.ld.channelIds.bets, (m) => m.id === card.id && m.content === 'price 2.05');
    const click = await h.ld.clickButton({ user: h.ld.users.admin, message: card, customId: 'refresh' });
    expect((await click.acknowledged).type).toBe(6);
    expect((await edited).edited_timestamp).not.toBeNull();
    h.ld.events.off('interactionResponse', onResponse);
    expect(responses.map((r) => [r.interactionId, r.type])).toEqual([[click.id, 6]]);
  });

  it('refuses clicks on another user’s ephemeral message and on missing components', async () => {
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
        new ButtonBuilder().setCustomId('mine').setLabel('Mine').setStyle(ButtonStyle.Primary),
      );
      await i.reply({ content: 'only you', components: [row], flags: MessageFlags.Ephemeral });
    };
    const cmd = await run(h.ld.users.bettor);
    await cmd.acknowledged;
    const msg = cmd.responses()[0]!;
    await expect(h.ld.clickButton({ user: h.ld.users.viewer, message: msg, customId: 'mine' })).rejects.toThrow(
      /ephemeral/,
    );
    await expect(h.ld.clickButton({ user: h.ld.users.bettor, message: msg, customId: 'other' })).rejects.toThrow(
      /has no component "other"; it has: mine/,
    );
  });

  it('stores channel messages the bot sends and edits, with edited_timestamp and update events', async () => {
    const channel = await h.client.channels.fetch(h.ld.channelIds.results);
    if (!channel?.isSendable()) throw new Error('results channel should be sendable');
    const sent = await channel.send({ content: 'Bet settled', embeds: [{ title: 'Settlement', description: 'won' }] });
    const created = await h.ld.waitForMessage(h.ld.channelIds.results, (m) => m.id === sent.id);
    expect(created.author.id).toBe(h.ld.applicationId);
    expect(created.edited_timestamp).toBeNull();
    const edit = h.ld.waitForEdit(h.ld.channelIds.results, (m) => m.id === sent.id);
    await sent.edit({ content: 'Bet settled (corrected)' });
    const updated = await edit;
    expect(updated.content).toBe('Bet settled (corrected)');
    expect(updated.embeds[0]?.title).toBe('Settlement');
    expect(updated.edited_timestamp).not.toBeNull();
    const fetched = await channel.messages.fetch({ message: sent.id, force: true });
    expect(fetched.content).toBe('Bet settled (corrected)');
  });

  it('accepts files as multipart with payload_json', async () => {
    const channel = await h.client.channels.fetch(h.ld.channelIds.results);
    if (!channel?.isSendable()) throw new Error('results channel should be sendable');
    const sent = await channel.send({
      content: 'chart',
      files: [{ attachment: Buffer.from('png-bytes'), name: 'chart.png' }],
    });
    const stored = h.ld.message(sent.id);
    expect(stored?.content).toBe('chart');
    expect(stored?.attachments.map((a) => [a.filename, a.size])).toEqual([['chart.png', 9]]);
  });

  it('keeps the bytes of files sent with replies, edits and follow-ups, and serves them at the attachment URL', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply({ flags: MessageFlags.Ephemeral });
      await i.editReply({
        embeds: [{ title: 'Stats', image: { url: 'attachment://stats.png' } }],
        files: [{ attachment: png, name: 'stats.png' }],
      });
      await i.followUp({ content: 'more', files: [{ attachment: Buffer.from('csv,bytes'), name: 'bets.csv' }] });
    };
    const ix = await run();
    await expect.poll(() => ix.responses().length).toBe(2);
    await expect.poll(() => ix.responses()[0]?.attachments.length).toBe(1);
    const [reply, followUp] = ix.responses();
    const chart = reply!.attachments[0]!;
    expect([chart.filename, chart.size, chart.content_type]).toEqual(['stats.png', png.length, 'image/png']);
    expect(chart.url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/attachments/${h.ld.channelIds.bets}/\\d+/stats\\.png$`),
    );
    const served = await fetch(chart.url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
    expect(followUp!.attachments.map((a) => a.filename)).toEqual(['bets.csv']);
    expect(await (await fetch(followUp!.attachments[0]!.url)).text()).toBe('csv,bytes');
  });

  it('serves a file that is not a picture to be saved under its name, and a picture to be shown', async () => {
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply({
        files: [
          { attachment: Buffer.from('a,b'), name: 'ledger 1.csv' },
          { attachment: Buffer.from([0x89, 0x50]), name: 'chart.png' },
        ],
      });
    };
    const ix = await run();
    await expect.poll(() => ix.responses()[0]?.attachments.length).toBe(2);
    const [csv, png] = ix.responses()[0]!.attachments;
    expect((await fetch(csv!.url)).headers.get('content-disposition')).toBe(
      "attachment; filename*=UTF-8''ledger%201.csv",
    );
    expect((await fetch(png!.url)).headers.get('content-disposition')).toBeNull();
  });

  it('answers 404 for an attachment it does not hold', async () => {
    const res = await fetch(`${h.ld.apiUrl.replace(/\/api.*$/, '')}/attachments/${h.ld.channelIds.bets}/1/x.png`);
    expect(res.status).toBe(404);
  });

  it('stores a bot reply to a channel message as type 19 with the referenced message', async () => {
    const channel = await h.client.channels.fetch(h.ld.channelIds.results);
    if (!channel?.isSendable()) throw new Error('results channel should be sendable');
    const notice = await channel.send({ content: 'Bet placed' });
    const reply = await notice.reply({ content: 'Bet settled: won' });
    const stored = h.ld.message(reply.id);
    expect(stored?.type).toBe(19);
    expect(stored?.referenced_message?.id).toBe(notice.id);
    expect(reply.reference?.messageId).toBe(notice.id);
    const error = await channel
      .send({ content: 'x', reply: { messageReference: '1' } })
      .catch((e: { code?: number }) => e);
    expect((error as { code?: number }).code).toBe(50035);
  });
});
