import { existsSync, rmSync } from 'node:fs';
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
 * A receipt's one durable write on SQLite (decisions 2120 and 2137). SQLite runs one writer per file, so a delivery
 * stored in the store's file waits for whatever transaction holds its write lock (a claim, a chaining) and for the
 * event loop turns that transaction needs. The journal is a log file only receipts write, one synchronous append
 * each: a receipt waits behind no other job's writes, and for no turn of the event loop. Its reader is a read-only
 * connection to the store's file: a WAL reader never waits for the writer, so the bet a receipt shows is read (when
 * its record is not in hand) beside the rest, not after the queue.
 */
export async function openReceiptJournal(file: string, busyTimeoutMs: number): Promise<ReceiptJournal> {
  const logFile = receiptLogOf(file);
  const log = new ReceiptLog(logFile);
  try {
    await drainOldJournal(file, busyTimeoutMs, log);
  } catch (err) {
    log.close();
    throw err;
  }
  const reader = await openPreparedConnection(file, busyTimeoutMs, '', true).catch((err) => {
    log.close();
    throw err;
  });
  return {
    file,
    async add(correlationId, raw, at) {
      return log.add(correlationId, raw, at);
    },
    read: <T extends Row = Row>(sql: string, ...params: unknown[]) => reader.run(sql, params) as Promise<T[]>,
    async applied(correlationId) {
      log.applied(correlationId);
    },
    async pending() {
      return readReceiptLog(logFile);
    },
    async close() {
      await reader.close().catch(() => undefined);
      log.close();
    },
  };
}
