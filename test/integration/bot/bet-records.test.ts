import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BetRecordRepo, type ClaimRequest } from '../../../src/bot/betting/bet-records.js';
import { BetResults } from '../../../src/bot/betting/bet-results.js';
import { SlipRepo } from '../../../src/bot/betting/slips.js';
import { betViews } from '../../../src/bot/betting/views/bet-presenter.js';
import { silentLogger } from '../../../src/bot/config/logger.js';
import type { JobRecord } from '../../../src/bot/jobs/jobs-repo.js';
import { chainStaged } from '../../../src/bot/ledger/index.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import type { Outbox } from '../../../src/bot/outbox/outbox.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';
import { until } from '../../support/wait.js';

let cleanup: () => void;
let store: BotStore;
let slips: SlipRepo;
let records: BetRecordRepo;
const DAY = '2026-11-22';

async function slip(
  id: string,
  userId = 'u1',
  stake = 30,
  expiresAt = Date.now() + 60_000,
  where: { epk?: string; marketKey?: string; sessionId?: string } = {},
) {
  await slips.create({
    slipId: id,
    guildId: 'g1',
    channelId: 'c1',
    messageId: `m-${id}`,
    userId,
    payload: {
      stakeCents: stake * 100,
      sessionId: where.sessionId ?? '1001',
      bookie: 'bookie_a',
      epk: where.epk ?? 'nba/e1',
      marketKey: where.marketKey ?? 'moneyline',
    } as SlipPayload,
    createdAt: Date.now(),
    expiresAt,
  });
}

const claim = (slipId: string, over: Partial<ClaimRequest> = {}) =>
  records.claim({
    placementId: `p-${slipId}-${Math.random()}`,
    slipId,
    userId: 'u1',
    guildKey: 'g1',
    day: DAY,
    stakeCents: 3_000,
    dayLimitCents: 10_000,
    now: Date.now(),
    ...over,
  });

