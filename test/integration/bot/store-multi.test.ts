// The store with several processes on it, on both engines: migrations at start, key locks, leader leases,
// the same delivery arriving at two processes. Each "process" is a store opened separately (own pools).
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BetRecordRepo } from '../../../src/bot/betting/bet-records.js';
import { SlipRepo } from '../../../src/bot/betting/slips.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import { OnceRepo } from '../../../src/bot/receiver/once.js';
import { getSettings, updateSettings } from '../../../src/bot/settings/guild-settings.js';
import { type BotStore, LATEST_VERSION, MIGRATIONS, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

describe.each(ENGINES)('store with several processes on %s', (engine) => {
  let url: string;
  let cleanup: () => void;
  const open: BotStore[] = [];
  const openOne = async (opts?: Parameters<typeof openStore>[1]) => {
    const s = await openStore(url, opts);
    open.push(s);
    return s;
  };
  beforeEach(async () => {
    ({ url, cleanup } = await freshStoreUrl(engine));
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    cleanup();
  });

  it('migrates an empty store to the latest version, once, when two processes start together', async () => {
    const [a, b] = await Promise.all([openOne(), openOne()]);
    expect(await a.schemaVersion()).toBe(LATEST_VERSION);
    const rows = await b.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: LATEST_VERSION }, (_, i) => i + 1));
  });

  it('upgrades a store from the previous version and keeps its rows', async () => {
    const old = await openOne({ migrateTo: LATEST_VERSION - 1 });
    expect(await old.schemaVersion()).toBe(LATEST_VERSION - 1);
    await old.query(
      'INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES (?, ?, ?)',
      'cid-kept',
      '{}',
      1_700_000_000_000,
    );
    await old.close();
    const now = await openOne();
    expect(await now.schemaVersion()).toBe(LATEST_VERSION);
    expect(await now.query('SELECT correlation_id, received_at FROM webhook_deliveries')).toEqual([
      { correlation_id: 'cid-kept', received_at: 1_700_000_000_000 },
    ]);
  });

  it('drops the posts, bets and stake_usage tables, with their rows, when upgrading from version 4', async () => {
    const old = await openOne({ migrateTo: 4 });
    await old.query('INSERT INTO posts (post_key, posted_at) VALUES (?, ?)', 'result:old', 1_700_000_000_000);
    await old.close();
    const now = await openOne();
    const tables = ['posts', 'bets', 'stake_usage'];
    const left = await Promise.all(
      tables.map((t) =>
        now.query(`SELECT 1 FROM ${t}`).then(
          () => t,
          () => null,
        ),
      ),
    );
    expect(left.filter(Boolean)).toEqual([]);
  });

  it('applies concurrent read-modify-writes of guild settings from two processes without losing any', async () => {
    const [a, b] = await Promise.all([openOne(), openOne()]);
    // Each update adds its own bookie → session entry to the same guild's record: a lost update drops one.
    const keys = Array.from({ length: 30 }, (_, i) => `bookie_${i}`);
    await Promise.all(
      keys.map((k, i) =>
        updateSettings(i % 2 === 0 ? a : b, 'g1', (s) => ({ ...s, sessions: { ...s.sessions, [k]: 'x' } })),
      ),
    );
    expect(Object.keys((await getSettings(a, 'g1')).sessions).sort()).toEqual([...keys].sort());
  });

  it('makes a second process wait for a key lock held by the first', async () => {
    const [a, b] = await Promise.all([openOne(), openOne()]);
    const order: string[] = [];
    let release!: () => void;
    const held = a.withLock('k', async () => {
      order.push('a in');
      await new Promise<void>((r) => {
        release = r;
      });
      order.push('a out');
    });
    await expect.poll(() => order.length, { timeout: 15_000 }).toBe(1);
    const waiting = b.withLock('k', async () => {
      order.push('b in');
    });
    await delay(300);
    release();
    await Promise.all([held, waiting]);
    expect(order).toEqual(['a in', 'a out', 'b in']);
  });

  it('records the same delivery arriving at two processes at once only once', async () => {
    const [a, b] = await Promise.all([openOne(), openOne()]);
    const onceA = new OnceRepo(a);
    const onceB = new OnceRepo(b);
    const ids = Array.from({ length: 50 }, (_, i) => `cid-${i}`);
    const results = await Promise.all(
      ids.flatMap((id) => [onceA.recordDelivery(id, '{}', Date.now()), onceB.recordDelivery(id, '{}', Date.now())]),
    );
    expect(results.filter(Boolean)).toHaveLength(ids.length);
    const rows = await a.query<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_deliveries');
    expect(rows[0]?.n).toBe(ids.length);
  });

  it('runs leader work in one process at a time and hands it over when the leader stops', async () => {
    const [a, b] = await Promise.all([openOne(), openOne()]);
    const working = new Set<string>();
    let overlap = false;
    const work = (who: string) => () => {
      if (working.size > 0) overlap = true;
      working.add(who);
      return () => {
        working.delete(who);
      };
    };
    const runA = a.runAsLeader('settlement', work('a'), { checkMs: 50 });
    await expect.poll(() => runA.isLeader, { timeout: 15_000 }).toBe(true);
    const runB = b.runAsLeader('settlement', work('b'), { checkMs: 50 });
    await delay(300);
    expect([...working]).toEqual(['a']);
    await runA.stop();
    await expect.poll(() => runB.isLeader, { timeout: 15_000 }).toBe(true);
    expect({ working: [...working], overlap }).toEqual({ working: ['b'], overlap: false });
    await runB.stop();
  });

  it('lets another process lead once the leader process closes its store', async () => {
    const [a, b] = await Promise.all([openOne(), openOne()]);
    const runA = a.runAsLeader('watch', () => undefined, { checkMs: 50 });
    await expect.poll(() => runA.isLeader, { timeout: 15_000 }).toBe(true);
    const runB = b.runAsLeader('watch', () => undefined, { checkMs: 50 });
    await a.close();
    await expect.poll(() => runB.isLeader, { timeout: 15_000 }).toBe(true);
  });
});

