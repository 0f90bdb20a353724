import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

const tick = (ms = 10) => new Promise((r) => setTimeout(r, ms));
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), ms))]);

/** A transaction holding keys (TxOptions.serialize, decision 2147) against serialize and against each other. */
describe.each(ENGINES)('a transaction that holds keys, on %s', (engine) => {
  let url: string;
  let cleanup: () => void;
  let a: BotStore;
  let b: BotStore;
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    url = fresh.url;
    cleanup = fresh.cleanup;
    a = await openStore(url);
    // A second store on the same database: another process.
    b = engine === 'postgres' ? await openStore(url) : a;
  });
  afterEach(async () => {
    if (b !== a) await b.close();
    await a.close();
    cleanup();
  });

  it('does not start while a serialize of another process holds one of its keys, and starts once it is freed', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let holding = false;
    const holder = a.serialize(['guild:1', 'member:7'], async () => {
      holding = true;
      await held;
    });
    while (!holding) await tick();
    const order: string[] = [];
    const tx = b.transaction(
      async (t) => {
        order.push('tx');
        return (await t.query<{ one: number }>('SELECT 1 AS one'))[0]?.one;
      },
      { serialize: ['member:7', 'slip:x'] },
    );
    expect(await within(tx, 300)).toBe('still waiting');
    order.push('freed');
    release();
    await holder;
    expect(await tx).toBe(1);
    expect(order).toEqual(['freed', 'tx']);
  });

  it('keeps a serialize sharing a key waiting until it has committed', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inside = false;
    const tx = a.transaction(
      async (t) => {
        await t.query('SELECT 1 AS one');
        inside = true;
        await held;
      },
      { serialize: 'guild:2' },
    );
    while (!inside) await tick();
    const later = b.serialize('guild:2', async () => 'ran');
    expect(await within(later, 300)).toBe('still waiting');
    release();
    await tx;
    expect(await later).toBe('ran');
  });

  it('frees its keys when it rolls back', async () => {
    await expect(
      a.transaction(
        async () => {
          throw new Error('refused');
        },
        { serialize: 'guild:3' },
      ),
    ).rejects.toThrow('refused');
    expect(
      await within(
        b.serialize('guild:3', async () => 'ran'),
        3_000,
      ),
    ).toBe('ran');
  });

  it("takes keys with quotes and backslashes as they are: the same key's holders exclude each other", async () => {
    const key = `o'brien\\"; SELECT 1; --`;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inside = false;
    const first = a.transaction(
      async () => {
        inside = true;
        await held;
      },
      { serialize: key },
    );
    while (!inside) await tick();
    const second = b.transaction(async (t) => (await t.query<{ two: number }>('SELECT 2 AS two'))[0]?.two, {
      serialize: key,
    });
    expect(await within(second, 300)).toBe('still waiting');
    release();
    await first;
    expect(await second).toBe(2);
  });
});

describe('a transaction that holds keys, on postgres: connections', () => {
  it('never starves a serialize holder of the connection its work needs, however many wait on its key', async () => {
    const fresh = await freshStoreUrl('postgres', { migrated: true });
    const store = await openStore(fresh.url);
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let holding = false;
      // As a proposal does: the key's lock held by serialize, its statement run on the main pool.
      const holder = store.serialize('guild:busy', async () => {
        holding = true;
        await held;
        return (await store.query<{ n: number }>('SELECT 3 AS n'))[0]?.n;
      });
      while (!holding) await tick();
      // Twelve claims waiting on the key: more than either pool has connections.
      const waiting = Array.from({ length: 12 }, (_, i) =>
        store.transaction(async (t) => (await t.query<{ i: number }>('SELECT ? AS i', i))[0]?.i, {
          serialize: 'guild:busy',
        }),
      );
      await tick(300);
      release();
      expect(await within(holder, 5_000)).toBe(3);
      expect((await within(Promise.all(waiting), 10_000)) as number[]).toHaveLength(12);
    } finally {
      await store.close();
      fresh.cleanup();
    }
  });
});
