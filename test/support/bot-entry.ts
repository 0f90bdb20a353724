import type { Client } from 'discord.js';
import type { BotConfig } from '../../src/bot/config/config.js';
import type { BotStore } from '../../src/bot/store/index.js';

/** The bot's entry point as docs/contracts.md describes it: `startBot(config) → { client, receiverUrl, store, stop }`. */
export interface RunningBot {
  client: Client;
  receiverUrl: string;
  store: BotStore;
  /** Closing line capture; a test runs its passes by hand after moving the clock (its own timer stopped first). */
  closing: {
    tick(): Promise<{ read: number; recorded: number; deferred: number; failed: number }>;
    stop(): Promise<void>;
  };
  /** SIGTERM's clean stop: refuse new interactions, finish those under way, send the outbox, stop. */
  drain(graceMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** Optional wiring of the bot's startBot: the lease owner id, the clock and the job poll's interval. */
export interface BotDeps {
  /** Who owns the bot's job leases; a restarted deployment keeps its id and resumes its jobs at once. */
  processId?: string;
  /** The bot's clock (default the machine's). */
  now?: () => number;
  /** The library's batched job poll (default 1500 ms). */
  pollIntervalMs?: number;
}

export type StartBot = (config: BotConfig, deps?: BotDeps) => Promise<RunningBot>;

// Loaded by path at run time so the suites compile while the bot's wiring is being changed.
const ENTRY = '../../src/bot/index.js';

export async function loadStartBot(): Promise<StartBot> {
  const mod = (await import(ENTRY)) as { startBot?: StartBot };
  if (typeof mod.startBot !== 'function') {
    throw new Error(
      'src/bot/index.ts does not export startBot(config); the end-to-end suites need it (docs/contracts.md)',
    );
  }
  return mod.startBot;
}
