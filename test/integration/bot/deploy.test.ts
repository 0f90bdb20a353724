import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/bot/config/config.js';
import { deployCommands } from '../../../src/bot/discord/deploy.js';
import { loadCommands } from '../../../src/bot/loader.js';
import { type LocalDiscord, startLocalDiscord } from '../../../src/local-discord/index.js';

let ld: LocalDiscord;
beforeAll(async () => {
  ld = await startLocalDiscord({ port: 0 });
});
afterAll(async () => {
  await ld.close();
});

const env = (extra: Record<string, string>) => ({
  DISCORD_TOKEN: ld.token,
  DISCORD_APP_ID: ld.applicationId,
  DISCORD_API_URL: ld.apiUrl,
  ...extra,
});

describe('deploy-commands', () => {
  it('registers every command in the guild when DISCORD_GUILD_ID is set', async () => {
    const commands = [...(await loadCommands()).values()];
    const done = await deployCommands({ config: parseConfig(env({ DISCORD_GUILD_ID: ld.guildId })), commands });
    expect(done).toEqual({ scope: `guild ${ld.guildId}`, count: commands.length });
    expect(
      ld
        .commands(ld.guildId)
        .map((c) => c.name)
        .sort(),
    ).toEqual(commands.map((c) => c.data.name).sort());
  });

  it('registers them globally without a guild id', async () => {
    const commands = [...(await loadCommands()).values()];
    const done = await deployCommands({ config: parseConfig(env({})), commands });
    expect(done.scope).toBe('global');
    expect(ld.commands(null)).toHaveLength(commands.length);
  });

  it('says which variable is missing', async () => {
    await expect(deployCommands({ config: parseConfig({}), commands: [] })).rejects.toThrow(/DISCORD_TOKEN is not set/);
  });
});
