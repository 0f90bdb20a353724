import { ChannelType, Client, GatewayIntentBits, PermissionFlagsBits, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

describe('discord.js logs in to the local Discord', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reaches ClientReady as the fixture bot user with its application', () => {
    expect(h.client.isReady()).toBe(true);
    expect(h.client.user?.id).toBe(h.ld.applicationId);
    expect(h.client.user?.bot).toBe(true);
    expect(h.client.application?.id).toBe(h.ld.applicationId);
  });

  it('fills the guild cache from GUILD_CREATE: channels, roles and members', () => {
    const guild = h.client.guilds.cache.get(h.ld.guildId);
    expect(guild?.name).toBe('Syndicate HQ');
    const bets = guild?.channels.cache.get(h.ld.channelIds.bets);
    expect(bets?.type).toBe(ChannelType.GuildText);
    expect(bets?.name).toBe('bets');
    expect(guild?.channels.cache.get(h.ld.channelIds.results)?.name).toBe('results');
    expect(guild?.roles.cache.map((r) => r.name).sort()).toEqual([
      '@everyone',
      'Admin',
      'Bettor',
      'Syndicate Desk',
      'Treasurer',
    ]);
    const admin = guild?.members.cache.get(h.ld.users.admin.id);
    expect(admin?.permissions.has(PermissionFlagsBits.Administrator)).toBe(true);
    const bettor = guild?.members.cache.get(h.ld.users.bettor.id);
    expect(bettor?.roles.cache.some((r) => r.name === 'Bettor')).toBe(true);
    const viewer = guild?.members.cache.get(h.ld.users.viewer.id);
    expect(viewer?.roles.cache.filter((r) => r.name !== '@everyone').size).toBe(0);
  });

  it('answers REST reads for the bot user, guild, channel and member', async () => {
    const me = (await h.client.rest.get(Routes.user('@me'))) as { id: string };
    expect(me.id).toBe(h.ld.applicationId);
    const guild = await h.client.guilds.fetch({ guild: h.ld.guildId, force: true });
    expect(guild.id).toBe(h.ld.guildId);
    const channel = await h.client.channels.fetch(h.ld.channelIds.results, { force: true });
    expect(channel?.id).toBe(h.ld.channelIds.results);
    const member = await guild.members.fetch({ user: h.ld.users.bettor.id, force: true });
    expect(member.user.username).toBe(h.ld.users.bettor.username);
  });

  it('never shows the bot token in inspect or JSON output of the double', async () => {
    const { inspect } = await import('node:util');
    expect(inspect(h.ld, { depth: 5 })).not.toContain(h.ld.token);
    expect(JSON.stringify(h.ld)).not.toContain(h.ld.token);
  });

  it('refuses a discord.js login with a wrong token as Discord does (TokenInvalid)', async () => {
    const other = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: h.ld.apiUrl } });
    try {
      await expect(other.login('MTIw.wrong.token')).rejects.toMatchObject({ code: 'TokenInvalid' });
    } finally {
      await other.destroy();
    }
  });
});
