import { REST, Routes } from 'discord.js';
import type { BotConfig } from '../config/config.js';
import type { Command } from './command.js';

/** Registers the commands: in one guild when DISCORD_GUILD_ID is set (instant), else globally. */
export async function deployCommands(opts: {
  config: BotConfig;
  commands: Command[];
}): Promise<{ scope: string; count: number }> {
  const { config } = opts;
  const token = config.discord.token;
  const appId = config.discord.appId;
  if (!token) throw new Error('DISCORD_TOKEN is not set: it is needed to register commands. See .env.example.');
  if (!appId) throw new Error('DISCORD_APP_ID is not set: copy the Application ID from the Developer Portal.');
  const rest = new REST(config.discord.apiUrl ? { api: config.discord.apiUrl } : {}).setToken(token.reveal());
  const body = opts.commands.map((c) => c.data.toJSON());
  const guildId = config.discord.guildId;
  const route = guildId ? Routes.applicationGuildCommands(appId, guildId) : Routes.applicationCommands(appId);
  await rest.put(route, { body });
  return { scope: guildId ? `guild ${guildId}` : 'global', count: body.length };
}