describe('store versions on sqlite', () => {
  it('adopts a store file made before versioning (no schema_migrations) and keeps its rows', async () => {
    const { url, cleanup } = await freshStoreUrl('sqlite');
    // The file as the bot left it before migrations: the version-1 tables and keyv, made by hand.
    const KeyvSqlite = (await import('@keyv/sqlite')).default;
    const raw = new KeyvSqlite({ uri: url });
    for (const stmt of MIGRATIONS[0]!.statements) await raw.query(stmt);
    await raw.query(
      "INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES ('cid-old', '{}', 1700000000000)",
    );
    await raw.disconnect();
    const store = await openStore(url);
    try {
      expect(await store.schemaVersion()).toBe(LATEST_VERSION);
      expect(await store.query('SELECT correlation_id FROM webhook_deliveries')).toEqual([
        { correlation_id: 'cid-old' },
      ]);
    } finally {
      await store.close();
      cleanup();
    }
  });
});

describe.each(ENGINES)('store versions on %s', (engine) => {
  it('refuses to open a store migrated by a newer bot', async () => {
    const { url, cleanup } = await freshStoreUrl(engine);
    const store = await openStore(url);
    await store.query(
      'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
      LATEST_VERSION + 1,
      'future',
      0,
    );
    await store.close();
    try {
      await expect(openStore(url)).rejects.toThrow(/newer than this bot knows/);
    } finally {
      cleanup();
    }
  });
});

describe.each(ENGINES)('a slip claimed and closed from two processes on %s', (engine) => {
  it('lets exactly one of the close and the claim win for each of 100 slips', async () => {
    const { url, cleanup } = await freshStoreUrl(engine);
    const [a, b] = [await openStore(url), await openStore(url)];
    try {
      const ids = Array.from({ length: 100 }, (_, i) => `s${i}`);
      const now = Date.now();
      for (const id of ids) {
        await new SlipRepo(a).create({
          slipId: id,
          guildId: 'g1',
          channelId: 'c1',
          messageId: `m-${id}`,
          userId: 'u1',
          payload: { stakeCents: 100, sessionId: '1001', bookie: 'bookie_a' } as SlipPayload,
          createdAt: now,
          expiresAt: now + 60_000,
        });
      }
      const records = new BetRecordRepo(b);
      const outcomes = await Promise.all(
        ids.map(async (id) => {
          const [closed, claim] = await Promise.all([
            new SlipRepo(a).close(id),
            records.claim({
              placementId: `p-${id}`,
              slipId: id,
              userId: 'u1',
              guildKey: 'g1',
              day: '2026-11-22',
              stakeCents: 100,
              dayLimitCents: 1_000_000,
              now: Date.now(),
            }),
          ]);
          return Number(closed) + Number(claim.kind === 'claimed');
        }),
      );
      expect(outcomes.filter((n) => n !== 1)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
      cleanup();
    }
  });
});

describe.each(ENGINES)("one member's day limit claimed from two processes on %s", (engine) => {
  it('lets exactly one of 20 concurrent claims take the last room under the limit', async () => {
    const { url, cleanup } = await freshStoreUrl(engine);
    const [a, b] = [await openStore(url), await openStore(url)];
    try {
      const now = Date.now();
      const ids = Array.from({ length: 29 }, (_, i) => `d${i}`);
      for (const id of ids) {
        await new SlipRepo(a).create({
          slipId: id,
          guildId: 'g1',
          channelId: 'c1',
          messageId: `m-${id}`,
          userId: 'u1',
          payload: { stakeCents: 100, sessionId: '1001', bookie: 'bookie_a' } as SlipPayload,
          createdAt: now,
          expiresAt: now + 60_000,
        });
      }
      const claim = (store: BotStore, id: string) =>
        new BetRecordRepo(store).claim({
          placementId: `p-${id}`,
          slipId: id,
          userId: 'u1',
          guildKey: 'g1',
          day: '2026-11-22',
          stakeCents: 100,
          dayLimitCents: 1_000,
          now: Date.now(),
        });
      // Nine of ten 100-cent holds taken, then twenty claims at once from both processes for the last 100.
      for (const id of ids.slice(0, 9)) expect((await claim(a, id)).kind).toBe('claimed');
      const outcomes = await Promise.all(ids.slice(9).map((id, i) => claim(i % 2 === 0 ? a : b, id)));
      expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
      expect(await new BetRecordRepo(a).usedCents('g1', 'u1', '2026-11-22')).toBe(1_000);
    } finally {
      await a.close();
      await b.close();
      cleanup();
    }
  });
});
