import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import { sqliteDialect } from './dialect.js';
import { migrate } from './migrations.js';
import {
  type BotStore,
  keyedQueue,
  type OpenOptions,
  type Row,
  StoreClosedError,
  sharedStoreParts,
  sortedKeys,
  type Tx,
  type TxOptions,
} from './types.js';

/** A leader lease that has not been renewed for this long is free for another process. */
const LEASE_TTL_MS = 15_000;

/** A leader lease's owner: this machine, this process, and a random part (one per lease run). */
function localOwner(): string {
  return `${hostname()}:${process.pid}:${randomUUID()}`;
}

/**
 * Whether a lease owner names a process of this machine that no longer runs. Owners written elsewhere, in an
 * older form, or by a process that still runs (or cannot be asked) are not gone: their lease runs out by itself.
 */
export function isGoneLocalOwner(owner: string): boolean {
  const m = /^(.*):(\d+):[0-9a-f-]{36}$/.exec(owner);
  if (!m || m[1] !== hostname()) return false;
  const pid = Number(m[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
/** A key lock of a process that died holding it frees itself after this long. */
const KEY_LOCK_TTL_MS = 30_000;

/**
 * Two processes opening a new file together can meet SQLITE_BUSY where SQLite does not wait (switching to
 * WAL, a read that must become a write after the other committed): start-up tries again for a while.
 */
async function retryBusy<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const e = err as { code?: string; cause?: { code?: string } };
      const code = e.code ?? e.cause?.code;
      if (code !== 'SQLITE_BUSY' || attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 10 + Math.random() * 40));
    }
  }
}

