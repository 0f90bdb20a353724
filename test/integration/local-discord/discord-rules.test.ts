import { DiscordAPIError, Routes, SlashCommandBuilder } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestRefusalEvent } from '../../../src/local-discord/index.js';
import { type Harness, startHarness } from './harness.js';

const ping = new SlashCommandBuilder().setName('ping').setDescription('Ping').toJSON();

/** Catches what a bot call rejected with, so the test can assert the Discord error code. */
async function rejection(p: Promise<unknown>): Promise<DiscordAPIError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof DiscordAPIError) return error;
    throw error;
  }
  throw new Error('expected the call to be rejected');
}

describe('the local Discord enforces Discord rules on a real discord.js bot', () => {
  let h: Harness;
  // The double's clock, pinned: only the tests move it, forward across the 3 s and 15 min windows without waiting,
  // so how long the machine takes between a press and its answer does not count.
  const pinnedAt = Date.parse('2026-11-20T12:00:00Z');
  let offsetMs = 0;
  beforeAll(async () => {
    h = await startHarness({ now: () => pinnedAt + offsetMs });
    await h.client.application!.commands.set([ping], h.ld.guildId);
  });
  afterAll(async () => {
    await h?.close();
  });

  const run = () => h.ld.sendCommand({ user: h.ld.users.bettor, channelId: h.ld.channelIds.bets, name: 'ping' });

  it('answers 10062 Unknown interaction to a callback after 3 s and rejects the handle', async () => {
    let error: DiscordAPIError | undefined;
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      offsetMs += 3100;
      error = await rejection(i.reply({ content: 'too late' }));
    };
    const ix = await run();
    await expect(ix.acknowledged).rejects.toThrow(/10062/);
    // The double fails the handle as it answers; the bot's promise settles a moment later.
    await expect.poll(() => error?.code).toBe(10062);
    expect(error?.status).toBe(404);
    expect(ix.responses()).toEqual([]);
  });

  it('accepts a callback just inside the 3 s window', async () => {
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      offsetMs += 2900;
      await i.reply({ content: 'in time' });
    };
    const ix = await run();
    const { ms } = await ix.acknowledged;
    expect(ms).toBe(2900);
  });

  it('answers 40060 to a second acknowledgement', async () => {
    let error: DiscordAPIError | undefined;
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply();
      // discord.js itself refuses a second reply, so send the second callback the way a second process would.
      error = await rejection(
        i.client.rest.post(Routes.interactionCallback(i.id, i.token), {
          body: { type: 4, data: { content: 'again' } },
          auth: false,
        }),
      );
    };
    const ix = await run();
    expect((await ix.acknowledged).type).toBe(5);
    await expect.poll(() => error?.code).toBe(40060);
    expect(error?.status).toBe(400);
    expect(error?.message).toBe('Interaction has already been acknowledged.');
  });

  it('answers 50027 Invalid Webhook Token to edits and follow-ups after 15 minutes', async () => {
    const errors: DiscordAPIError[] = [];
    let ready!: () => void;
    const done = new Promise<void>((r) => {
      ready = r;
    });
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply({ content: 'placed' });
      offsetMs += 15 * 60 * 1000 + 1000;
      errors.push(await rejection(i.editReply({ content: 'settled' })));
      errors.push(await rejection(i.followUp({ content: 'settled later' })));
      ready();
    };
    const ix = await run();
    await ix.acknowledged;
    await done;
    expect(errors.map((e) => e.code)).toEqual([50027, 50027]);
    expect(errors[0]?.status).toBe(401);
    expect(ix.responses()[0]?.content).toBe('placed');
  });

  it('rejects an oversized embed with 50035 Invalid Form Body naming the field, and leaves the interaction open', async () => {
    let error: DiscordAPIError | undefined;
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      error = await rejection(i.reply({ embeds: [{ title: 't'.repeat(257), description: 'card' }] }));
      await i.reply({ content: 'fallback' });
    };
    const ix = await run();
    expect((await ix.acknowledged).type).toBe(4);
    expect(error?.code).toBe(50035);
    expect(error?.rawError).toMatchObject({
      errors: { data: { embeds: { 0: { title: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } } } },
    });
    expect(ix.responses()[0]?.content).toBe('fallback');
  });

  it('rejects a channel message over 2000 characters with 50035', async () => {
    const channel = await h.client.channels.fetch(h.ld.channelIds.results);
    if (!channel?.isSendable()) throw new Error('results channel should be sendable');
    const error = await rejection(channel.send({ content: 'x'.repeat(2001) }));
    expect(error.code).toBe(50035);
    expect(error.rawError).toMatchObject({ errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } });
    const ok = await channel.send({ content: 'settled: +$42.00' });
    expect(h.ld.message(ok.id)?.content).toBe('settled: +$42.00');
  });

  it('registers guild commands with PUT and lists them with GET, keeping ids across overwrites', async () => {
    const extra = new SlashCommandBuilder().setName('balance').setDescription('Show balances').toJSON();
    const first = (await h.client.rest.put(Routes.applicationGuildCommands(h.ld.applicationId, h.ld.guildId), {
      body: [ping, extra],
    })) as { id: string; name: string }[];
    const listed = (await h.client.rest.get(Routes.applicationGuildCommands(h.ld.applicationId, h.ld.guildId))) as {
      id: string;
      name: string;
    }[];
    expect(listed.map((c) => c.name).sort()).toEqual(['balance', 'ping']);
    expect(listed.map((c) => c.id).sort()).toEqual(first.map((c) => c.id).sort());
    const again = (await h.client.rest.put(Routes.applicationGuildCommands(h.ld.applicationId, h.ld.guildId), {
      body: [ping],
    })) as { id: string; name: string }[];
    expect(again[0]?.id).toBe(first.find((c) => c.name === 'ping')?.id);
    expect(h.ld.commands(h.ld.guildId).map((c) => c.name)).toEqual(['ping']);
  });

  it('registers global commands separately from guild ones', async () => {
    await h.client.application!.commands.set([{ name: 'help', description: 'How to use the desk' }]);
    expect(h.ld.commands(null).map((c) => c.name)).toEqual(['help']);
    expect(h.ld.commands().map((c) => c.name)).toEqual(['ping', 'help']);
  });

  it('refuses command registration with invalid names or descriptions (50035)', async () => {
    const error = await rejection(
      h.client.rest.put(Routes.applicationGuildCommands(h.ld.applicationId, h.ld.guildId), {
        body: [{ name: 'Bad Name', description: '' }],
      }),
    );
    expect(error.code).toBe(50035);
    expect(error.rawError).toMatchObject({
      errors: {
        0: { name: { _errors: [{ code: 'APPLICATION_COMMAND_INVALID_NAME' }] }, description: { _errors: [{}] } },
      },
    });
    expect(h.ld.commands(h.ld.guildId).map((c) => c.name)).toEqual(['ping']);
  });

  it('lists guild members by user id in pages of `limit` after `after`, and answers 50001 with the members intent off', async () => {
    const guild = h.client.guilds.cache.get(h.ld.guildId)!;
    const ids = h.ld.members.map((m) => m.user!.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const first = await guild.members.list({ limit: 2 });
    expect([...first.keys()]).toEqual(ids.slice(0, 2));
    const rest = await guild.members.list({ limit: 1000, after: ids[1] });
    expect([...rest.keys()]).toEqual(ids.slice(2));
    expect((await rejection(guild.members.list({ limit: 1001 }))).code).toBe(50035);
    h.ld.setServerMembersIntent(false);
    try {
      const refused = await rejection(guild.members.list({ limit: 10 }));
      expect([refused.status, refused.code]).toEqual([403, 50001]);
    } finally {
      h.ld.setServerMembersIntent(true);
    }
  });

  it('answers 401 to bot routes without the bot token and 404 to unknown routes', async () => {
    const noAuth = await fetch(`${h.ld.apiUrl}/v10/users/@me`);
    expect(noAuth.status).toBe(401);
    const wrong = await fetch(`${h.ld.apiUrl}/v10/gateway/bot`, { headers: { authorization: 'Bot nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain(h.ld.token);
    const unknown = await fetch(`${h.ld.apiUrl}/v10/nothing/here`, { headers: { authorization: `Bot ${h.ld.token}` } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: '404: Not Found', code: 0 });
  });

  it('reports every refused REST call as a restRefusal event, with interaction tokens redacted', async () => {
    const refusals: RestRefusalEvent[] = [];
    const onRefusal = (r: RestRefusalEvent) => refusals.push(r);
    h.ld.events.on('restRefusal', onRefusal);
    let token = '';
    h.onInteraction = async (i) => {
      if (!i.isChatInputCommand()) return;
      token = i.token;
      await i.reply({ embeds: [{ description: 'd'.repeat(4097) }] }).catch(() => undefined);
      await i.reply({ content: 'ok' });
    };
    const ix = await run();
    await ix.acknowledged;
    h.ld.events.off('restRefusal', onRefusal);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({
      method: 'POST',
      status: 400,
      code: 50035,
      path: `/api/v10/interactions/${ix.id}/:token/callback`,
    });
    expect(JSON.stringify(refusals)).not.toContain(token);
  });
});
