import { Client, Events, GatewayIntentBits, Options } from 'discord.js';
import type { BotConfig } from '../config/config.js';
import type { Logger } from '../config/logger.js';
import { discordRequests } from './discord-rest.js';
import { InteractionEdits, keepInteractionEdits } from './interaction-edits.js';

/** The shards this process runs: all of SHARD_COUNT, or those SHARDS lists (ShardingManager sets it per process). */
function shardOptions(config: BotConfig): { shards: number[] | 'auto'; shardCount?: number } {
  const { count, ids } = config.sharding;
  if (count === 'auto') return { shards: 'auto' };
  return { shards: ids ?? Array.from({ length: count }, (_, i) => i), shardCount: count };
}

/** discord.js with only the caches the bot reads, Discord's REST through the bot's own request hook. */
export function botClient(
  config: BotConfig,
  logger: Pick<Logger, 'error' | 'info'>,
  onAck: (seconds: number) => void,
): Client {
  const edits = new InteractionEdits();
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    // The bot reads everything it needs from the interaction and the store: caching the messages it
    // edits, members, users and threads only grows memory with every interaction.
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      ReactionManager: 0,
      ThreadManager: 0,
      PresenceManager: 0,
      UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
      GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
    }),
    rest: {
      makeRequest: discordRequests(onAck, edits),
      ...(config.discord.apiUrl ? { api: config.discord.apiUrl } : {}),
    },
    // Explicit, so discord.js never reads SHARDS from the environment itself (it expects JSON there).
    ...shardOptions(config),
  });
  keepInteractionEdits(client, edits);
  // Without a listener a rejected async handler (captureRejections) would end the process.
  client.on(Events.Error, (err) => logger.error('discord client error', { err }));
  const where = config.discord.apiUrl ? `the Discord API at ${config.discord.apiUrl}` : 'Discord';
  client.once(Events.ClientReady, (c) => logger.info(`logged in to ${where}`, { user: c.user.tag }));
  return client;
}
