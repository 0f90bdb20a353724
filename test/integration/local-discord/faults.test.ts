import { DiscordAPIError, SlashCommandBuilder } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

const ping = new SlashCommandBuilder().setName('ping').setDescription('Ping').toJSON();

describe('injected REST faults reach the real discord.js client', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.client.application!.commands.set([ping], h.ld.guildId);
  });
  afterEach(() => h.ld.faults.clear());
  afterAll(async () => {
    await h?.close();
  });

  it('answers 429 with retry-after; discord.js waits and retries, and the message lands once', async () => {
    h.ld.faults.inject({ method: 'POST', path: /^\/channels\/\d+\/messages$/, status: 429, retryAfterSeconds: 0.05 });
    const channel = await h.client.channels.fetch(h.ld.channelIds.results);
    if (!channel?.isSendable()) throw new Error('results channel should be sendable');
    const limited = new Promise<unknown>((resolve) => h.client.rest.once('rateLimited', resolve));
    const sent = await channel.send({ content: 'after a rate limit' });
    await limited;
    expect(
      h.ld
        .messages(h.ld.channelIds.results)
        .filter((m) => m.content === 'after a rate limit')
        .map((m) => m.id),
    ).toEqual([sent.id]);
  });

  it('answers 500 as many times as asked; discord.js gives up after its retries with the status', async () => {
    h.ld.faults.inject({ method: 'GET', path: '/guilds/', status: 500, times: Number.POSITIVE_INFINITY });
    const error = await h.client.rest.get(`/guilds/${h.ld.guildId}`).catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(500);
  });

  it('fails one interaction callback with 503; discord.js retries it and the interaction is acknowledged once', async () => {
    h.ld.faults.inject({ path: '/callback', status: 503 });
    const seen: unknown[] = [];
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply({ content: 'first try' }).catch((e: unknown) => seen.push(e));
    };
    const ix = await h.ld.sendCommand({ user: h.ld.users.bettor, channelId: h.ld.channelIds.bets, name: 'ping' });
    // discord.js retries 5xx itself; the second attempt goes through and acknowledges.
    expect((await ix.acknowledged).type).toBe(4);
    expect(seen.filter((e) => e instanceof DiscordAPIError)).toEqual([]);
  });

  it('delays matching calls, which counts against the 3 s window', async () => {
    h.ld.faults.inject({ path: '/callback', delayMs: 150 });
    h.onInteraction = async (i) => {
      if (i.isChatInputCommand()) await i.reply({ content: 'slow network' });
    };
    const ix = await h.ld.sendCommand({ user: h.ld.users.bettor, channelId: h.ld.channelIds.bets, name: 'ping' });
    expect((await ix.acknowledged).ms).toBeGreaterThanOrEqual(150);
  });
});