function pathOf(url: string): string {
  return url.replace(/^sqlite:\/\//, '');
}

/** Runs one task at a time: urgent ones before any waiting ordinary one, each kind first come, first served. */
function priorityQueue() {
  const waiting: { urgent: (() => void)[]; ordinary: (() => void)[] } = { urgent: [], ordinary: [] };
  let busy = false;
  const next = () => {
    const go = waiting.urgent.shift() ?? waiting.ordinary.shift();
    busy = go !== undefined;
    go?.();
  };
  return async <T>(urgent: boolean, fn: () => Promise<T>): Promise<T> => {
    if (busy) await new Promise<void>((resolve) => waiting[urgent ? 'urgent' : 'ordinary'].push(resolve));
    else busy = true;
    try {
      return await fn();
    } finally {
      next();
    }
  };
}

/** The embedded store: one file, one connection (keyv's), WAL. */
export async function openSqliteStore(url: string, opts: OpenOptions = {}): Promise<BotStore> {
  const now = opts.now ?? Date.now;
  const file = pathOf(url);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const adapter = new KeyvSqlite({ uri: url, busyTimeout: 5000 });
  let closed = false;
  // Every call (keyv's too) goes through adapter.query: after close it fails with a clear error instead of
  // reaching the closed sqlite handle (SQLITE_MISUSE). A transaction runs on this same connection, so while one
  // is open (or waits for the calls in flight to finish before its BEGIN) every other call waits: none of them
  // can land inside it, and its BEGIN never starts under another call.
  const run = adapter.query;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let txOpen: Promise<void> | undefined;
  const direct = (sql: string, ...params: unknown[]) =>
    closed ? Promise.reject(new StoreClosedError()) : run(sql, ...params);
  adapter.query = async (sql: string, ...params: unknown[]) => {
    while (txOpen) await txOpen;
    inFlight++;
    try {
      return await direct(sql, ...params);
    } finally {
      inFlight--;
      if (inFlight === 0) drained?.();
    }
  };
  const kv = new Keyv({ store: adapter, namespace: 'bot', throwOnErrors: true });
  const query = async <T extends Row = Row>(sql: string, ...params: unknown[]): Promise<T[]> =>
    (await adapter.query(sql, ...params)) as T[];
  await query('PRAGMA busy_timeout=5000');
  // Nothing else uses the connection yet, so the migrator may run its transactions on it.
  // BEGIN IMMEDIATE takes the file's write lock: a second process waits (busy_timeout) and then skips.
  try {
    await retryBusy(async () => {
      await query('PRAGMA journal_mode=WAL');
      await query('PRAGMA synchronous=NORMAL');
    });
    await retryBusy(() =>
      migrate(
        {
          dialect: sqliteDialect,
          exec: query,
          lock: async () => {},
          unlock: async () => {},
          begin: async () => {
            await query('BEGIN IMMEDIATE');
          },
        },
        now,
        opts.migrateTo,
      ),
    );
  } catch (err) {
    closed = true;
    await adapter.disconnect().catch(() => undefined);
    throw err;
  }

  /**
   * Takes the lease row `name` for `owner` until `until` when it is free: expired, already this owner's, or held
   * by a process of this machine that no longer runs (killed, crashed). A SQLite file is one machine's, so its
   * processes can be asked (decision 1790). One conditional UPDATE decides, so two askers cannot both win.
   */
  const claimRow = async (name: string, owner: string, until: number): Promise<boolean> => {
    const t = now();
    const claim = async (gone: string) =>
      (
        await query(
          `INSERT INTO leases (name, owner, lease_until) VALUES (?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
           WHERE leases.lease_until <= ? OR leases.owner = excluded.owner OR leases.owner = ? RETURNING owner`,
          name,
          owner,
          until,
          t,
          gone,
        )
      ).length === 1;
    if (await claim('')) return true;
    const [held] = await query<{ owner: string; lease_until: number }>(
      'SELECT owner, lease_until FROM leases WHERE name = ?',
      name,
    );
    return !!held && Number(held.lease_until) > t && isGoneLocalOwner(held.owner) && claim(held.owner);
  };

  // Key locks are lease rows, so another process on the same file waits too; in-process waiters queue first.
  // A lock left by a process that died holding it is free at once (the same test as the leader lease's).
  const inProcess = keyedQueue();
  const lockOwner = localOwner();
  const withLock = <T>(key: string, fn: () => Promise<T>): Promise<T> =>
    inProcess(key, async () => {
      const name = `lock:${key}`;
      for (let wait = 2; !(await claimRow(name, lockOwner, now() + KEY_LOCK_TTL_MS)); wait = Math.min(wait * 2, 50)) {
        await new Promise((r) => setTimeout(r, wait));
      }
      try {
        return await fn();
      } finally {
        await query('UPDATE leases SET lease_until = 0 WHERE name = ? AND owner = ?', name, lockOwner).catch(
          () => undefined,
        );
      }
    });

  const serialQueue = keyedQueue();
  // One transaction at a time in this process. It starts with a deferred BEGIN: with BEGIN IMMEDIATE, a writer
  // of another process busy-waiting on this connection's file could stall both for the whole busy_timeout.
  // SQLite runs write transactions one at a time, so one that read before another process's commit cannot
  // write (SQLITE_BUSY): it is rolled back and run again on fresh data (fn must only use `tx`, so a rerun
  // repeats nothing else).
  //
  // An urgent transaction (TxOptions.urgent: a receipt's) is the next to run: it waits for the one running and the
  // statements already sent, not for the transactions queued before it. (A second connection would not wait for
  // those either, but node-sqlite3 runs every statement on libuv's four threads, where writers of one connection
  // sleeping on the other's write lock could hold every thread the lock's owner needs.)
  const txQueue = priorityQueue();
  const attempt = <T>(fn: (tx: Tx) => Promise<T>, urgent: boolean): Promise<T> =>
    txQueue(urgent, async () => {
      let opened: () => void = () => {};
      txOpen = new Promise<void>((resolve) => {
        opened = resolve;
      });
      try {
        if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = undefined;
        await direct('BEGIN');
        try {
          const result = await fn({
            query: async <R extends Row = Row>(sql: string, ...params: unknown[]) =>
              (await direct(sql, ...params)) as R[],
            lock: async () => {},
          });
          await direct('COMMIT');
          return result;
        } catch (err) {
          await direct('ROLLBACK').catch(() => undefined);
          throw err;
        }
      } finally {
        txOpen = undefined;
        opened();
      }
    });
  const transaction = <T>(fn: (tx: Tx) => Promise<T>, txOpts?: TxOptions): Promise<T> =>
    retryBusy(() => attempt(fn, txOpts?.urgent === true));

  const store: BotStore = {
    engine: 'sqlite',
    dialect: sqliteDialect,
    kv,
    query,
    withLock,
    transaction,
    serialize: <T>(keys: string | string[], fn: () => Promise<T>): Promise<T> =>
      sortedKeys(keys).reduceRight<() => Promise<T>>((inner, key) => () => serialQueue(key, inner), fn)(),
    ...sharedStoreParts({
      query,
      dialect: sqliteDialect,
      lease: (name) => {
        const owner = localOwner();
        return {
          async tryAcquire() {
            return claimRow(`leader:${name}`, owner, now() + LEASE_TTL_MS);
          },
          async holds() {
            const rows = await query(
              'UPDATE leases SET lease_until = ? WHERE name = ? AND owner = ? RETURNING name',
              now() + LEASE_TTL_MS,
              `leader:${name}`,
              owner,
            );
            return rows.length === 1;
          },
          async release() {
            if (closed) return;
            await query('UPDATE leases SET lease_until = 0 WHERE name = ? AND owner = ?', `leader:${name}`, owner);
          },
        };
      },
      shutdown: async () => {
        closed = true;
        await adapter.disconnect();
      },
    }),
  };
  return store;
}
