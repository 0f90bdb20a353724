import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import { sqliteDialect } from './dialect.js';
import { migrate } from './migrations.js';
import { openReceiptJournal } from './sqlite-receipts.js';
import { openPreparedConnection, openTxConnection, type TxConnection } from './sqlite-tx-connection.js';
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
/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;
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
      if (!isBusy(err) || attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 10 + Math.random() * 40));
    }
  }
}

function isBusy(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === 'SQLITE_BUSY';
}

/**
 * A single statement of the main connection, tried again while another connection holds the write lock, for up to
 * BUSY_TIMEOUT_MS: SQLite's own busy wait, but asleep on the event loop, not in libuv's thread holding the
 * connection's mutex (decision 2080). A statement answered SQLITE_BUSY changed nothing.
 */
async function waitingOutBusy<T>(fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return await fn();
    } catch (err) {
      if (!isBusy(err) || performance.now() - started >= BUSY_TIMEOUT_MS) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

function pathOf(url: string): string {
  return url.replace(/^sqlite:\/\//, '');
}

/**
 * How many statements the main connection has in libuv's threads at once (each is two trips there: prepare, then
 * step): enough that SQLite has the next one ready (with 2, figure 11's SQLite confirms fell by a third), few
 * enough that a transaction waits for no more than these, not for every statement queued (decision 2080).
 */
const MAIN_IN_FLIGHT = 4;

/**
 * The main connection's use: at most `limit` statements at once, first come, first served; `exclusive` has it to
 * itself (a transaction), once the statements running have finished and before any waiting one starts. While it
 * holds the connection no statement of this process is in SQLite: none can sleep on the transaction's write lock
 * holding the connection's mutex, which node-sqlite3 takes on the main thread to finalize a statement.
 */
function connectionGate(limit: number) {
  const waiting: (() => void)[] = [];
  let running = 0;
  let holder: (() => void) | undefined;
  let held = false;
  const next = () => {
    if (holder || held) {
      if (running === 0 && holder) {
        held = true;
        const go = holder;
        holder = undefined;
        go();
      }
      return;
    }
    while (running < limit && waiting.length > 0) {
      running++;
      waiting.shift()?.();
    }
  };
  return {
    async statement<T>(fn: () => Promise<T>): Promise<T> {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        next();
      });
      try {
        return await fn();
      } finally {
        running--;
        next();
      }
    },
    /** One at a time (the caller's transaction queue sees to it). */
    async exclusive<T>(fn: () => Promise<T>): Promise<T> {
      await new Promise<void>((resolve) => {
        holder = resolve;
        next();
      });
      try {
        return await fn();
      } finally {
        held = false;
        next();
      }
    },
  };
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

/** fn's statements between `begin` and COMMIT on one connection; ROLLBACK when fn or the COMMIT fails. */
async function inTransaction<T>(
  begin: string,
  exec: (sql: string, ...params: unknown[]) => Promise<unknown>,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  await exec(begin);
  try {
    const result = await fn({
      query: async <R extends Row = Row>(sql: string, ...params: unknown[]) => (await exec(sql, ...params)) as R[],
      lock: async () => {},
    });
    await exec('COMMIT');
    return result;
  } catch (err) {
    await exec('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * The embedded store: one file, WAL, two connections: keyv's for single statements and keyv, a second one for the
 * transactions (see `attempt`).
 */
export async function openSqliteStore(url: string, opts: OpenOptions = {}): Promise<BotStore> {
  const now = opts.now ?? Date.now;
  const file = pathOf(url);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const adapter = new KeyvSqlite({ uri: url, busyTimeout: BUSY_TIMEOUT_MS });
  let closed = false;
  // Every call (keyv's too) goes through adapter.query: after close it fails with a clear error instead of
  // reaching the closed sqlite handle (SQLITE_MISUSE). While a transaction is open (or waits for the calls in flight
  // to finish before its BEGIN) every other call waits (see `attempt`).
  // keyv's connection until start-up is done; then the main connection of prepared statements (below).
  let run: (sql: string, ...params: unknown[]) => Promise<unknown> = adapter.query;
  let mainConn: TxConnection | undefined;
  const main = connectionGate(MAIN_IN_FLIGHT);
  const direct = (sql: string, ...params: unknown[]) =>
    closed ? Promise.reject(new StoreClosedError()) : run(sql, ...params);
  adapter.query = (sql: string, ...params: unknown[]) =>
    main.statement(() => waitingOutBusy(() => direct(sql, ...params)));
  const kv = new Keyv({ store: adapter, namespace: 'bot', throwOnErrors: true });
  const query = async <T extends Row = Row>(sql: string, ...params: unknown[]): Promise<T[]> =>
    (await adapter.query(sql, ...params)) as T[];
  await query(`PRAGMA busy_timeout=${BUSY_TIMEOUT_MS}`);
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
  // From here the main connection does not sleep on a busy lock (waitingOutBusy waits instead): node-sqlite3
  // finalizes a statement on the main thread under the connection's mutex, so a statement asleep holding that mutex
  // could stop the event loop until it gave up, and with it the transaction holding the lock.
  await query('PRAGMA busy_timeout=0');
  // The main connection's statements, each text prepared once (decision 2142): one trip to libuv's threads a
  // statement instead of three (prepare, step, finalize), and no statement object made and finalized on the event
  // loop for each. keyv's own connection did start-up (migrations) and is closed: keyv's reads and writes go through
  // `adapter.query`, which runs here. An in-memory database is keyv's connection's own, so it stays there.
  if (file !== ':memory:') {
    try {
      const main = await openPreparedConnection(file, 0, 'PRAGMA synchronous=NORMAL');
      mainConn = main;
      await adapter.disconnect();
      run = (sql, ...params) => main.run(sql, params);
    } catch (err) {
      closed = true;
      await mainConn?.close().catch(() => undefined);
      await adapter.disconnect().catch(() => undefined);
      throw err;
    }
  }
  const closeMain = () => (mainConn ? mainConn.close() : adapter.disconnect());
  // An in-memory database is one connection's own: its transactions stay on the main connection.
  const txConn: TxConnection | undefined =
    file === ':memory:'
      ? undefined
      : await openTxConnection(file, BUSY_TIMEOUT_MS).catch(async (err) => {
          closed = true;
          await closeMain().catch(() => undefined);
          throw err;
        });
  const receipts =
    file === ':memory:' || !txConn || opts.receipts !== true
      ? undefined
      : await openReceiptJournal(file, BUSY_TIMEOUT_MS).catch(async (err) => {
          closed = true;
          await txConn.close().catch(() => undefined);
          await closeMain().catch(() => undefined);
          throw err;
        });
  const onTxConn = (sql: string, ...params: unknown[]) =>
    closed || !txConn ? direct(sql, ...params) : txConn.run(sql, params);

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
  // An urgent transaction (TxOptions.urgent: a receipt's) is the next to run, ahead of the transactions queued before
  // it, and takes the write lock at its BEGIN IMMEDIATE: it reads after the last commit, so it is never told to
  // rerun for a stale read.
  //
  // Transactions run on a connection of their own (decision 2080), each statement text prepared once: one trip to
  // libuv's threads a statement instead of two, and no COMMIT running the WAL's checkpoint. The main connection is
  // idle meanwhile: a transaction waits for the few statements sent (MAIN_IN_FLIGHT) and holds the rest back, so
  // none of this process sleeps on its write lock holding the main connection's mutex, which node-sqlite3 takes on
  // the main thread to finalize a statement (the transaction could not go on until that sleeper gave up).
  const txQueue = priorityQueue();
  const attempt = <T>(fn: (tx: Tx) => Promise<T>, urgent: boolean): Promise<T> =>
    txQueue(urgent, () => main.exclusive(() => inTransaction(urgent ? 'BEGIN IMMEDIATE' : 'BEGIN', onTxConn, fn)));
  const serialize = <T>(keys: string | string[], fn: () => Promise<T>): Promise<T> =>
    sortedKeys(keys).reduceRight<() => Promise<T>>((inner, key) => () => serialQueue(key, inner), fn)();
  const transaction = <T>(fn: (tx: Tx) => Promise<T>, txOpts?: TxOptions): Promise<T> => {
    const run = () => retryBusy(() => attempt(fn, txOpts?.urgent === true));
    return txOpts?.serialize === undefined ? run() : serialize(txOpts.serialize, run);
  };

  const store: BotStore = {
    engine: 'sqlite',
    dialect: sqliteDialect,
    kv,
    query,
    withLock,
    transaction,
    ...(receipts ? { receipts } : {}),
    serialize,
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
        await receipts?.close().catch(() => undefined);
        await txConn?.close().catch(() => undefined);
        await closeMain();
      },
    }),
  };
  return store;
}
