// The floor for figure 5: a bare discord.js bot in its own process that registers a /markets of the same
// shape and only defers each command; also the memory floor of a discord.js process run as `npm start` runs the bot (compiled, plain node). Same local Discord, same load: what any bot would pay to acknowledge.
import { Client, Events, GatewayIntentBits, MessageFlags, SlashCommandBuilder } from 'discord.js';

const send = (msg: Record<string, unknown>) => process.send?.(msg);

async function main(): Promise<void> {
  const { DISCORD_TOKEN, DISCORD_API_URL, DISCORD_GUILD_ID } = process.env;
  if (!DISCORD_TOKEN || !DISCORD_API_URL || !DISCORD_GUILD_ID) {
    throw new Error('bare bot needs DISCORD_TOKEN, DISCORD_API_URL and DISCORD_GUILD_ID');
  }
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: DISCORD_API_URL } });
  client.on(Events.Error, () => {});
  client.on(Events.InteractionCreate, (ix) => {
    if (ix.isChatInputCommand()) void ix.deferReply({ flags: MessageFlags.Ephemeral }).catch(() => undefined);
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(DISCORD_TOKEN);
  await ready;
  const markets = new SlashCommandBuilder()
    .setName('markets')
    .setDescription('Market card')
    .addStringOption((o) => o.setName('event').setDescription('Event').setRequired(true))
    .addStringOption((o) => o.setName('bookie').setDescription('Book').setRequired(true));
  await client.application!.commands.set([markets.toJSON()], DISCORD_GUILD_ID);
  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'rss') {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      gc?.();
      send({ type: 'rss', rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed });
    } else if (msg.type === 'stop') void client.destroy().finally(() => process.exit(0));
  });
  send({ type: 'ready' });
}

main().catch((err) => {
  send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
