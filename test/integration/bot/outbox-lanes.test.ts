// The outbox's leases, answers, nonces and alert lane (decision 1960), on both store engines.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bot/config/logger.js';
import type { DiscordPoster } from '../../../src/bot/discord/poster.js';
import { NONCE_TRUST_MS, Outbox, type OutboxOptions } from '../../../src/bot/outbox/outbox.js';
import { ALERT_CAP, SUMMARY_HOLD_MS } from '../../../src/bot/outbox/outbox-lanes.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { alertsFoldedView } from '../../../src/bot/watch/views/watch.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

const quiet = createLogger({ write: () => {} });
const view = (content: string) => ({ content, embeds: [], components: [] });

describe.each(ENGINES)('outbox lanes and leases on %s', (engine) => {
  let store: BotStore;
  let cleanup: () => void;
  const boxes: Outbox[] = [];
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
  });
  afterEach(async () => {
    for (const b of boxes.splice(0)) await b.stop();
    await store.close();
    cleanup();
  });

  const box = (poster: DiscordPoster, o: Partial<OutboxOptions> = {}) => {
    const b = new Outbox({
      store,
      poster,
      logger: quiet,
      now: Date.now,
      owner: 'p',
      foldedView: alertsFoldedView,
      ...o,
    });
    boxes.push(b);
    return b;
  };
  const row = async (like: string) =>
    (
      await store.query<{ state: string; message_id: string | null; nonce: string | null }>(
        'SELECT state, message_id, nonce FROM outbox WHERE outbox_key LIKE ?',
        like,
      )
    )[0];

  it('renews the lease of a send still running: another process does not send it again', async () => {
    let posts = 0;
    let answer!: (id: string) => void;
    const slow = box(
      {
        edit: async () => {},
        post: () => {
          posts++;
          return new Promise<string>((r) => {
            answer = r;
          });
        },
      },
      { leaseMs: 300, intervalMs: 20 },
    );
    slow.start();
    await slow.create('settle:1', 'c1', view('settled'));
    await expect.poll(() => posts).toBe(1);
    const other = box({ edit: async () => {}, post: async () => `other-${++posts}` }, { leaseMs: 300 });
    // Three leases long, the other process keeps looking.
    for (const end = Date.now() + 900; Date.now() < end; ) {
      other.kick();
      await other.idle();
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(posts).toBe(1);
    answer('m1');
    await slow.idle();
    expect(await row('%settle:1')).toMatchObject({ state: 'done', message_id: 'm1' });
  });

  it("marks a create done on its answer even after another pass took its lease over (a dead process's)", async () => {
    let now = 1_000_000;
    let answer!: (id: string) => void;
    const first = box(
      {
        edit: async () => {},
        post: () =>
          new Promise<string>((r) => {
            answer = r;
          }),
      },
      { now: () => now, leaseMs: 5_000 },
    );
    await first.create('settle:2', 'c1', view('settled'));
    await expect.poll(() => answer).toBeDefined();
    now += 5_000;
    let fail!: (err: Error) => void;
    const hung = () =>
      new Promise<string>((_, reject) => {
        fail = reject;
      });
    const second = box({ edit: async () => {}, post: hung }, { now: () => now, leaseMs: 5_000 });
    second.kick();
    await expect
      .poll(async () => (await store.query('SELECT 1 FROM outbox WHERE lease_until > ?', now)).length)
      .toBe(1);
    answer('m2');
    await first.idle();
    expect(await row('%settle:2')).toMatchObject({ state: 'done', message_id: 'm2' });
    // The second send's late failure leaves the row done.
    fail(Object.assign(new Error('Discord answered 503'), { status: 503 }));
    await second.idle();
    expect(await row('%settle:2')).toMatchObject({ state: 'done', message_id: 'm2' });
  });

  it('resends a create under its nonce inside the trust window; past it, adopts the message found in the channel', async () => {
    let now = 2_000_000;
    const nonces: Array<string | undefined> = [];
    let found: string | undefined = 'found-3';
    const lookups: number[] = [];
    const b = box(
      {
        edit: async () => {},
        post: async (_c, _v, nonce) => {
          nonces.push(nonce);
          throw Object.assign(new Error('Discord answered 503'), { status: 503 });
        },
        findPosted: async (_c, _v, since) => {
          lookups.push(since);
          return found;
        },
      },
      { now: () => now },
    );
    await b.create('settle:3', 'c1', view('settled'));
    await b.idle();
    now += 60_000;
    b.kick();
    await b.idle();
    expect(nonces).toHaveLength(2);
    expect(nonces[1]).toBe(nonces[0]);
    expect(lookups).toEqual([]);
    now += NONCE_TRUST_MS;
    b.kick();
    await b.idle();
    expect(lookups).toEqual([2_000_000]);
    expect(nonces).toHaveLength(2);
    expect(await row('%settle:3')).toMatchObject({ state: 'done', message_id: 'found-3' });

    // Not found: sent under a new nonce, trusted from then on.
    found = undefined;
    await b.create('settle:4', 'c1', view('settled 4'));
    await b.idle();
    now += NONCE_TRUST_MS + 60_000;
    b.kick();
    await b.idle();
    expect(nonces).toHaveLength(4);
    expect(nonces[3]).not.toBe(nonces[2]);
    expect((await row('%settle:4'))?.nonce).toBe(nonces[3]);
  });

  it('posts a burst of alerts up to the cap one by one and counts the rest once in one summary', async () => {
    let now = 3_000_000;
    const posted: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const b = box(
      {
        edit: async () => {},
        post: async (_c, v) => {
          await gate;
          posted.push(String(v.content ?? v.embeds[0]?.title));
          return `m${posted.length}`;
        },
      },
      { now: () => now, alertSpacingMs: 0 },
    );
    for (let i = 0; i < 25; i++) await b.create(`watch:a${i}`, 'c9', view(`alert ${i}`), { topic: 'Lakers v Kings' });
    // A receipt recorded after the burst goes before the alerts still waiting.
    await b.create('settle:5', 'c9', view('settled 5'));
    open();
    await b.idle();
    expect(posted.filter((p) => p.startsWith('alert'))).toHaveLength(ALERT_CAP);
    expect(posted.indexOf('settled 5')).toBeLessThan(2);
    now += SUMMARY_HOLD_MS;
    b.kick();
    await b.idle();
    expect(posted.filter((p) => /more alerts/.test(p))).toEqual(['15 more alerts on Lakers v Kings']);
    const states = await store.query<{ state: string; n: number }>(
      "SELECT state, COUNT(*) AS n FROM outbox WHERE outbox_key LIKE 'create:watch:%' GROUP BY state ORDER BY state",
    );
    expect(states.map((s) => [s.state, Number(s.n)])).toEqual([
      ['done', ALERT_CAP],
      ['folded', 15],
    ]);
    // Within the same minute, a later alert of the channel joins a new summary, not a post of its own.
    await b.create('watch:late', 'c9', view('alert late'), { topic: 'Celtics v Nets' });
    await b.idle();
    now += SUMMARY_HOLD_MS;
    b.kick();
    await b.idle();
    expect(posted.filter((p) => /more alert/.test(p))).toEqual([
      '15 more alerts on Lakers v Kings',
      '1 more alert on Celtics v Nets',
    ]);
  });
});
