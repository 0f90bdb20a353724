import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import { type LocalDiscord, type LocalDiscordOptions, startLocalDiscord } from '../../../src/local-discord/index.js';

export interface Harness {
  ld: LocalDiscord;
  client: Client;
  /** Replaced per test: what the bot does with each interaction. */
  onInteraction: (interaction: Interaction) => Promise<void> | void;
  /** Errors the bot's handlers threw (e.g. a rejected reply), for assertions. */
  errors: unknown[];
  close(): Promise<void>;
}

/** A real discord.js client logged in to a fresh local Discord, with a swappable interaction handler. */
export async function startHarness(
  opts: LocalDiscordOptions = {},
  intents: GatewayIntentBits[] = [GatewayIntentBits.Guilds],
): Promise<Harness> {
  const ld = await startLocalDiscord({ port: 0, ...opts });
  const client = new Client({ intents, rest: { api: ld.apiUrl } });
  const harness: Harness = {
    ld,
    client,
    errors: [],
    onInteraction: () => undefined,
    async close() {
      await client.destroy();
      await ld.close();
    },
  };
  client.on(Events.Error, (e) => harness.errors.push(e));
  client.on(Events.InteractionCreate, async (interaction) => {
    try {
      await harness.onInteraction(interaction);
    } catch (error) {
      harness.errors.push(error);
    }
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(ld.token);
  await ready;
  return harness;
}
