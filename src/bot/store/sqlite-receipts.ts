import { existsSync, rmSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import { ReceiptLog, readReceiptLog, receiptLogOf } from './receipt-log.js';
import { openPreparedConnection } from './sqlite-tx-connection.js';
import type { ReceiptJournal, Row } from './types.js';

/** The SQLite journal of decision 2120, before its log file (decision 2137): drained into the log once, then gone. */
const oldJournalOf = (file: string): string => `${file}-receipts`;

/** Receipts a desk before decision 2137 left in its SQLite journal, moved into the log; the old files removed. */
async function drainOldJournal(file: string, busyTimeoutMs: number, log: ReceiptLog): Promise<void> {
  const old = oldJournalOf(file);
  if (!existsSync(old)) return;
  const conn = await openPreparedConnection(
    old,
    busyTimeoutMs,
    `CREATE TABLE IF NOT EXISTS receipts (
       correlation_id TEXT PRIMARY KEY, body TEXT NOT NULL, received_at INTEGER NOT NULL)`,
  );
  try {
    const rows = await conn.run('SELECT correlation_id, body, received_at FROM receipts ORDER BY received_at', []);
    for (const r of rows) log.add(String(r.correlation_id), String(r.body), Number(r.received_at));
  } finally {
    await conn.close();
  }
  for (const f of [old, `${old}-wal`, `${old}-shm`]) rmSync(f, { force: true });
}

/**
 * The log's one writer, held for the process's life: an exclusive lock on a file of its own, which the system lets go
 * when the process ends however it ends (kill -9 included). Undefined: another process (or another store opened in
 * this one) holds it.
 */
async function holdLogLock(file: string): Promise<(() => Promise<void>) | undefined> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  const close = () => new Promise<void>((resolve) => db.close(() => resolve()));
  db.configure('busyTimeout', 0);
  try {
    await new Promise<void>((resolve, reject) => db.exec('BEGIN EXCLUSIVE', (err) => (err ? reject(err) : resolve())));
  } catch (err) {
    await close();
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') return undefined;
    throw err;
  }
  return close;
}

/**
 * A receipt's one durable write on SQLite (decisions 2120 and 2137). SQLite runs one writer per file, so a delivery
 * stored in the store's file waits for whatever transaction holds its write lock (a claim, a chaining) and for the
 * event loop turns that transaction needs. The journal is a log file only receipts write, one synchronous append
 * each: a receipt waits behind no other job's writes, and for no turn of the event loop. Its reader is a read-only
 * connection to the store's file: a WAL reader never waits for the writer, so the bet a receipt shows is read (when
 * its record is not in hand) beside the rest, not after the queue.
 */
export async function openReceiptJournal(file: string, busyTimeoutMs: number): Promise<ReceiptJournal | undefined> {
  const logFile = receiptLogOf(file);
  // A second process on the file (against docs/operations.md) takes decision 1990's way, which needs no log.
  const unlock = await holdLogLock(`${logFile}.lock`);
  if (!unlock) return undefined;
  let log: ReceiptLog | undefined;
  let reader: Awaited<ReturnType<typeof openPreparedConnection>>;
  try {
    log = new ReceiptLog(logFile);
    await drainOldJournal(file, busyTimeoutMs, log);
    reader = await openPreparedConnection(file, busyTimeoutMs, '', true);
  } catch (err) {
    log?.close();
    await unlock();
    throw err;
  }
  const opened = log;
  return {
    async add(correlationId, raw, at) {
      return opened.add(correlationId, raw, at);
    },
    read: <T extends Row = Row>(sql: string, ...params: unknown[]) => reader.run(sql, params) as Promise<T[]>,
    async applied(correlationId) {
      opened.applied(correlationId);
    },
    async pending() {
      return readReceiptLog(logFile);
    },
    async close() {
      await reader.close().catch(() => undefined);
      opened.close();
      await unlock();
    },
  };
}
