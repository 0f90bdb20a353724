import type { Client } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDiscord, startLocalDiscord } from '../../../src/local-discord/index.js';
import { type Playground, startPlayground } from '../../../src/local-discord/playground/server.js';
import { startEchoBot } from './echo-bot.js';
import { SseReader } from './sse.js';

let ld: LocalDiscord;
let bot: Client;
let pg: Playground;
const readers: SseReader[] = [];

beforeAll(async () => {
  ld = await startLocalDiscord({ port: 0 });
  bot = await startEchoBot(ld);
  pg = await startPlayground({ ld, port: 0 });
});

afterAll(async () => {
  for (const r of readers) await r.close();
  await pg?.close();
  await bot?.destroy();
  await ld?.close();
});

function listen(as: string): SseReader {
  const reader = new SseReader(`${pg.url}/api/events?as=${as}`);
  readers.push(reader);
  return reader;
}

async function post(path: string, body: unknown) {
  const res = await fetch(`${pg.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

type Msg = { id: string; content?: string; embeds?: Array<{ title?: string }>; components?: unknown[] };
const messageOf = (e: { data: unknown }) => (e.data as { kind: string; message: Msg }).message;
const kindOf = (e: { data: unknown }) => (e.data as { kind: string }).kind;

describe('the playground API over the local Discord', () => {
  it('describes who you can be, the channels and the commands the bot registered', async () => {
    const state = (await (await fetch(`${pg.url}/api/state`)).json()) as {
      personas: Array<{ key: string; id: string }>;
      channels: Array<{ id: string; name: string }>;
      commands: Array<{ name: string }>;
    };
    expect(state.personas.map((p) => p.key)).toEqual(['admin', 'bettor', 'viewer']);
    expect(state.channels).toEqual([
      { id: ld.channelIds.bets, name: 'bets' },
      { id: ld.channelIds.results, name: 'results' },
      { id: ld.channelIds.alerts, name: 'alerts' },
    ]);
    expect(state.commands.map((c) => c.name)).toEqual(['card', 'secret']);
  });

  it('names its run in the state and in the stream, a new start another, so an open page can tell a restart', async () => {
    const state = (await (await fetch(`${pg.url}/api/state`)).json()) as { runId: string };
    const sse = listen('viewer');
    const ready = await sse.waitFor((e) => e.event === 'ready');
    expect((ready.data as { runId: string }).runId).toBe(state.runId);
    const next = await startPlayground({ ld, port: 0 });
    try {
      const again = (await (await fetch(`${next.url}/api/state`)).json()) as { runId: string };
      expect(again.runId).toMatch(/^[0-9a-f-]{36}$/);
      expect(again.runId).not.toBe(state.runId);
    } finally {
      await next.close();
    }
  });

  it("lists the guild's roles, highest first, for role mentions and the role picker", async () => {
    const state = (await (await fetch(`${pg.url}/api/state`)).json()) as { roles: Array<{ id: string; name: string }> };
    expect(state.roles).toEqual(
      [...ld.roles].sort((a, b) => b.position - a.position).map((r) => ({ id: r.id, name: r.name })),
    );
    expect(state.roles.map((r) => r.name)).toEqual(['Syndicate Desk', 'Admin', 'Treasurer', 'Bettor', '@everyone']);
  });

  it("gives each persona's guild permissions, so the page hides commands they lack (Manage Server: 32)", async () => {
    const state = (await (await fetch(`${pg.url}/api/state`)).json()) as {
      personas: Array<{ key: string; permissions: string }>;
    };
    const manageGuild = (key: string) =>
      (BigInt(state.personas.find((p) => p.key === key)?.permissions ?? '0') & 32n) === 32n;
    expect(manageGuild('admin')).toBe(true);
    expect(manageGuild('bettor')).toBe(false);
    expect(manageGuild('viewer')).toBe(false);
  });

  it('runs a slash command and streams the bot reply, then the edit after a button click', async () => {
    const sse = listen('bettor');
    await sse.waitFor((e) => e.event === 'ready');
    const sent = await post('/api/command', {
      as: 'bettor',
      channelId: ld.channelIds.bets,
      name: 'card',
      options: [{ name: 'team', type: 3, value: 'team-lal' }],
    });
    expect(sent.status).toBe(200);
    const created = await sse.waitFor(
      (e) => e.event === 'message' && messageOf(e).embeds?.[0]?.title === 'Card for team-lal',
    );
    const message = messageOf(created);
    expect(message.components).toHaveLength(1);

    const clicked = await post('/api/click', {
      as: 'bettor',
      channelId: ld.channelIds.bets,
      messageId: message.id,
      customId: 'confirm',
    });
    expect(clicked.status).toBe(200);
    const edited = await sse.waitFor(
      (e) =>
        e.event === 'message' && kindOf(e) === 'update' && messageOf(e).id === message.id && !!messageOf(e).content,
    );
    expect(messageOf(edited).content).toBe('confirmed by ben_bettor');
  });

  it("answers autocomplete with the bot's choices", async () => {
    const res = await post('/api/autocomplete', {
      as: 'bettor',
      channelId: ld.channelIds.bets,
      name: 'card',
      options: [{ name: 'team', type: 3, value: 'cel' }],
      focused: 'team',
    });
    expect(res).toEqual({ status: 200, body: { choices: [{ name: 'Celtics', value: 'team-bos' }] } });
  });

  it('delivers an ephemeral reply to its user only, live and in the history', async () => {
    const admin = listen('admin');
    const viewer = listen('viewer');
    await admin.waitFor((e) => e.event === 'ready');
    await viewer.waitFor((e) => e.event === 'ready');
    await post('/api/command', { as: 'admin', channelId: ld.channelIds.bets, name: 'secret' });
    await admin.waitFor((e) => e.event === 'message' && messageOf(e).content === 'only for you');
    // The viewer's stream carries later public messages, so the check below is not a race.
    await post('/api/command', {
      as: 'viewer',
      channelId: ld.channelIds.bets,
      name: 'card',
      options: [{ name: 'team', type: 3, value: 'after' }],
    });
    await viewer.waitFor((e) => e.event === 'message' && messageOf(e).embeds?.[0]?.title === 'Card for after');
    expect(viewer.events.some((e) => e.event === 'message' && messageOf(e).content === 'only for you')).toBe(false);

    const history = async (as: string) =>
      (
        (await (await fetch(`${pg.url}/api/messages?channel=${ld.channelIds.bets}&as=${as}`)).json()) as {
          messages: Msg[];
        }
      ).messages.map((m) => m.content);
    expect(await history('admin')).toContain('only for you');
    expect(await history('viewer')).not.toContain('only for you');
  });

  it('refuses bad input with a message that says what to do', async () => {
    const who = await post('/api/command', { as: 'nobody', channelId: ld.channelIds.bets, name: 'card' });
    expect(who.status).toBe(400);
    expect(who.body.error).toMatch(/"as" must be one of admin, bettor, viewer/);

    const unknown = await post('/api/command', { as: 'admin', channelId: ld.channelIds.bets, name: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/Unknown command \/nope/);

    const channel = await post('/api/command', { as: 'admin', channelId: '1', name: 'card' });
    expect(channel.status).toBe(400);
    expect(channel.body.error).toMatch(/Unknown channel/);

    const missing = await post('/api/command', { as: 'admin', channelId: ld.channelIds.bets, name: 'card' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/Discord would refuse this/);
  });

  it('refuses a body over 64 KiB with 413 and the limit', async () => {
    const big = await post('/api/command', { as: 'admin', channelId: ld.channelIds.bets, pad: 'x'.repeat(64 * 1024) });
    expect(big).toEqual({ status: 413, body: { error: 'Request body over 65536 bytes.' } });
  });

  it('answers routes by method: 404 for an unknown POST, 405 for another verb', async () => {
    expect(await post('/api/nowhere', {})).toEqual({ status: 404, body: { error: 'No route POST /api/nowhere.' } });
    const put = await fetch(`${pg.url}/api/state`, { method: 'PUT' });
    expect([put.status, await put.json()]).toEqual([405, { error: 'Use GET or POST, not PUT.' }]);
  });

  it('serves the page and the Discord components it imports', async () => {
    const page = await fetch(`${pg.url}/`);
    expect(await page.text()).toContain('Offline playground');
    const lib = await fetch(`${pg.url}/vendor/@skyra/discord-components-core/dist/index.js`);
    expect(lib.status).toBe(200);
    expect(lib.headers.get('content-type')).toMatch(/javascript/);
    // Emoji as Twemoji images, bundled with the page (Discord draws them so; a bare machine has no emoji font).
    const tick = await fetch(`${pg.url}/vendor/@twemoji/svg/2705.svg`);
    expect(tick.status).toBe(200);
    expect(tick.headers.get('content-type')).toBe('image/svg+xml');
    expect(await tick.text()).toMatch(/^<svg/);
    const traversal = await fetch(`${pg.url}/vendor/lit/..%2F..%2Fpackage.json`);
    expect(traversal.status).toBe(404);
  });

  it('says which variable to change when the port is taken', async () => {
    const port = Number(new URL(pg.url).port);
    await expect(startPlayground({ ld, port })).rejects.toThrow(
      `Port ${port} is in use: set PLAYGROUND_PORT to another port (0 picks a free one).`,
    );
  });
});
