import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlipRepo } from '../../../src/bot/betting/slips.js';
import { JobRepo } from '../../../src/bot/jobs/jobs-repo.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import { OnceRepo } from '../../../src/bot/receiver/once.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

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

describe('store on sqlite only', () => {
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
