// `npm run deploy-commands`: registers every commands/*.ts (guild when DISCORD_GUILD_ID is set, else global).
import { ConfigError, parseConfig } from '../config/config.js';
import { loadEnvFile } from '../config/env-file.js';
import { loadCommands } from '../loader.js';
import { deployCommands } from './deploy.js';

try {
  loadEnvFile();
  const config = parseConfig();
  const commands = [...(await loadCommands()).values()];
  const done = await deployCommands({ config, commands });
  console.log(`Registered ${done.count} commands (${done.scope}).`);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `Could not register commands: ${(err as Error).message}`);
  process.exit(1);
}
