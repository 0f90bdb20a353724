import { openPreparedConnection } from './sqlite-tx-connection.js';
import type { ReceiptJournal, Row } from './types.js';

/** The journal's file: beside the store's, its own write lock. */
export const receiptsFileOf = (file: string): string => `${file}-receipts`;

/**
 * A receipt's one durable write on SQLite (decision 2120). SQLite runs one writer per file, so a delivery stored in
 * the store's file waits for whatever transaction holds its write lock (a claim, a chaining) and for the event loop
 * turns that transaction needs. The journal is a file of its own that only receipts write, one single-row insert
 * each: a receipt waits behind no other job's writes. Its reader is a read-only connection to the store's file: a
 * WAL reader never waits for the writer, so the bet a receipt shows is read beside the insert, not after the queue.
 */
export async function openReceiptJournal(file: string, busyTimeoutMs: number): Promise<ReceiptJournal> {
  const journal = await openPreparedConnection(
    receiptsFileOf(file),
    busyTimeoutMs,
    `PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
     CREATE TABLE IF NOT EXISTS receipts (
       correlation_id TEXT PRIMARY KEY, body TEXT NOT NULL, received_at INTEGER NOT NULL)`,
  );
  const reader = await openPreparedConnection(file, busyTimeoutMs, '', true).catch(async (err) => {
    await journal.close();
    throw err;
  });
  return {
    async add(correlationId, raw, at) {
      const rows = await journal.run(
        'INSERT INTO receipts (correlation_id, body, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING correlation_id',
        [correlationId, raw, at],
      );
      return rows.length === 1;
    },
    read: <T extends Row = Row>(sql: string, ...params: unknown[]) => reader.run(sql, params) as Promise<T[]>,
    async applied(correlationId) {
      await journal.run('DELETE FROM receipts WHERE correlation_id = ?', [correlationId]);
    },
    async pending() {
      const rows = await journal.run('SELECT correlation_id, body, received_at FROM receipts ORDER BY received_at', []);
      return rows.map((r) => ({
        correlationId: String(r.correlation_id),
        raw: String(r.body),
        receivedAt: Number(r.received_at),
      }));
    },
    async close() {
      await reader.close().catch(() => undefined);
      await journal.close();
    },
  };
}
