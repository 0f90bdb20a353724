// A transaction this process opens on a store and holds until released: on SQLite it holds the file's one write
// lock, so another process's transactions wait behind it (it is rolled back, writing nothing).
import type { BotStore } from '../../src/bot/store/index.js';
import { until } from './wait.js';

/** Resolves once the transaction holds the store; `release()` rolls it back and resolves when it has ended. */
export async function holdStoreWrites(store: BotStore): Promise<{ release: () => Promise<void> }> {
  let free!: () => void;
  const freed = new Promise<void>((resolve) => {
    free = resolve;
  });
  let holding = false;
  const held = store
    .transaction(async (tx) => {
      await tx.query("INSERT INTO leases (name, owner, lease_until) VALUES ('test:held', 'test', 0)");
      holding = true;
      await freed;
      throw new Error('rolled back on purpose');
    })
    .catch(() => undefined);
  await until('the transaction holding the store', () => holding, { timeoutMs: 5_000, everyMs: 5 });
  return {
    release: async () => {
      free();
      await held;
    },
  };
}
