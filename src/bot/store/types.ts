import type Keyv from 'keyv';
import type { DeskMetrics } from '../ops/metrics.js';
import type { Dialect, Engine } from './dialect.js';
import { type LeaderOptions, type LeaderRun, type LeaderWork, type LeaseBackend, runLease } from './leader.js';

export type Row = Record<string, unknown>;

/** The statements of one transaction (see BotStore.transaction). */
export interface Tx {
  /** One statement inside the transaction, in the same portable subset as BotStore.query. */
  query<T extends Row = Row>(sql: string, ...params: unknown[]): Promise<T[]>;
  /**
   * Holds a lock on key until the transaction ends, across every process on this store: the same lock
   * `withLock(key)` takes (PostgreSQL: a transaction advisory lock; SQLite: no-op, since its write transactions
   * are serializable: one that read before another's commit is rolled back and run again).
   */
  lock(key: string): Promise<void>;
}

/** A store call made after close(): work still running while the bot stops. */
export class StoreClosedError extends Error {
  override name = 'StoreClosedError';
  constructor() {
    super('the bot store is closed; this work was still running when the bot stopped');
  }
}

export interface BotStore {
  readonly engine: Engine;
  /** Helpers for the few constructs that differ between engines (see dialect.ts for the portable subset). */
  readonly dialect: Dialect;
  /** last-write-wins values: settings and caches (namespaced keys, JSON values). */
  readonly kv: Keyv;
  /** One SQL statement in the portable subset (`?` placeholders); rows for SELECT/RETURNING. */
  query<T extends Row = Row>(sql: string, ...params: unknown[]): Promise<T[]>;
  /**
   * Runs fn while holding a lock on key, across every process on this store (PostgreSQL: an advisory
   * lock; SQLite: a lease row). For read-modify-write of a keyv value.
   */
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Runs fn so that no other `serialize` sharing one of its keys overlaps it, in any process, where the engine
   * needs it. For single statements that must see each other: a slip's claim and its close; two claims
   * against one member's day limit. On PostgreSQL (READ COMMITTED) a statement does not see a row another
   * inserts while it runs, so this holds the keys' advisory locks (taken in sorted order on one connection);
   * SQLite runs one writer at a time and each statement sees every commit before it, so this only queues
   * within the process.
   */
  serialize<T>(keys: string | string[], fn: () => Promise<T>): Promise<T>;
  /**
   * Runs fn in one database transaction: every statement it makes through `tx` commits together, or none does
   * (fn throws, or the process dies before COMMIT). fn must use only `tx` for SQL, and may run more than once.
   * SQLite: on the store's transaction connection, one transaction at a time, and every other call of this
   * process waits until it ends (decision 2080); write transactions are serializable, and one that meets another
   * process's commit is rolled back and run again. PostgreSQL: a pool connection of its own at READ COMMITTED (use
   * `tx.lock` where order matters).
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, opts?: TxOptions): Promise<T>;
  /**
   * Runs work in one process at a time among all processes on this store: work() is called when this
   * process is elected; the function it returns is called when the lease is lost or the run stops.
   */
  runAsLeader(name: string, work: LeaderWork, opts?: LeaderOptions): LeaderRun;
  /** The schema version (newest migration applied). */
  schemaVersion(): Promise<number>;
  /**
   * Deletes expired slips, old deliveries, finished jobs and outbox rows and expired cache entries, then runs each
   * sweep a wing registered that is due (the watch wing's prices and card reads: watch/sweep-watches.ts).
   */
  sweep(now: number): Promise<void>;
  /** Adds a wing's own sweep to sweep(): run at most once per `everyMs` (the store knows no wing's tables). */
  registerSweep(part: SweepPart): void;
  /**
   * Where a receipt's delivery is kept before anything else is written (decision 2120); absent where a receipt's
   * transaction waits for no other job's writes (PostgreSQL: row locks and a pool of its own) or there is no file.
   */
  readonly receipts?: ReceiptJournal;
  close(): Promise<void>;
}

/**
 * A receipt's one durable write, outside the store's write lock (SQLite, decision 2120): the verified delivery kept
 * until the store has applied it; a start applies what a stop left kept.
 */
export interface ReceiptJournal {
  /** Keeps a verified delivery (durable when it resolves); true the first time its job's delivery is kept. */
  add(correlationId: string, raw: string, at: number): Promise<boolean>;
  /** One read of the store's committed rows that waits for no transaction (what a receipt shows). */
  read<T extends Row = Row>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** The store has the delivery now (applied, or stored for the ordinary path): the journal forgets it. */
  applied(correlationId: string): Promise<void>;
  /**
   * Deliveries kept and not yet let go (a stop between), oldest first. The log lists one the store has applied until
   * nothing is pending and its file empties: storing each again is harmless (once per correlation id).
   */
  pending(): Promise<{ correlationId: string; raw: string; receivedAt: number }[]>;
  close(): Promise<void>;
}

