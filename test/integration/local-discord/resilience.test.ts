import { Events, SlashCommandBuilder } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { NoBotConnectedError } from '../../../src/local-discord/index.js';
import { type Harness, startHarness } from './harness.js';

const ping = new SlashCommandBuilder().setName('ping').setDescription('Ping').toJSON();

describe('acknowledgement deadline and reconnects with a real discord.js bot', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('rejects the handle when the bot never acknowledges within the deadline', async () => {
    h = await startHarness({ ackDeadlineMs: 150 });
    await h.client.application!.commands.set([ping], h.ld.guildId);
    h.onInteraction = () => undefined;
    const ix = await h.ld.sendCommand({ user: h.ld.users.viewer, channelId: h.ld.channelIds.bets, name: 'ping' });
    await expect(ix.acknowledged).rejects.toThrow(/not acknowledged within 150 ms/);
  });

  it('answers 10062 to a bot that replies after the deadline on the real clock', async () => {
    h = await startHarness({ ackDeadlineMs: 150 });
    await h.client.application!.commands.set([ping], h.ld.guildId);
    let code: unknown;
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await new Promise((r) => setTimeout(r, 300));
      await i.reply({ content: 'late' }).catch((e: { code?: unknown }) => {
        code = e.code;
      });
    };
    await h.ld.sendCommand({ user: h.ld.users.viewer, channelId: h.ld.channelIds.bets, name: 'ping' });
    await expect.poll(() => code, { timeout: 3000 }).toBe(10062);
    expect(h.ld.messages(h.ld.channelIds.bets)).toEqual([]);
  });

  it('lets discord.js resume after the connection drops and keeps delivering interactions', async () => {
    h = await startHarness();
    await h.client.application!.commands.set([ping], h.ld.guildId);
    const resumed = new Promise<void>((resolve) => h!.client.once(Events.ShardResume, () => resolve()));
    h.ld.dropGatewayConnections();
    await resumed;
    h.onInteraction = async (i) => {
      if (i.isChatInputCommand()) await i.reply({ content: 'pong' });
    };
    const ix = await h.ld.sendCommand({ user: h.ld.users.viewer, channelId: h.ld.channelIds.bets, name: 'ping' });
    expect((await ix.acknowledged).type).toBe(4);
    expect(ix.responses()[0]?.content).toBe('pong');
  });

  it('ends the session when the bot logs out, so sending interactions says no bot is connected', async () => {
    h = await startHarness();
    await h.client.application!.commands.set([ping], h.ld.guildId);
    await h.client.destroy();
    await expect.poll(() => h!.ld.connectedBots).toBe(0);
    await expect(
      h.ld.sendCommand({ user: h.ld.users.viewer, channelId: h.ld.channelIds.bets, name: 'ping' }),
    ).rejects.toThrow(NoBotConnectedError);
  });
});
