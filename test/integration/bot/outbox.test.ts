// Which message stages a restart must queue again: those the outbox has not recorded at that rank or later.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RANK } from '../../../src/bot/betting/model/edit-rank.js';
import { createLogger } from '../../../src/bot/config/logger.js';
import type { DiscordPoster } from '../../../src/bot/discord/poster.js';
import { OUTBOX_MOVES } from '../../../src/bot/outbox/model/outbox-states.js';
import { Outbox } from '../../../src/bot/outbox/outbox.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

describe.each(ENGINES)('outbox stages on %s', (engine) => {
  let store: BotStore;
  let outbox: Outbox;
  let cleanup: () => void;
  const poster: DiscordPoster = { edit: async () => {}, post: async () => 'm' };
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    outbox = new Outbox({ store, poster, logger: createLogger({ write: () => {} }), now: Date.now, owner: 'p1' });
  });
  afterEach(async () => {
    await outbox.stop();
    await store.close();
    cleanup();
  });

  const view = (content: string) => ({ content, embeds: [], components: [] });
  const stage = (messageId: string, rank: number) => ({ channelId: 'c1', messageId, rank });

  it('names a stage of a message the outbox has no edit of', async () => {
    expect(await outbox.unrecorded([stage('m1', RANK.final)])).toEqual([stage('m1', RANK.final)]);
  });

  it('names a stage later than the one recorded, sent or not', async () => {
    await outbox.edit('c1', 'm1', view('submitted'), RANK.submitted);
    await outbox.idle();
    expect(await outbox.unrecorded([stage('m1', RANK.final)])).toEqual([stage('m1', RANK.final)]);
  });

  it('leaves out stages recorded already or overtaken by a later one', async () => {
    await outbox.edit('c1', 'm1', view('final'), RANK.final);
    await outbox.edit('c1', 'm2', view('unknown'), RANK.unknown);
    await outbox.idle();
    expect(await outbox.unrecorded([stage('m1', RANK.final), stage('m2', RANK.submitted)])).toEqual([]);
  });

  /** An outbox of its own (owner) whose poster notes each edit's text in `sent`. */
  const recordingOutbox = (owner: string) => {
    const sent: string[] = [];
    const poster: DiscordPoster = {
      edit: async (_c, _m, v) => {
        sent.push(String(v.content));
      },
      post: async () => 'm',
    };
    return {
      sent,
      box: new Outbox({ store, poster, logger: createLogger({ write: () => {} }), now: Date.now, owner }),
    };
  };

  it('marks an edit sent ahead (decision 2120) sent when that stage is recorded, and holds earlier stages until released', async () => {
    const { box, sent } = recordingOutbox('p3');
    try {
      // "submitted" recorded, not yet sent, when the receipt goes ahead: no pass may send it over the receipt.
      await store.query(
        `INSERT INTO outbox (outbox_key, kind, channel_id, message_id, body, rank, nonce, state, attempts, next_at,
           created_at, updated_at) VALUES ('edit:c1:m7', 'edit', 'c1', 'm7', ?, ?, NULL, ?, 0, 0, 0, 0)`,
        JSON.stringify(view('submitted')),
        RANK.submitted,
        OUTBOX_MOVES.record.to,
      );
      expect(await box.sendAhead('c1', 'm7', view('placed'), RANK.final)).toBe(true);
      box.kick();
      await box.idle();
      expect(sent).toEqual(['placed']);
      // The receipt's record of that very stage (here the poller's, which won the race) is not sent again.
      await box.edit('c1', 'm7', view('placed'), RANK.final);
      box.release('c1', 'm7');
      await box.idle();
      expect(sent).toEqual(['placed']);
      expect(await box.unrecorded([stage('m7', RANK.final)])).toEqual([]);
      const [row] = await store.query<{ state: string }>("SELECT state FROM outbox WHERE outbox_key = 'edit:c1:m7'");
      expect(row?.state).toBe(OUTBOX_MOVES.send.to);
    } finally {
      await box.stop();
    }
  });

  it('sends the recorded stage again when an edit shown ahead drew another one and its record took another way', async () => {
    const { box, sent } = recordingOutbox('p4');
    try {
      // The poller applied the result first: "placed at 2.10" recorded and sent.
      await box.edit('c1', 'm8', view('placed at 2.10'), RANK.final);
      await box.idle();
      // A receipt drawn from an older copy of the record showed something else, and its transaction took nothing.
      expect(await box.sendAhead('c1', 'm8', view('placed at 2.00'), RANK.final)).toBe(true);
      box.release('c1', 'm8');
      await expect.poll(() => sent).toEqual(['placed at 2.10', 'placed at 2.00', 'placed at 2.10']);
      await box.idle();
      const [row] = await store.query<{ state: string }>("SELECT state FROM outbox WHERE outbox_key = 'edit:c1:m8'");
      expect(row?.state).toBe(OUTBOX_MOVES.send.to);
    } finally {
      await box.stop();
    }
  });

  it('sends a later stage recorded while the earlier one is in flight at once, not when its lease runs out', async () => {
    const sent: string[] = [];
    let release!: () => void;
    const inFlight = new Promise<void>((r) => {
      release = r;
    });
    const slowPoster: DiscordPoster = {
      edit: async (_c, _m, v) => {
        sent.push(String(v.content));
        if (v.content === 'submitted') await inFlight;
      },
      post: async () => 'm',
    };
    const box = new Outbox({
      store,
      poster: slowPoster,
      logger: createLogger({ write: () => {} }),
      now: Date.now,
      owner: 'p2',
    });
    try {
      await box.edit('c1', 'm9', view('submitted'), RANK.submitted);
      box.kick();
      await expect.poll(() => sent).toEqual(['submitted']);
      // The result arrives while Discord has not answered the "submitted" edit yet.
      await box.edit('c1', 'm9', view('placed'), RANK.final);
      release();
      await box.idle();
      expect(sent).toEqual(['submitted', 'placed']);
      expect(await box.unrecorded([stage('m9', RANK.final)])).toEqual([]);
    } finally {
      await box.stop();
    }
  });

  /** The store with every statement's SQL noted in `seen`, as the outbox would send it. */
  const watched = (seen: string[]): BotStore => ({
    ...store,
    query: ((sql: string, ...params: unknown[]) => {
      seen.push(sql.replace(/\s+/g, ' ').trim());
      return store.query(sql, ...params);
    }) as BotStore['query'],
  });
  /** The drain's reading of due rows: a pass over the store. */
  const isPass = (sql: string) => sql.startsWith('SELECT outbox_key, kind, channel_id, lane FROM outbox');

  it('sends a later stage recorded while the earlier one is in flight right after its answer, with no pass between', async () => {
    const seen: string[] = [];
    const sent: string[] = [];
    let answered = -1;
    let placedAt = -1;
    let release!: () => void;
    const inFlight = new Promise<void>((r) => {
      release = r;
    });
    const box = new Outbox({
      store: watched(seen),
      poster: {
        edit: async (_c, _m, v) => {
          sent.push(String(v.content));
          if (v.content === 'placed') placedAt = seen.length;
          if (v.content === 'submitted') {
            await inFlight;
            answered = seen.length;
          }
        },
        post: async () => 'm',
      },
      logger: createLogger({ write: () => {} }),
      now: Date.now,
      owner: 'p8',
    });
    try {
      await box.edit('c1', 'm8', view('submitted'), RANK.submitted);
      await expect.poll(() => sent).toEqual(['submitted']);
      const recorded = seen.length;
      await box.edit('c1', 'm8', view('placed'), RANK.final);
      // The pass that recording wakes finds the message leased to the send in flight; then Discord answers.
      await expect.poll(() => seen.slice(recorded).some(isPass)).toBe(true);
      release();
      await expect.poll(() => sent).toEqual(['submitted', 'placed']);
      await box.idle();
      // Between Discord's answer to "submitted" and the receipt's send: the answer's own UPDATE, no pass.
      const between = seen.slice(answered, placedAt);
      expect(between.filter(isPass)).toEqual([]);
      expect(await box.unrecorded([stage('m8', RANK.final)])).toEqual([]);
    } finally {
      release();
      await box.stop();
    }
  });

  /**
   * An outbox whose poster holds the "submitted" edit until `answer()` and takes `placedMs` to answer any other;
   * `sent` notes each edit's text as it goes.
   */
  const heldSubmitted = (owner: string, over: BotStore = store, placedMs = 0) => {
    const sent: string[] = [];
    let answer!: () => void;
    const answered = new Promise<void>((r) => {
      answer = r;
    });
    const box = new Outbox({
      store: over,
      poster: {
        edit: async (_c, _m, v) => {
          sent.push(String(v.content));
          if (v.content === 'submitted') await answered;
          else if (placedMs > 0) await new Promise((r) => setTimeout(r, placedMs));
        },
        post: async () => 'm',
      },
      logger: createLogger({ write: () => {} }),
      now: Date.now,
      owner,
    });
    return { box, sent, answer };
  };

  it('sends a receipt ahead right after Discord answers the earlier stage in flight, instead of giving it up', async () => {
    const { box, sent, answer } = heldSubmitted('p11');
    try {
      await box.edit('c1', 'm12', view('submitted'), RANK.submitted);
      await expect.poll(() => sent).toEqual(['submitted']);
      const ahead = box.sendAhead('c1', 'm12', view('placed'), RANK.final);
      // Discord has not answered "submitted": the receipt's edit waits for it, so the two cannot cross.
      await new Promise((r) => setTimeout(r, 20));
      expect(sent).toEqual(['submitted']);
      answer();
      expect(await ahead).toBe(true);
      expect(sent).toEqual(['submitted', 'placed']);
    } finally {
      answer();
      await box.stop();
    }
  });

  it('sends a receipt ahead at once when the earlier stage is answered and only its bookkeeping is left', async () => {
    let unblock!: () => void;
    const blocked = new Promise<void>((r) => {
      unblock = r;
    });
    const slowBookkeeping: BotStore = {
      ...store,
      query: (async (sql: string, ...params: unknown[]) => {
        // The "submitted" send's own UPDATE after Discord's answer, queued behind other writers.
        if (sql.includes('SET state = CASE WHEN rank = ?')) await blocked;
        return store.query(sql, ...params);
      }) as BotStore['query'],
    };
    const { box, sent, answer } = heldSubmitted('p12', slowBookkeeping);
    answer();
    try {
      await box.edit('c1', 'm13', view('submitted'), RANK.submitted);
      await expect.poll(() => sent).toEqual(['submitted']);
      expect(await box.sendAhead('c1', 'm13', view('placed'), RANK.final)).toBe(true);
      expect(sent).toEqual(['submitted', 'placed']);
    } finally {
      unblock();
      await box.stop();
    }
  });

  it('does not send a receipt twice when its stage is recorded while the earlier stage it waited for was in flight', async () => {
    // Discord takes a while over the receipt's edit: the stage handed on must wait for its answer.
    const { box, sent, answer } = heldSubmitted('p13', store, 100);
    try {
      await box.edit('c1', 'm14', view('submitted'), RANK.submitted);
      await expect.poll(() => sent).toEqual(['submitted']);
      const ahead = box.sendAhead('c1', 'm14', view('placed'), RANK.final);
      // The receipt's transaction records its stage before Discord answers "submitted": that send hands it on.
      await box.edit('c1', 'm14', view('placed'), RANK.final);
      answer();
      expect(await ahead).toBe(true);
      box.release('c1', 'm14');
      await box.idle();
      expect(sent).toEqual(['submitted', 'placed']);
      const [row] = await store.query<{ state: string; rank: number }>(
        "SELECT state, rank FROM outbox WHERE outbox_key = 'edit:c1:m14'",
      );
      expect({ state: row?.state, rank: Number(row?.rank) }).toEqual({ state: OUTBOX_MOVES.send.to, rank: RANK.final });
    } finally {
      answer();
      await box.stop();
    }
  });

  it('leases an edit recorded in a transaction to itself and sends it with no pass over the store', async () => {
    const seen: string[] = [];
    const sent: string[] = [];
    const box = new Outbox({
      store: watched(seen),
      poster: { edit: async (_c, m) => void sent.push(m), post: async () => 'm' },
      logger: createLogger({ write: () => {} }),
      now: Date.now,
      owner: 'p9',
    });
    try {
      const row = await store.transaction((tx) => box.editInTx(tx, 'c1', 'm10', view('placed'), RANK.final));
      expect(row).toBeDefined();
      box.sendLeased(row!);
      await box.idle();
      expect(sent).toEqual(['m10']);
      expect(seen.filter(isPass)).toEqual([]);
      expect(await box.unrecorded([stage('m10', RANK.final)])).toEqual([]);
    } finally {
      await box.stop();
    }
  });

  it('leaves an edit recorded in a transaction unleased while another send holds the message', async () => {
    await store.query(
      `INSERT INTO outbox (outbox_key, kind, channel_id, message_id, body, rank, state, next_at, created_at, updated_at,
         lease_until, lease_token)
       VALUES ('edit:c1:m11', 'edit', 'c1', 'm11', '{}', ?, 'pending', 0, 0, 0, ?, 'another process')`,
      RANK.submitted,
      Date.now() + 60_000,
    );
    const row = await store.transaction((tx) => outbox.editInTx(tx, 'c1', 'm11', view('placed'), RANK.final));
    expect(row).toBeUndefined();
    const [kept] = await store.query<{ rank: number; lease_token: string }>(
      "SELECT rank, lease_token FROM outbox WHERE outbox_key = 'edit:c1:m11'",
    );
    expect({ rank: Number(kept?.rank), lease: kept?.lease_token }).toEqual({
      rank: RANK.final,
      lease: 'another process',
    });
  });

  it('sends an edit recorded while another message’s edit is still in flight without waiting for it', async () => {
    const sent: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const box = new Outbox({
      store,
      poster: {
        edit: async (_c, m) => {
          sent.push(m);
          if (m === 'slow') await slow;
        },
        post: async () => 'm',
      },
      logger: createLogger({ write: () => {} }),
      now: Date.now,
      owner: 'p5',
    });
    try {
      await box.edit('c1', 'slow', view('submitted'), RANK.submitted);
      await expect.poll(() => sent).toEqual(['slow']);
      // A receipt for another slip arrives while Discord has not answered the first edit.
      await box.edit('c1', 'receipt', view('placed'), RANK.final);
      await expect.poll(() => sent).toEqual(['slow', 'receipt']);
      release();
      await box.idle();
      expect(await box.unrecorded([stage('slow', RANK.submitted), stage('receipt', RANK.final)])).toEqual([]);
    } finally {
      release();
      await box.stop();
    }
  });

  it('sends again an edit a dead process took, once its lease (leaseMs) ran out and not before', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const quiet = createLogger({ write: () => {} });
    // The first process takes the edit and never hears back from Discord (it died mid-send).
    const hung: DiscordPoster = { edit: () => new Promise<void>(() => {}), post: async () => 'm' };
    const dead = new Outbox({ store, poster: hung, logger: quiet, now: clock, owner: 'dead', leaseMs: 5_000 });
    const sent: string[] = [];
    const live: DiscordPoster = { edit: async (_c, _m, v) => void sent.push(String(v.content)), post: async () => 'm' };
    const survivor = new Outbox({ store, poster: live, logger: quiet, now: clock, owner: 'live', leaseMs: 5_000 });
    try {
      await dead.edit('c1', 'm5', view('placed'), RANK.final);
      await expect
        .poll(
          async () =>
            (await store.query("SELECT 1 FROM outbox WHERE lease_until > 0 AND outbox_key LIKE '%m5%'")).length,
        )
        .toBe(1);
      now += 4_999;
      survivor.kick();
      await survivor.idle();
      expect(sent).toEqual([]);
      now += 1;
      survivor.kick();
      await survivor.idle();
      expect(sent).toEqual(['placed']);
    } finally {
      await survivor.stop();
    }
  });

  /** An outbox whose poster fails (503) the edits `failing` names, after `gate` opens. */
  function failingBox(failing: string[], gate: Promise<void>, sent: string[], owner: string): Outbox {
    const poster: DiscordPoster = {
      edit: async (_c, _m, v) => {
        sent.push(String(v.content));
        if (!failing.includes(String(v.content))) return;
        await gate;
        throw Object.assign(new Error('Discord answered 503'), { status: 503 });
      },
      post: async () => 'm',
    };
    return new Outbox({ store, poster, logger: createLogger({ write: () => {} }), now: Date.now, owner });
  }

  it('keeps a stage Discord refused with 5xx pending, backed off, with its attempt and error counted', async () => {
    const sent: string[] = [];
    const box = failingBox(['submitted'], Promise.resolve(), sent, 'p3');
    try {
      const before = Date.now();
      await box.edit('c1', 'm7', view('submitted'), RANK.submitted);
      box.kick();
      await expect.poll(() => sent).toEqual(['submitted']);
      await box.idle();
      const [row] = await store.query<{ state: string; attempts: number; next_at: number; last_error: string }>(
        "SELECT state, attempts, next_at, last_error FROM outbox WHERE outbox_key LIKE '%m7%'",
      );
      expect(row).toMatchObject({ state: 'pending', attempts: 1, last_error: 'Discord answered 503' });
      expect(Number(row?.next_at)).toBeGreaterThan(before);
    } finally {
      await box.stop();
    }
  });

  it('sends a later stage recorded while the earlier one is failing at once, not after the backoff or lease', async () => {
    const sent: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const box = failingBox(['submitted'], gate, sent, 'p4');
    try {
      await box.edit('c1', 'm8', view('submitted'), RANK.submitted);
      box.kick();
      await expect.poll(() => sent).toEqual(['submitted']);
      await box.edit('c1', 'm8', view('placed'), RANK.final);
      release();
      await box.idle();
      expect(sent).toEqual(['submitted', 'placed']);
      expect(await box.unrecorded([stage('m8', RANK.final)])).toEqual([]);
      const [row] = await store.query<{ state: string; attempts: number }>(
        "SELECT state, attempts FROM outbox WHERE outbox_key LIKE '%m8%'",
      );
      expect(row).toMatchObject({ state: 'done', attempts: 0 });
    } finally {
      await box.stop();
    }
  });
});