// The money path's statements on both engines: SQLite on a temp file, PostgreSQL on a fresh database.
describe.each(ENGINES)('bet records on %s', (engine) => {
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    slips = new SlipRepo(store);
    records = new BetRecordRepo(store);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it('writes one record in state sending for one of 20 concurrent claims of a slip', async () => {
    await slip('s1');
    const results = await Promise.all(Array.from({ length: 20 }, () => claim('s1')));
    expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(1);
    const rows = await store.query<{ state: string }>('SELECT state FROM bet_records WHERE slip_id = ?', 's1');
    expect(rows).toEqual([{ state: 'sending' }]);
  });

  it('tells the losing clicks what happened to the slip instead of a bare refusal', async () => {
    await slip('s2');
    await claim('s2');
    const again = await claim('s2');
    expect(again.kind === 'handled' && again.record.state).toBe('sending');
  });

  it('writes nothing for a claim by someone other than the owner, or after expiry', async () => {
    await slip('s3', 'owner');
    expect((await claim('s3', { userId: 'intruder' })).kind).toBe('other');
    await slip('s4', 'u1', 30, Date.now() - 1);
    expect((await claim('s4')).kind).toBe('other');
    expect(await store.query('SELECT * FROM bet_records')).toEqual([]);
  });

  it('holds the day limit atomically: 10 concurrent $30 claims under $100 leave three', async () => {
    for (let i = 0; i < 10; i++) await slip(`d${i}`);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => claim(`d${i}`)));
    expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(3);
    expect(results.filter((r) => r.kind === 'over_limit')).toHaveLength(7);
    expect(await records.usedCents('g1', 'u1', DAY)).toBe(9_000);
  });

  it('releases a refused bet’s stake once, however often the refusal is handled', async () => {
    await slip('r1');
    await slip('r2');
    const a = await claim('r1');
    await claim('r2');
    if (a.kind !== 'claimed') throw new Error('claim failed');
    await records.markSubmitted(a.record.placementId, { correlationId: 'c1', timeoutAt: null, odds: 2 }, Date.now());
    const moves = await Promise.all(
      Array.from({ length: 5 }, () => records.markRefused(a.record.placementId, { note: 'refused' }, Date.now())),
    );
    expect(moves.filter(Boolean)).toHaveLength(1);
    expect(await records.usedCents('g1', 'u1', DAY)).toBe(3_000);
  });

  it('tells its listener of each record it moved, as committed, and of no move that lost', async () => {
    await slip('w1');
    const a = await claim('w1');
    if (a.kind !== 'claimed') throw new Error('claim failed');
    const heard: string[] = [];
    records.whenMoved((r) => heard.push(`${r.state}:${r.correlationId}`));
    await records.markSubmitted(a.record.placementId, { correlationId: 'c-w1', timeoutAt: null, odds: 2 }, Date.now());
    await records.markRefused(a.record.placementId, { note: 'refused' }, Date.now());
    await records.markRefused(a.record.placementId, { note: 'refused again' }, Date.now());
    expect(heard).toEqual(['submitted:c-w1', 'refused:c-w1']);
  });

  // Read as every read of the ledger does: what is staged is chained first (a move does not wait for it, decision 2131).
  const entriesOf = async (ref: string) => {
    await chainStaged(store);
    return store.query<{ kind: string; data: string }>('SELECT kind, data FROM ledger WHERE ref = ? ORDER BY seq', ref);
  };

  it('writes one ledger entry per move, naming the state the record left, and none for a move that lost', async () => {
    await slip('l1');
    const a = await claim('l1');
    if (a.kind !== 'claimed') throw new Error('claim failed');
    const id = a.record.placementId;
    await records.markSubmitted(id, { correlationId: 'c-l1', timeoutAt: null, odds: 2 }, Date.now());
    const placed = await Promise.all(
      Array.from({ length: 5 }, () => records.markPlaced(id, { betId: 'BET-L1', odds: 2 }, Date.now())),
    );
    expect(placed.filter(Boolean)).toHaveLength(1);
    expect(await records.markSubmitted(id, { correlationId: 'c-late', timeoutAt: null, odds: 2 }, Date.now())).toBe(
      undefined,
    );
    const entries = (await entriesOf(id)).map((e) => {
      const d = JSON.parse(e.data) as { from: string | null; to: string };
      return `${e.kind}:${d.from}→${d.to}`;
    });
    expect(entries).toEqual(['hold:null→sending', 'submitted:sending→submitted', 'placement:submitted→placed']);
  });

  it('leaves the record and the slip as they were when the ledger entry of a move or a claim cannot be written', async () => {
    await slip('t1');
    await slip('t2');
    const a = await claim('t1');
    if (a.kind !== 'claimed') throw new Error('claim failed');
    // The staged entries' table out of reach: the entry's INSERT fails inside the move's transaction.
    await store.query('ALTER TABLE ledger_staged RENAME TO ledger_staged_away');
    try {
      await expect(records.markRefused(a.record.placementId, { note: 'refused' }, Date.now())).rejects.toThrow();
      await expect(claim('t2')).rejects.toThrow();
    } finally {
      await store.query('ALTER TABLE ledger_staged_away RENAME TO ledger_staged');
    }
    expect((await records.get(a.record.placementId))?.state).toBe('sending');
    expect(await records.bySlip('t2')).toBeUndefined();
    expect((await entriesOf(a.record.placementId)).map((e) => e.kind)).toEqual(['hold']);
  });

  it('hands a committed move to its caller before the move’s ledger entry is chained', async () => {
    await slip('oc1');
    const a = await claim('oc1');
    if (a.kind !== 'claimed') throw new Error('claim failed');
    await chainStaged(store);
    const seen: Array<{ state: string | undefined; staged: number }> = [];
    await records.markPlaced(a.record.placementId, { betId: 'BET-OC1', odds: 2 }, Date.now(), async (r) => {
      const [row] = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM ledger_staged');
      seen.push({ state: (await records.get(r.placementId))?.state, staged: Number(row?.n) });
    });
    expect(seen).toEqual([{ state: 'placed', staged: 1 }]);
    // The chaining the move started (not waited for) leaves nothing staged once it has run.
    await until('the placement chained', async () => {
      const [row] = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM ledger_staged');
      return Number(row?.n) === 0 ? true : undefined;
    });
    expect((await entriesOf(a.record.placementId)).map((e) => e.kind)).toEqual(['hold', 'placement']);
  });

  it('adopts one gateway bet id for at most one record', async () => {
    await slip('x1');
    await slip('x2');
    const a = await claim('x1');
    const b = await claim('x2');
    if (a.kind !== 'claimed' || b.kind !== 'claimed') throw new Error('claim failed');
    await records.markPlaced(a.record.placementId, { betId: 'BET-1', odds: 2 }, Date.now());
    await expect(
      records.markAdopted(b.record.placementId, { betId: 'BET-1', odds: 2, note: 'adopted' }, Date.now()),
    ).rejects.toThrow(/UNIQUE constraint failed|duplicate key value violates unique constraint/);
  });

  it('finds which of 600 bet ids its records hold, past the first piece of a lookup, on the session asked only', async () => {
    await slip('k1');
    await slip('k2', 'u1', 30, Date.now() + 60_000, { sessionId: '2002' });
    await slip('k3');
    const a = await claim('k1');
    const b = await claim('k2');
    const c = await claim('k3');
    if (a.kind !== 'claimed' || b.kind !== 'claimed' || c.kind !== 'claimed') throw new Error('claim failed');
    await records.markPlaced(a.record.placementId, { betId: 'BET-550', odds: 2 }, Date.now());
    await records.markPlaced(b.record.placementId, { betId: 'BET-3', odds: 2 }, Date.now());
    // A bet of the session not asked about is not read.
    await records.markPlaced(c.record.placementId, { betId: 'OTHER-1', odds: 2 }, Date.now());
    const asked = Array.from({ length: 600 }, (_, i) => `BET-${i}`);
    expect([...(await records.knownBetIds('1001', asked))]).toEqual(['BET-550']);
  });

  it('keeps the job’s correlation id on a record whose result is applied before its 202 is stored', async () => {
    // A resent promo: the record is unknown (its first 202 was lost); the resend's result is read at once.
    await slip('r1');
    const a = await claim('r1');
    if (a.kind !== 'claimed') throw new Error('claim failed');
    const id = a.record.placementId;
    await records.markSendUnknown(id, { note: 'no answer' }, Date.now());
    // Discord is not under test here: the slip's edit is dropped.
    const outbox = { edit: async () => undefined } as unknown as Outbox;
    const results = new BetResults({ records, outbox, present: betViews, logger: silentLogger, now: Date.now });
    const job = {
      correlationId: 'c-resent',
      context: { placementId: id, odds: 2, slip: a.record.payload },
    } as JobRecord<never>;
    await results.apply(job, {
      status: 'completed',
      result: { success: true, bet_id: 'BET-R1', odds: 2 },
      entry: undefined,
    });
    const after = await records.get(id);
    expect([after?.state, after?.betId, after?.correlationId]).toEqual(['placed', 'BET-R1', 'c-resent']);
  });

  it('lets a close and a claim of the same slip never both win', async () => {
    for (let i = 0; i < 20; i++) {
      await slip(`c${i}`);
      const [closed, claimed] = await Promise.all([slips.close(`c${i}`), claim(`c${i}`)]);
      expect(Number(closed) + Number(claimed.kind === 'claimed')).toBe(1);
    }
  });

  it.each([
    ['event', { perEventCents: 10_000 }, { marketKey: (i: number) => `m${i}`, sessionId: (i: number) => `s${i}` }],
    ['market', { perMarketCents: 10_000 }, { sessionId: (i: number) => `s${i}` }],
    ['session_day', { perSessionDayCents: 10_000 }, { epk: (i: number) => `nba/e${i}` }],
    [
      'syndicate_day',
      { perSyndicateDayCents: 10_000 },
      { epk: (i: number) => `nba/e${i}`, sessionId: (i: number) => `s${i}` },
    ],
  ] as const)(
    'holds the %s cap across members atomically: 10 concurrent $30 claims under $100 leave three',
    async (cap, caps, vary) => {
      const v = vary as Partial<Record<'epk' | 'marketKey' | 'sessionId', (i: number) => string>>;
      for (let i = 0; i < 10; i++) {
        await slip(`${cap}${i}`, `member${i}`, 30, Date.now() + 60_000, {
          ...(v.epk ? { epk: v.epk(i) } : {}),
          ...(v.marketKey ? { marketKey: v.marketKey(i) } : {}),
          ...(v.sessionId ? { sessionId: v.sessionId(i) } : {}),
        });
      }
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => claim(`${cap}${i}`, { userId: `member${i}`, caps })),
      );
      expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(3);
      const refused = results.filter((r) => r.kind === 'over_limit');
      expect(refused).toHaveLength(7);
      expect(refused.every((r) => r.kind === 'over_limit' && r.cap === cap && r.usedCents === 9_000)).toBe(true);
    },
  );

  it('frees a cap when a held bet is released (refused), so the next claim fits', async () => {
    const caps = { perEventCents: 5_000 };
    await slip('f1', 'a');
    await slip('f2', 'b');
    const first = await claim('f1', { userId: 'a', caps });
    expect((await claim('f2', { userId: 'b', caps })).kind).toBe('over_limit');
    if (first.kind !== 'claimed') throw new Error('claim failed');
    await records.markRefused(first.record.placementId, { note: 'refused' }, Date.now());
    await slip('f3', 'b');
    expect((await claim('f3', { userId: 'b', caps })).kind).toBe('claimed');
  });
});

