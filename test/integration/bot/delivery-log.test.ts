import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryLog } from '../../../src/bot/receiver/delivery-log.js';
import { type BotStore, openStore, StoreClosedError } from '../../../src/bot/store/index.js';

let dir: string;
let file: string;
let store: BotStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bot-deliveries-'));
  file = `sqlite://${join(dir, 'bot.sqlite')}`;
  store = await openStore(file);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = (s: BotStore) =>
  s.query<{ correlation_id: string; body: string; received_at: number }>(
    'SELECT correlation_id, body, received_at FROM webhook_deliveries ORDER BY correlation_id',
  );

describe('webhook deliveries written in batches', () => {
  it('persists every one of 100 concurrent deliveries, each resolved as first', async () => {
    const log = new DeliveryLog(store);
    const ids = Array.from({ length: 100 }, (_, i) => `cid-${String(i).padStart(3, '0')}`);
    const firsts = await Promise.all(ids.map((id, i) => log.record(id, `{"n":${i}}`, 1000 + i)));
    expect(firsts.every(Boolean)).toBe(true);
    const stored = await rows(store);
    expect(stored.map((r) => r.correlation_id)).toEqual(ids);
    expect(stored[7]).toEqual({ correlation_id: 'cid-007', body: '{"n":7}', received_at: 1007 });
  });

  it('lets the first copy win when copies of one delivery arrive together, and keeps its body', async () => {
    const log = new DeliveryLog(store);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => log.record('same', `{"copy":${i}}`, 1)));
    expect(results).toEqual([true, ...Array.from({ length: 9 }, () => false)]);
    expect((await rows(store)).map((r) => r.body)).toEqual(['{"copy":0}']);
  });

  it('answers a replay after the write as a duplicate', async () => {
    const log = new DeliveryLog(store);
    expect(await log.record('cid', '{}', 1)).toBe(true);
    expect(await log.record('cid', '{"again":true}', 2)).toBe(false);
    expect(await rows(store)).toHaveLength(1);
  });

  it('knows deliveries persisted before a restart', async () => {
    expect(await new DeliveryLog(store).record('before-restart', '{}', 1)).toBe(true);
    await store.close();
    store = await openStore(file);
    expect(await new DeliveryLog(store).record('before-restart', '{}', 2)).toBe(false);
  });

  it('rejects every waiting delivery when the write fails, and accepts them again once the store works', async () => {
    const log = new DeliveryLog(store);
    await store.close();
    const failed = await Promise.allSettled([
      log.record('a', '{}', 1),
      log.record('a', '{}', 1),
      log.record('b', '{}', 1),
    ]);
    expect(failed.every((r) => r.status === 'rejected' && r.reason instanceof StoreClosedError)).toBe(true);
    store = await openStore(file);
    const retry = new DeliveryLog(store);
    expect(await Promise.all([retry.record('a', '{}', 2), retry.record('b', '{}', 2)])).toEqual([true, true]);
  });
});
