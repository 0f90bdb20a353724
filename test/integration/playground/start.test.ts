import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../src/bot/main.js';
import { type LocalDiscord, startLocalDiscord } from '../../../src/local-discord/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

// Bot tokens look like three base64url parts joined by dots; none may reach the console.
const TOKEN_SHAPE = /[\w-]{10,}\.[\w-]{4,}\.[\w-]{20,}/;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups.length = 0;
});

function tempStore(): string {
  const dir = mkdtempSync(join(tmpdir(), 'playground-start-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite://${join(dir, 'bot.sqlite')}`;
}

async function started(app: Promise<RunningApp>): Promise<RunningApp> {
  const running = await app;
  cleanups.push(() => running.stop());
  return running;
}

describe('npm start', () => {
  it('without a token serves the playground with the real bot and its commands, printing no secret', async () => {
    const printed: string[] = [];
    const app = await started(
      startApp({
        env: { PLAYGROUND_PORT: '0', STORE_URL: tempStore(), LOG_LEVEL: 'error' },
        print: (line) => printed.push(line),
      }),
    );
    // Progress first, each step as it starts, then the address.
    expect(printed.slice(0, 4)).toEqual([
      'Starting the sandbox gateway…',
      'Starting the local Discord (Syndicate HQ: an admin, a bettor and a viewer)…',
      'Starting the bot: its store, its commands, logging in to the local Discord…',
      `Offline playground: ${app.playgroundUrl}`,
    ]);
    expect(printed.join('\n')).not.toMatch(TOKEN_SHAPE);
    expect(printed.join('\n')).not.toContain('sandbox-key');

    const state = (await (await fetch(`${app.playgroundUrl}/api/state`)).json()) as {
      commands: Array<{ name: string }>;
    };
    expect(state.commands.map((c) => c.name)).toEqual(expect.arrayContaining(['bet', 'events', 'markets']));
  });

  it('with DISCORD_TOKEN runs only the bot, against whatever Discord API it is given', async () => {
    const sandbox: RunningSandbox = await startSandbox({ port: 0, quiet: true });
    cleanups.push(() => sandbox.close());
    const ld: LocalDiscord = await startLocalDiscord({ port: 0 });
    cleanups.push(() => ld.close());
    const printed: string[] = [];
    const app = await started(
      startApp({
        env: {
          DISCORD_TOKEN: ld.token,
          DISCORD_APP_ID: ld.applicationId,
          DISCORD_GUILD_ID: ld.guildId,
          DISCORD_API_URL: ld.apiUrl,
          GATEWAY_BASE_URL: sandbox.url,
          GATEWAY_API_KEY: 'sandbox-key-alpha',
          WEBHOOK_PORT: '0',
          STORE_URL: tempStore(),
          LOG_LEVEL: 'error',
        },
        print: (line) => printed.push(line),
      }),
    );
    expect(app.playgroundUrl).toBeUndefined();
    expect(app.sandboxUrl).toBeUndefined();
    await ld.waitForBot();
    expect(ld.commands(ld.guildId).map((c) => c.name)).toEqual(expect.arrayContaining(['markets']));
    expect(printed.join('\n')).not.toContain(ld.token);
    expect(printed.join('\n')).not.toContain('sandbox-key-alpha');
  });

  it('refuses a bad PLAYGROUND_PORT naming the variable', async () => {
    await expect(startApp({ env: { PLAYGROUND_PORT: 'abc' }, print: () => {} })).rejects.toThrow(
      /PLAYGROUND_PORT must be a whole number from 0 to 65535/,
    );
  });
});
