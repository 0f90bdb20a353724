import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlipRepo } from '../../../src/bot/betting/slips.js';
import { JobRepo } from '../../../src/bot/jobs/jobs-repo.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import { OnceRepo } from '../../../src/bot/receiver/once.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, type EngineName, freshStoreUrl } from '../../pg/engines.js';

const slip = (id: string, userId = 'u1', expiresAt = Date.now() + 60_000) => ({
  slipId: id,
  guildId: 'g1',
  channelId: 'c1',
  messageId: null,
  userId,
  payload: { stakeCents: 500 } as SlipPayload,
  createdAt: Date.now(),
  expiresAt,
});

describe.each(ENGINES)('store on %s', (engine) => {
  let store: BotStore;
  let cleanup: () => void;
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it("reads a slip (a proposal's too) stored with its stake in dollars only as whole cents", async () => {
    const old = { epk: 'nba/e1', bookie: 'bookie_a', sessionId: '1001', stake: 4.35, shownOdds: 2 };
    await store.query(
      `INSERT INTO slips (slip_id, guild_id, channel_id, message_id, user_id, payload, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      'old-dollars',
      'g1',
      'c1',
      null,
      'u1',
      JSON.stringify(old),
      Date.now(),
      Date.now() + 60_000,
    );
    const read = await new SlipRepo(store).get('old-dollars');
    expect(read?.payload.stakeCents).toBe(435);
    expect(read?.payload).not.toHaveProperty('stake');
  });

  it('records a webhook delivery only once', async () => {
    const once = new OnceRepo(store);
    const first = await Promise.all(Array.from({ length: 10 }, () => once.recordDelivery('cid', '{}', Date.now())));
    expect(first.filter(Boolean)).toHaveLength(1);
  });

  it('resolves a job once and lets another process take over expired leases', async () => {
    const a = new JobRepo(store, 'proc-a', 1000);
    const now = Date.now();
    await a.insert({ correlationId: 'j1', kind: 'bet', envelope: { correlation_id: 'j1' }, context: {} }, now);
    await a.insert({ correlationId: 'j2', kind: 'bet', envelope: { correlation_id: 'j2' }, context: {} }, now);
    const b = new JobRepo(store, 'proc-b', 1000);
    expect(await b.takeOverPending(now)).toHaveLength(0);
    const taken = await b.takeOverPending(now + 2000);
    expect(taken.map((j) => j.correlationId).sort()).toEqual(['j1', 'j2']);
    const outcomes = await Promise.all([a.resolve('j1', { n: 1 }, now), b.resolve('j1', { n: 2 }, now)]);
    expect(outcomes.filter((o) => o !== undefined)).toHaveLength(1);
    expect(await a.unposted()).toHaveLength(1);
    await a.markPosted('j1', now);
    expect(await a.unposted()).toHaveLength(0);
  });

  it('sweeps long-expired slips and cache entries, keeping recently expired slips to say so', async () => {
    const slips = new SlipRepo(store);
    await slips.create(slip('old', 'u1', Date.now() - 3_600_010));
    await slips.create(slip('recent', 'u1', Date.now() - 10));
    await store.kv.set('cache:x', 1, 1);
    await new Promise((r) => setTimeout(r, 5));
    await store.sweep(Date.now());
    expect(await slips.get('old')).toBeUndefined();
    expect((await slips.get('recent'))?.expiresAt).toBeLessThan(Date.now());
    const rows = await store.query("SELECT key FROM keyv WHERE key = 'bot:cache:x'");
    expect(rows).toHaveLength(0);
  });
});

/** What each of this process's open descriptors points at (a path, or `socket:[inode]`). */
function descriptorTargets(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

/** This process's open descriptors on `file` itself (not its -wal or -shm). */
function descriptorsOn(file: string): number {
  return descriptorTargets().filter((target) => target === file).length;
}

/** A store on a fresh SQLite file for `fn`, closed and removed after. */
const onFreshSqlite = (fn: (store: BotStore, url: string) => Promise<void>, migrated = false) =>
  onFresh('sqlite', fn, migrated);

/** A store on a fresh database of `engine` for `fn`, closed and removed after. */
async function onFresh(
  engine: EngineName,
  fn: (store: BotStore, url: string) => Promise<void>,
  migrated = false,
): Promise<void> {
  const fresh = await freshStoreUrl(engine, { migrated });
  const store = await openStore(fresh.url);
  try {
    await fn(store, fresh.url);
  } finally {
    await store.close();
    fresh.cleanup();
  }
}

describe('store on sqlite only', () => {
  it('holds two connections to its file once open: single statements and transactions (keyv’s own is closed)', () =>
    onFreshSqlite(async (store, url) => {
      await store.kv.set('k', { v: 1 });
      expect(await store.kv.get('k')).toEqual({ v: 1 });
      expect(descriptorsOn(resolve(url.replace(/^sqlite:\/\//, '')))).toBe(2);
    }));

  it('answers each of many single statements of one text sent at once with its own rows', () =>
    onFreshSqlite(async (store) => {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.query<{ v: number }>('SELECT ? AS v', i)),
      );
      expect(answers.map((rows) => rows[0]?.v)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    }));

  it('runs a statement text again after the same text failed', () =>
    onFreshSqlite(async (store) => {
      const insert = 'INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES (?, ?, ?)';
      await store.query(insert, 'a', '{}', 1);
      await expect(store.query(insert, 'a', '{}', 2)).rejects.toThrow(/UNIQUE|PRIMARY KEY|constraint/i);
      await store.query(insert, 'b', '{}', 3);
      const rows = await store.query('SELECT correlation_id FROM webhook_deliveries ORDER BY correlation_id');
      expect(rows.map((r) => r.correlation_id)).toEqual(['a', 'b']);
    }, true));

  it('runs in WAL mode', async () => {
    const fresh = await freshStoreUrl('sqlite');
    const store = await openStore(fresh.url);
    try {
      const rows = await store.query<{ journal_mode: string }>('PRAGMA journal_mode');
      expect(rows[0]?.journal_mode).toBe('wal');
    } finally {
      await store.close();
      fresh.cleanup();
    }
  });
});

describe('store on sqlite: an urgent transaction', () => {
  it('runs next after the one running, ahead of the ordinary transactions queued before it', async () => {
    const fresh = await freshStoreUrl('sqlite', { migrated: true });
    const store = await openStore(fresh.url);
    try {
      const order: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const tx = (name: string, wait?: Promise<void>, urgent = false) =>
        store.transaction(
          async (t) => {
            await t.query('SELECT 1 AS one');
            await wait;
            order.push(name);
          },
          { urgent },
        );
      const running = tx('running', gate);
      // Let the first transaction begin before the others queue behind it.
      await new Promise((r) => setTimeout(r, 20));
      const queued = [tx('ordinary 1'), tx('ordinary 2'), tx('urgent', undefined, true)];
      release();
      await Promise.all([running, ...queued]);
      expect(order).toEqual(['running', 'urgent', 'ordinary 1', 'ordinary 2']);
    } finally {
      await store.close();
      fresh.cleanup();
    }
  });
});

describe('store on sqlite: transactions on a connection of their own (decision 2080)', () => {
  let store: BotStore;
  let url: string;
  let cleanup: () => void;
  beforeEach(async () => {
    const fresh = await freshStoreUrl('sqlite', { migrated: true });
    ({ url, cleanup } = fresh);
    store = await openStore(url);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });
  const insert = (s: BotStore, id: string) =>
    s.query('INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES (?, ?, ?)', id, '{}', 1);

  it('starts an urgent transaction after the few statements already in SQLite, not after the hundred queued', async () => {
    let done = 0;
    const queued = Array.from({ length: 100 }, (_, i) => insert(store, `q${i}`).then(() => done++));
    const seen = await store.transaction(
      async (tx) => {
        await tx.query('SELECT 1 AS one');
        return done;
      },
      { urgent: true },
    );
    await Promise.all(queued);
    // MAIN_IN_FLIGHT (4) were in SQLite when it asked; the other 96 wait for it.
    expect(seen).toBeLessThanOrEqual(4);
  });

  it('runs single statements and transactions sent together to the end, none failing on the write lock', async () => {
    const started = performance.now();
    const work = Array.from({ length: 60 }, (_, i) =>
      i % 6 === 0
        ? store.transaction(
            async (tx) => {
              await tx.query(
                'INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES (?, ?, ?)',
                `t${i}`,
                '{}',
                1,
              );
              // The write lock is held across a turn of the event loop, as a transaction's statements hold it.
              await new Promise((r) => setTimeout(r, 20));
              await tx.query('SELECT COUNT(*) AS n FROM webhook_deliveries');
            },
            { urgent: i % 12 === 0 },
          )
        : insert(store, `s${i}`),
    );
    await Promise.all(work);
    const [row] = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_deliveries');
    expect({ rows: row?.n, fast: performance.now() - started < 3_000 }).toEqual({ rows: 60, fast: true });
  });

  it("waits out another process's write lock for a single statement instead of failing at once", async () => {
    const other = await openStore(url);
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let locked!: () => void;
      const lockTaken = new Promise<void>((r) => {
        locked = r;
      });
      const holding = other.transaction(async (tx) => {
        await tx.query(
          'INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES (?, ?, ?)',
          'o',
          '{}',
          1,
        );
        locked();
        await held;
      });
      await lockTaken;
      const waiting = insert(store, 'mine');
      setTimeout(release, 300);
      await Promise.all([holding, waiting]);
      const rows = await store.query('SELECT correlation_id FROM webhook_deliveries ORDER BY correlation_id');
      expect(rows.map((r) => r.correlation_id)).toEqual(['mine', 'o']);
    } finally {
      await other.close();
    }
  });
});

describe('store on postgres: an urgent transaction', () => {
  it('gets a connection while every connection of the pool is held by ordinary transactions', async () => {
    const fresh = await freshStoreUrl('postgres', { migrated: true });
    const store = await openStore(fresh.url);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    try {
      let running = 0;
      const ordinary = Array.from({ length: 10 }, () =>
        store.transaction(async (tx) => {
          await tx.query('SELECT 1 AS one');
          running++;
          await held;
        }),
      );
      while (running < 10) await new Promise((r) => setTimeout(r, 10));
      const urgent = store.transaction(async (tx) => (await tx.query('SELECT 2 AS two'))[0]?.two, { urgent: true });
      const answer = await Promise.race([urgent, new Promise((r) => setTimeout(() => r('still waiting'), 3_000))]);
      release();
      await Promise.all(ordinary);
      expect(answer).toBe(2);
    } finally {
      release();
      await store.close();
      fresh.cleanup();
    }
  });
});

describe('store on postgres: its connections', () => {
  /** Longer than pg's default idle timeout (10 s), far shorter than the store's (decision 2148). */
  const QUIET_MS = 11_000;

  it(
    'keeps a connection through a quiet spell longer than the driver default',
    () =>
      onFresh(
        'postgres',
        async (store) => {
          const backend = async () => (await store.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]?.pid;
          const before = await backend();
          await new Promise((r) => setTimeout(r, QUIET_MS));
          expect(await backend()).toBe(before);
        },
        true,
      ),
    30_000,
  );

  it('has TCP keep-alive on every connection of each of its pools, so an idle one is probed', async () => {
    const earlier = socketInodes();
    await onFresh(
      'postgres',
      async (store, url) => {
        // The main pool's connections, a lock pool's (serialize) and an urgent transaction's, open at once.
        await Promise.all([
          ...Array.from({ length: 3 }, () => store.query('SELECT pg_sleep(0.05)')),
          store.serialize(['keep-alive'], () => store.query('SELECT pg_sleep(0.05)')),
          store.transaction((tx) => tx.query('SELECT pg_sleep(0.05)'), { urgent: true }),
        ]);
        const timers = tcpTimersTo(Number(new URL(url).port), earlier);
        expect(timers.length).toBeGreaterThanOrEqual(5);
        // /proc/net/tcp's timer column: 2 is the keep-alive timer, 0 none.
        expect(timers.filter((t) => t !== 2)).toEqual([]);
      },
      true,
    );
  });
});

/** The inodes of this process's open sockets. */
function socketInodes(): Set<string> {
  return new Set(descriptorTargets().flatMap((target) => /^socket:\[(\d+)\]$/.exec(target)?.slice(1, 2) ?? []));
}

/**
 * The armed timer of each TCP socket this process holds to `port` (from /proc/net/tcp), leaving out the sockets in
 * `earlier` (another test file's, in a worker files share).
 */
function tcpTimersTo(port: number, earlier: Set<string>): number[] {
  const ours = socketInodes();
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => Number.parseInt(f[2]?.split(':')[1] ?? '', 16) === port)
    .filter((f) => ours.has(f[9] ?? '') && !earlier.has(f[9] ?? ''))
    .map((f) => Number.parseInt(f[5]?.split(':')[0] ?? '', 16));
}
