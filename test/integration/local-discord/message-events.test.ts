import { Events, GatewayIntentBits, type Message } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

/** Collects the messageCreate events the bot receives. */
function collect(h: Harness): Message[] {
  const seen: Message[] = [];
  h.client.on(Events.MessageCreate, (m) => seen.push(m));
  return seen;
}

describe('message events over the gateway', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('sends MESSAGE_CREATE with content to a bot with GuildMessages and MessageContent', async () => {
    h = await startHarness({}, [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
    ]);
    const seen = collect(h);
    const posted = h.ld.postMessage({
      user: h.ld.users.bettor,
      channelId: h.ld.channelIds.bets,
      content: 'anyone on the Lakers?',
    });
    await expect.poll(() => seen.map((m) => m.id)).toEqual([posted.id]);
    expect(seen[0]?.content).toBe('anyone on the Lakers?');
    expect(seen[0]?.author.id).toBe(h.ld.users.bettor.id);
    expect(seen[0]?.member?.roles.cache.some((r) => r.name === 'Bettor')).toBe(true);
  });

  it('blanks other users’ content without the MessageContent intent, but not the bot’s own', async () => {
    h = await startHarness({}, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    const seen = collect(h);
    h.ld.postMessage({ user: h.ld.users.viewer, channelId: h.ld.channelIds.bets, content: 'secret' });
    const channel = await h.client.channels.fetch(h.ld.channelIds.bets);
    if (!channel?.isSendable()) throw new Error('bets channel should be sendable');
    await channel.send({ content: 'from the bot' });
    await expect.poll(() => seen.length).toBe(2);
    expect(seen.map((m) => m.content)).toEqual(['', 'from the bot']);
  });

  it('sends no message events without the GuildMessages intent', async () => {
    h = await startHarness();
    const seen = collect(h);
    h.ld.postMessage({ user: h.ld.users.viewer, channelId: h.ld.channelIds.bets, content: 'hello' });
    const channel = await h.client.channels.fetch(h.ld.channelIds.bets);
    if (!channel?.isSendable()) throw new Error('bets channel should be sendable');
    // A REST round trip after the post: any dispatch for it would have arrived before this answer.
    await channel.send({ content: 'sync point' });
    expect(seen).toEqual([]);
  });
});