// Decision 2131: a move resolves at its COMMIT, not once its entry is chained. Only PostgreSQL has a chain lock another
// process can hold while this one moves records (a SQLite file has one writer: a transaction held open stops the move
// itself, not only its chaining).
describe('bet records on postgres, the chain lock held by another process', () => {
  let other: BotStore;
  beforeEach(async () => {
    const fresh = await freshStoreUrl('postgres', { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    other = await openStore(fresh.url);
    slips = new SlipRepo(store);
    records = new BetRecordRepo(store);
  });
  afterEach(async () => {
    await other.close();
    await store.close();
    cleanup();
  });

  it('claims and moves a record while the chain is locked, and chains their entries once the lock is free', async () => {
    await slip('cl1');
    const moved = await other.withLock('ledger:append', async () => {
      const claimed = await claim('cl1');
      if (claimed.kind !== 'claimed') throw new Error('claim failed');
      const placed = await records.markPlaced(claimed.record.placementId, { betId: 'BET-CL1', odds: 2 }, Date.now());
      const [row] = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM ledger_staged');
      return { state: placed?.state, staged: Number(row?.n), id: claimed.record.placementId };
    });
    expect([moved.state, moved.staged]).toEqual(['placed', 2]);
    await chainStaged(store);
    const rows = await store.query<{ kind: string }>('SELECT kind FROM ledger WHERE ref = ? ORDER BY seq', moved.id);
    expect(rows.map((r) => r.kind)).toEqual(['hold', 'placement']);
  });
});