export interface TxOptions {
  /**
   * A short transaction that must not queue behind this process's other transactions (a receipt's: its delivery,
   * job, bet move and outbox row). SQLite: it is the next to run, ahead of the transactions already waiting (it
   * still waits for the one running and the few statements the main connection has in SQLite). PostgreSQL: its connection
   * comes from a pool of its own, never queued behind the other transactions' (decision 2080).
   */
  urgent?: boolean;
  /**
   * Holds these keys as `serialize` holds them, from before the transaction's first statement until it has ended:
   * no `serialize` sharing a key, and no other transaction holding one, overlaps it in any process (decision 2147).
   * SQLite: `serialize(keys, () => transaction(fn))`. PostgreSQL: the keys' transaction-scoped advisory locks, taken
   * in sorted order in the same round trip as BEGIN on a connection of the lock pool, and freed by its COMMIT or
   * ROLLBACK: no lock connection of its own, no round trip to free them, and never a lock held past the transaction.
   */
  serialize?: string | string[];
}

export interface OpenOptions {
  /** Apply migrations only up to this version (tests of upgrading from an older version). */
  migrateTo?: number;
  now?: () => number;
  /** Times each statement and transaction (desk_store_statement_seconds); absent: not timed. */
  metrics?: Pick<DeskMetrics, 'statementSeconds'>;
  /**
   * Opens the receipt journal beside a SQLite file (decision 2120): the desk's own store. Tools that only read or
   * copy a store (backups, `ledger verify`) leave it out and create no file beside it.
   */
  receipts?: boolean;
}

/** The keys of a serialize call, sorted and without repeats (a fixed order takes them without deadlock). */
export function sortedKeys(keys: string | string[]): string[] {
  return [...new Set(typeof keys === 'string' ? [keys] : keys)].sort();
}

/** Serialises async work per key inside this process. */
export function keyedQueue() {
  const locks = new Map<string, Promise<unknown>>();
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const before = locks.get(key) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    locks.set(key, tail);
    try {
      return await run;
    } finally {
      if (locks.get(key) === tail) locks.delete(key);
    }
  };
}

/** A wing's part of the store's sweep. */
export interface SweepPart {
  name: string;
  /** The least time between two runs (a part that scans a big table runs seldom). */
  everyMs: number;
  run(store: Pick<BotStore, 'query'>, now: number): Promise<void>;
}

/**
 * A wing's sweep part that deletes the rows of its table nothing more will happen to (`finished`, a condition on
 * its state from the wing's table), once they are older than `keepMs` by `updated_at`.
 */
export function finishedRowsSweep(name: string, table: string, finished: string, keepMs: number): SweepPart {
  return {
    name,
    everyMs: 0,
    async run(store, now) {
      await store.query(`DELETE FROM ${table} WHERE ${finished} AND updated_at <= ?`, now - keepMs);
    },
  };
}

/**
 * The sweep of the store's own tables, in the portable subset; the keyv cache expiry is the one json read. A wing's
 * tables (jobs, the outbox, watches) are swept by the part it registers.
 */
export async function sweepStore(store: Pick<BotStore, 'query' | 'dialect'>, now: number): Promise<void> {
  // Expired slips stay an hour so a late Confirm is told "expired", not "already handled".
  await store.query('DELETE FROM slips WHERE expires_at <= ?', now - 3_600_000);
  // A gateway retries a webhook for about 21 s; a day of history is plenty for dedupe.
  await store.query('DELETE FROM webhook_deliveries WHERE received_at <= ?', now - 86_400_000);
  await store.query(
    `DELETE FROM keyv WHERE key LIKE 'bot:cache:%' AND ${store.dialect.jsonNumber('value', 'expires')} <= ?`,
    now,
  );
}

/**
 * What both engines do alike: leader runs on the engine's lease, the schema version, the sweep, and close,
 * which stops the leader runs first (their work may still use the store) and then the engine.
 */
export function sharedStoreParts(o: {
  query: BotStore['query'];
  dialect: Dialect;
  /** The engine's lease for one leader run. */
  lease: (name: string) => LeaseBackend;
  /** Marks the engine closed and frees its connections. */
  shutdown: () => Promise<void>;
}): Pick<BotStore, 'runAsLeader' | 'schemaVersion' | 'sweep' | 'registerSweep' | 'close'> {
  const runs = new Set<LeaderRun>();
  let closed = false;
  const parts = new Map<string, { part: SweepPart; at: number }>();
  return {
    runAsLeader(name, work, leaderOpts) {
      const r = runLease(name, o.lease(name), work, leaderOpts);
      const tracked: LeaderRun = {
        name,
        get isLeader() {
          return r.isLeader;
        },
        async stop() {
          runs.delete(tracked);
          await r.stop();
        },
      };
      runs.add(tracked);
      return tracked;
    },
    async schemaVersion() {
      const rows = await o.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
      return rows[0]?.v ?? 0;
    },
    async sweep(t) {
      await sweepStore(o, t);
      for (const entry of parts.values()) {
        // A part that scans a big table (the watch prices: 0.1 to 0.2 s for 160,000 rows on SQLite, where it holds
        // the one connection) runs once per its everyMs; a clock set back runs it again.
        if (t - entry.at < entry.part.everyMs && t >= entry.at) continue;
        entry.at = t;
        await entry.part.run(o, t);
      }
    },
    registerSweep(part) {
      if (!parts.has(part.name)) parts.set(part.name, { part, at: Number.NEGATIVE_INFINITY });
    },
    async close() {
      if (closed) return;
      for (const r of [...runs]) await r.stop().catch(() => undefined);
      closed = true;
      await o.shutdown();
    },
  };
}
