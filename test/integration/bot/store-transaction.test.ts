import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

let cleanup: () => void;
let store: BotStore;

describe.each(ENGINES)('a store transaction on %s', (engine) => {
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine);
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  const leases = async () =>
    (await store.query<{ name: string }>("SELECT name FROM leases WHERE name LIKE 'tx-%' ORDER BY name")).map(
      (r) => r.name,
    );

  it('commits all of its statements together, or none when it throws', async () => {
    await store.transaction(async (tx) => {
      await tx.query("INSERT INTO leases (name, owner, lease_until) VALUES ('tx-a', 'o', 0)");
      await tx.query("INSERT INTO leases (name, owner, lease_until) VALUES ('tx-b', 'o', 0)");
    });
    await expect(
      store.transaction(async (tx) => {
        await tx.query("INSERT INTO leases (name, owner, lease_until) VALUES ('tx-c', 'o', 0)");
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await leases()).toEqual(['tx-a', 'tx-b']);
  });

  it('keeps a keyv write made while a transaction is open out of it, so its rollback does not undo the write', async () => {
    let write: Promise<unknown> | undefined;
    await expect(
      store.transaction(async (tx) => {
        await tx.query("INSERT INTO leases (name, owner, lease_until) VALUES ('tx-d', 'o', 0)");
        write = store.kv.set('setting', 'kept');
        await new Promise((r) => setTimeout(r, 30));
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    await write;
    expect(await store.kv.get('setting')).toBe('kept');
    expect(await leases()).toEqual([]);
  });
});
