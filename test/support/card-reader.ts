// A process reading cards on one API key as a bot process does: the library's client with the bot's card budget
// (sharedCardBudgetOf: on PostgreSQL, the key's one window in the store). argv: store URL, gateway URL, API key,
// "shared" or "alone" (its own limiter only), and a JSON file of [epk, bookie] pairs. Prints "ready", reads every
// card at once when it gets a line on stdin (each may wait 4 s for a slot, like a member), then prints one JSON line:
// reads answered, refused before sending (no slot), and answered 429 by the gateway.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { sharedCardBudgetOf } from '../../src/bot/catalog/shared-card-window.js';
import { openStore } from '../../src/bot/store/index.js';
import { CardLimitError, GatewayClient, RateLimitError } from '../../src/gateway/index.js';

const [storeUrl, baseUrl, apiKey, mode, cardsFile] = process.argv.slice(2) as [string, string, string, string, string];
const cards = JSON.parse(readFileSync(cardsFile, 'utf8')) as [string, string][];
const store = await openStore(storeUrl);
const client = new GatewayClient({
  baseUrl,
  apiKey,
  // A 429 surfaces at once (counted below) instead of being waited out.
  maxRetryAfterMs: 0,
  marketRateLimit: { backgroundShare: 0.25, shared: mode === 'shared' ? sharedCardBudgetOf(store, 0.25) : undefined },
});
process.stdout.write('ready\n');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const out = { answered: 0, refused: 0, rateLimited: 0, other: [] as string[] };
await Promise.all(
  cards.map(async ([epk, bookie]) => {
    try {
      await client.markets.get({ epk, bookie }, { maxQueueMs: 4_000 });
      out.answered++;
    } catch (err) {
      if (err instanceof CardLimitError) out.refused++;
      else if (err instanceof RateLimitError) out.rateLimited++;
      else out.other.push(String((err as Error).message).slice(0, 200));
    }
  }),
);
process.stdout.write(`${JSON.stringify(out)}\n`);
client.close();
await store.close();
