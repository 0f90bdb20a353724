// The account evidence store on both engines: each piece recorded once, a state moved once with its ledger entry, a
// session's evidence kept between reads while its count is unchanged (decision 2134).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountEvidenceRepo, type EvidenceInput } from '../../../src/bot/accounts/account-evidence.js';
import { sessionHealth } from '../../../src/bot/accounts/model/account-health.js';
import { Ledger } from '../../../src/bot/ledger/ledger-repo.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

const AT = Date.parse('2026-11-20T12:00:00Z');

const limited: EvidenceInput = {
  key: 'bet:p1',
  sessionId: 's-c',
  bookie: 'bookie_c',
  guildKey: 'g1',
  kind: 'accepted',
  at: AT,
  sport: 'nfl',
  market: 'head_to_head',
  marketLabel: 'Head-to-head',
  askedCents: 3000,
  acceptedCents: 2000,
};

describe.each(ENGINES)('account evidence on %s', (engine) => {
  let store: BotStore;
  let cleanup: () => void;
  let repo: AccountEvidenceRepo;
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    repo = new AccountEvidenceRepo(store);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it('records a piece of evidence once per key, and reads it back as given', async () => {
    expect(await repo.record(limited)).toBe(true);
    expect(await repo.record({ ...limited, acceptedCents: 1 })).toBe(false);
    const [back] = await repo.since(AT - 1);
    expect(back).toMatchObject({
      sessionId: 's-c',
      kind: 'accepted',
      askedCents: 3000,
      acceptedCents: 2000,
      sport: 'nfl',
    });
    expect(await repo.since(AT + 1)).toEqual([]);
  });

  it('moves a state once when two movers read the same row, with one ledger entry', async () => {
    await repo.record(limited);
    const h = sessionHealth('s-c', 'bookie_c', await repo.since(0), AT);
    expect(h.state).toBe('stake-limited');
    const moves = await Promise.all([repo.moveState(h, undefined, AT, 'g1'), repo.moveState(h, undefined, AT, 'g1')]);
    expect(moves.filter(Boolean)).toHaveLength(1);
    const state = await repo.state('s-c');
    expect(state).toMatchObject({
      state: 'stake-limited',
      changes: 1,
      reasons: ['took at most $20.00 on NFL head-to-head lately'],
    });
    const again = await Promise.all([
      repo.moveState({ ...h, state: 'healthy', reasons: [] }, state, AT, 'g1'),
      repo.moveState({ ...h, state: 'restricted' }, state, AT, 'g1'),
    ]);
    expect(again.filter(Boolean)).toHaveLength(1);
    const entries = await new Ledger(store).allOfKinds(['account_state']);
    expect(entries.map((e) => e.data.change)).toEqual([1, 2]);
    expect((await new Ledger(store).verify()).ok).toBe(true);
  });

  it("reads one session's state by its key: the other sessions' rows and an unknown session are not it", async () => {
    const other = { ...limited, key: 'other', sessionId: 's-d', bookie: 'bookie_d' };
    await repo.record(limited);
    await repo.record(other);
    for (const e of [limited, other]) {
      await repo.moveState(
        sessionHealth(e.sessionId, e.bookie, await repo.since(0, [e.sessionId]), AT),
        undefined,
        AT,
        'g1',
      );
    }
    expect({
      c: (await repo.state('s-c'))?.bookie,
      d: (await repo.state('s-d'))?.bookie,
      unknown: await repo.state('s-x'),
    }).toEqual({ c: 'bookie_c', d: 'bookie_d', unknown: undefined });
  });

  describe('a session read again only when its count changed', () => {
    /** The statements the store ran, by their first words. */
    let ran: string[];
    const reads = () => ran.filter((sql) => sql.startsWith('SELECT * FROM account_evidence'));
    const counts = () => ran.filter((sql) => sql.startsWith('SELECT session_id, COUNT(*)'));
    const piece = (n: number, over: Partial<EvidenceInput> = {}): EvidenceInput => ({
      ...limited,
      key: `bet:p${n}`,
      at: AT + n * 1_000,
      ...over,
    });
    /** What a read of every session's rows gives for the session, as the store orders them. */
    const fromStore = async (sessionId: string, since: number) =>
      (await new AccountEvidenceRepo(store).since(since)).filter((e) => e.sessionId === sessionId);

    beforeEach(async () => {
      for (const n of [1, 2, 3]) await repo.record(piece(n));
      await repo.record(piece(4, { sessionId: 's-a', bookie: 'bookie_a' }));
      const query = store.query.bind(store);
      ran = [];
      store.query = ((sql: string, ...params: unknown[]) => {
        ran.push(sql.trim().replace(/\s+/g, ' '));
        return query(sql, ...params);
      }) as typeof store.query;
    });

    it('answers a session whose count is unchanged with one count statement and no read of its rows', async () => {
      const first = await repo.since(AT, ['s-c']);
      expect(reads()).toHaveLength(1);
      ran = [];
      const again = await repo.since(AT, ['s-c']);
      expect(reads()).toEqual([]);
      expect(counts()).toHaveLength(1);
      expect(again).toEqual(first);
      expect(again).toEqual(await fromStore('s-c', AT));
    });

    it("reads the session again when another writer added to it, and gives that writer's row", async () => {
      await repo.since(AT, ['s-c']);
      await new AccountEvidenceRepo(store).record(piece(5, { acceptedCents: 500 }));
      ran = [];
      const after = await repo.since(AT, ['s-c']);
      expect(reads()).toHaveLength(1);
      expect(after.map((e) => e.acceptedCents)).toEqual([2000, 2000, 2000, 500]);
      expect(after).toEqual(await fromStore('s-c', AT));
    });

    it('adds what it records itself without reading the session again, in the place the store orders it', async () => {
      await repo.since(AT, ['s-c']);
      ran = [];
      // Between the kept rows' moments: it goes between them, as the store orders it.
      expect(await repo.record(piece(2.5, { acceptedCents: 700 }))).toBe(true);
      const after = await repo.since(AT, ['s-c']);
      expect(reads()).toEqual([]);
      expect(after.map((e) => e.acceptedCents)).toEqual([2000, 2000, 700, 2000]);
      expect(after).toEqual(await fromStore('s-c', AT));
    });

    it('adds several of its own records made at once without reading the session again', async () => {
      await repo.since(AT, ['s-c']);
      await Promise.all([6, 7, 8].map((n) => repo.record(piece(n, { acceptedCents: n }))));
      ran = [];
      const after = await repo.since(AT, ['s-c']);
      expect(reads()).toEqual([]);
      expect(after.map((e) => e.acceptedCents)).toEqual([2000, 2000, 2000, 6, 7, 8]);
      expect(after).toEqual(await fromStore('s-c', AT));
    });

    it('reads the session again when its own row comes at the same moment as a kept one', async () => {
      await repo.since(AT, ['s-c']);
      await repo.record(piece(2, { key: 'bet:p2-twin', acceptedCents: 900 }));
      ran = [];
      const after = await repo.since(AT, ['s-c']);
      expect(reads()).toHaveLength(1);
      expect(after).toEqual(await fromStore('s-c', AT));
    });

    it('lets go of what fell out of the window, and answers several sessions oldest first', async () => {
      await repo.since(AT, ['s-c', 's-a']);
      ran = [];
      const later = await repo.since(AT + 2_500, ['s-c', 's-a']);
      expect(reads()).toEqual([]);
      expect(later.map((e) => [e.sessionId, e.at - AT])).toEqual([
        ['s-c', 3_000],
        ['s-a', 4_000],
      ]);
    });
  });
});
