import sqlite3 from 'sqlite3';
import type { Row } from './types.js';

/** How many statement texts the connection keeps prepared (the desk's transactions use a few dozen). */
const PREPARED = 256;

/** The store's second connection to its file: the one its transactions run on (decision 2080). */
export interface TxConnection {
  run(sql: string, params: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** node-sqlite3's Statement constructor, which its types leave out. */
const StatementOf = sqlite3.Statement as unknown as new (
  db: sqlite3.Database,
  sql: string,
  prepared: (err: Error | null) => void,
) => sqlite3.Statement;

const call = (fn: (cb: (err: Error | null) => void) => void) =>
  new Promise<void>((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));

/**
 * Opens the transaction connection: the same file, WAL (the file's mode already), synchronous=NORMAL and busy
 * timeout as the main one. It never checkpoints the WAL itself (wal_autocheckpoint=0): the main connection's
 * commits do (its writes, leases and sweeps are steady), so no COMMIT of a transaction waits for a checkpoint's
 * fsync. Each statement text is prepared once, so a statement is one trip to libuv's threads instead of two
 * (prepare, then step).
 */
export function openTxConnection(file: string, busyTimeoutMs: number): Promise<TxConnection> {
  return openPreparedConnection(file, busyTimeoutMs, 'PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0');
}

/**
 * A connection to `file` whose statement texts are prepared once, `setup` run on it first; `readOnly` opens it
 * read-only (a reader of a WAL file never waits for its writer).
 */
export async function openPreparedConnection(
  file: string,
  busyTimeoutMs: number,
  setup: string,
  readOnly = false,
): Promise<TxConnection> {
  const mode = readOnly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, mode, (err) => (err ? reject(err) : resolve(d)));
  });
  db.configure('busyTimeout', busyTimeoutMs);
  if (setup) await call((cb) => db.exec(setup, cb));
  const prepared = new Map<string, Promise<sqlite3.Statement>>();
  const statementOf = (sql: string): Promise<sqlite3.Statement> | undefined => {
    const known = prepared.get(sql);
    if (known || prepared.size >= PREPARED) return known;
    // The constructor's callback answers the prepare either way (Database#prepare's answers only an error).
    const stmt = new Promise<sqlite3.Statement>((resolve, reject) => {
      const s: sqlite3.Statement = new StatementOf(db, sql, (err) => (err ? reject(err) : resolve(s)));
    });
    // A text that does not prepare is not kept: its caller gets the error, the next one tries again.
    stmt.catch(() => prepared.delete(sql));
    prepared.set(sql, stmt);
    return stmt;
  };
  const all = (stmt: sqlite3.Statement | sqlite3.Database, sql: string, params: unknown[]) =>
    new Promise<Row[]>((resolve, reject) => {
      if (stmt instanceof sqlite3.Database) {
        stmt.all(sql, params, (err: Error | null, rows: Row[]) => (err ? reject(err) : resolve(rows ?? [])));
        return;
      }
      // node-sqlite3 leaves a statement that failed as it stopped: reset, it holds nothing of the transaction.
      stmt.all(params, (err: Error | null, rows: Row[]) => (err ? stmt.reset(() => reject(err)) : resolve(rows ?? [])));
    });
  return {
    run: async (sql, params) => {
      const stmt = statementOf(sql);
      return stmt ? all(await stmt, sql, params) : all(db, sql, params);
    },
    async close() {
      for (const stmt of prepared.values()) {
        await stmt.then((s) => call((cb) => s.finalize(cb))).catch(() => undefined);
      }
      prepared.clear();
      await call((cb) => db.close(cb));
    },
  };
}
