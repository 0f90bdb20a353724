import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/bot/config/logger.js';
import { OnceRepo } from '../../src/bot/receiver/once.js';
import { startReceiver, type WebhookDelivery } from '../../src/bot/receiver/receiver.js';
import { type BotStore, openStore } from '../../src/bot/store/index.js';

export interface ReceiverTarget {
  url: string;
  store: BotStore;
  maxBodyBytes: number;
  /** Deliveries handed on after the 2xx (what the bot would post from). */
  handedOn: WebhookDelivery[];
  logs: string[];
  close(): Promise<void>;
}

/**
 * The bot's own webhook receiver wired the way the bot wires it (sqlite on disk, the library's verifier,
 * the redacting logger), without Discord: the fuzzers need nothing else.
 */
export async function startReceiverTarget(apiKey: string, maxBodyBytes = 262_144): Promise<ReceiverTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'chaos-receiver-'));
  const store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
  const logs: string[] = [];
  const handedOn: WebhookDelivery[] = [];
  const logger = createLogger({ level: 'debug', secrets: [apiKey], write: (line) => logs.push(line) });
  const receiver = await startReceiver({
    port: 0,
    maxBodyBytes,
    toleranceMs: 300_000,
    apiKey,
    once: new OnceRepo(store),
    onDelivery: async (body) => {
      handedOn.push(body);
    },
    logger,
    // Refusals are summarised per interval; short here so the fuzz run's summary is written before the checks.
    summaryIntervalMs: 100,
  });
  return {
    url: receiver.url,
    store,
    maxBodyBytes,
    handedOn,
    logs,
    async close() {
      await receiver.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
