// The account evidence store on both engines: each piece recorded once, a state moved once with its ledger entry.
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
});
