// A receipt's log on SQLite (decision 2137): one synchronous append per kept delivery, read back at a start with a
// line a kill cut short skipped, emptied once everything it kept is stored; a desk's older SQLite journal (decision
// 2120) drained into it once.
import { appendFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/bot/store/index.js';
import { ReceiptLog, readReceiptLog, receiptLogOf } from '../../../src/bot/store/receipt-log.js';

describe('the receipt log', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'receipt-log-'));
    file = join(dir, 'bot.sqlite-receipts.log');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ids = () => readReceiptLog(file).map((k) => k.correlationId);

  it('keeps a delivery once: a second copy while the first is pending is not kept again', () => {
    const log = new ReceiptLog(file);
    expect(log.add('job-1', '{"a":1}', 1_000)).toBe(true);
    expect(log.add('job-1', '{"a":1}', 1_001)).toBe(false);
    log.close();
    expect(readReceiptLog(file)).toEqual([{ correlationId: 'job-1', raw: '{"a":1}', receivedAt: 1_000 }]);
  });

  it('has every kept delivery in the file as soon as add returns', () => {
    const log = new ReceiptLog(file);
    log.add('job-1', 'one', 1);
    log.add('job-2', 'two', 2);
    expect(ids()).toEqual(['job-1', 'job-2']);
    log.close();
  });

  it('empties its file once every kept delivery is stored, not before', () => {
    const log = new ReceiptLog(file);
    log.add('job-1', 'one', 1);
    log.add('job-2', 'two', 2);
    log.applied('job-1');
    expect(ids()).toContain('job-2');
    log.applied('job-2');
    expect(statSync(file).size).toBe(0);
    expect(log.add('job-3', 'three', 3)).toBe(true);
    expect(ids()).toEqual(['job-3']);
    log.close();
  });

  it('writes only the pending deliveries again when its file grows past the limit', () => {
    const log = new ReceiptLog(file, { compactBytes: 1_000 });
    log.add('kept', 'k'.repeat(100), 1);
    let largest = 0;
    for (let i = 0; i < 40; i++) {
      log.add(`gone-${i}`, 'g'.repeat(100), 10 + i);
      log.applied(`gone-${i}`);
      largest = Math.max(largest, statSync(file).size);
    }
    // 40 lines of about 140 bytes went through it; the file never held much more than the limit.
    expect(largest).toBeLessThan(1_200);
    expect(ids()[0]).toBe('kept');
    expect(ids()).not.toContain('gone-0');
    log.close();
  });

  it('skips a last line a kill cut short when it is read back', () => {
    const log = new ReceiptLog(file);
    log.add('job-1', 'one', 1);
    log.close();
    appendFileSync(file, '{"id":"job-2","at":2,"raw":"tw');
    expect(ids()).toEqual(['job-1']);
  });

  it('cuts a torn last line off when it opens, so the next delivery is kept on a line of its own', () => {
    const log = new ReceiptLog(file);
    log.add('job-1', 'one', 1);
    log.close();
    appendFileSync(file, '{"id":"job-2","at":2,"raw":"tw');
    const next = new ReceiptLog(file);
    expect(next.add('job-3', 'three', 3)).toBe(true);
    next.close();
    expect(ids()).toEqual(['job-1', 'job-3']);
  });

  it('refuses to keep a delivery once closed, rather than write through a descriptor that is gone', () => {
    const log = new ReceiptLog(file);
    log.close();
    expect(() => log.add('job-1', 'one', 1)).toThrow(/closed/);
  });

  it('takes up what a stop left as pending: a copy of it is not kept twice, and it goes once stored', () => {
    const first = new ReceiptLog(file);
    first.add('job-1', 'one', 1);
    first.close();
    const next = new ReceiptLog(file);
    expect(next.add('job-1', 'one', 5)).toBe(false);
    next.applied('job-1');
    expect(statSync(file).size).toBe(0);
    next.close();
  });

  it('has one writer: a second store opened on the same file keeps no log until the first is closed', async () => {
    const storeFile = join(dir, 'bot.sqlite');
    const first = await openStore(`sqlite://${storeFile}`, { receipts: true });
    const second = await openStore(`sqlite://${storeFile}`, { receipts: true });
    expect(first.receipts).toBeDefined();
    expect(second.receipts).toBeUndefined();
    await first.close();
    await second.close();
    const third = await openStore(`sqlite://${storeFile}`, { receipts: true });
    expect(third.receipts).toBeDefined();
    await third.close();
  });

  it('drains a desk’s older SQLite journal into the log once and removes it', async () => {
    const storeFile = join(dir, 'bot.sqlite');
    const old = `${storeFile}-receipts`;
    await new Promise<void>((resolve, reject) => {
      const db = new sqlite3.Database(old);
      db.exec(
        `CREATE TABLE receipts (correlation_id TEXT PRIMARY KEY, body TEXT NOT NULL, received_at INTEGER NOT NULL);
         INSERT INTO receipts VALUES ('job-old', '{"kept":"before the upgrade"}', 7);`,
        (err) => db.close(() => (err ? reject(err) : resolve())),
      );
    });
    const store = await openStore(`sqlite://${storeFile}`, { receipts: true });
    try {
      expect(existsSync(old)).toBe(false);
      expect(readReceiptLog(receiptLogOf(storeFile))).toEqual([
        { correlationId: 'job-old', raw: '{"kept":"before the upgrade"}', receivedAt: 7 },
      ]);
      expect((await store.receipts?.pending())?.map((k) => k.correlationId)).toEqual(['job-old']);
    } finally {
      await store.close();
    }
  });
});
