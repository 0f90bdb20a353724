// The store knows no wing's tables (issue 44): the jobs wing and the outbox register their own parts of the sweep,
// which clear a week-old finished row and keep an open one, and the store's own sweep leaves their tables alone.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOBS_SWEEP } from '../../../src/bot/jobs/index.js';
import { JOB_STATES } from '../../../src/bot/model/job-states.js';
import { OUTBOX_SWEEP } from '../../../src/bot/outbox/index.js';
import { OUTBOX_STATES } from '../../../src/bot/outbox/model/outbox-states.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const WEEK_AGO = NOW - 7 * 86_400_000 - 1;

async function seed(store: BotStore): Promise<void> {
  for (const [id, state] of [
    ['posted-old', JOB_STATES.posted[0]],
    ['pending-old', JOB_STATES.pending[0]],
  ] as const) {
    await store.query(
      `INSERT INTO jobs (correlation_id, kind, envelope, context, state, created_at, updated_at)
       VALUES (?, 'bet', '{}', '{}', ?, ?, ?)`,
      id,
      state,
      WEEK_AGO,
      WEEK_AGO,
    );
  }
  for (const [key, state] of [
    ...OUTBOX_STATES.closed.map((s) => [`create:${s}`, s] as const),
    ['create:open', OUTBOX_STATES.open[0]] as const,
  ]) {
    await store.query(
      `INSERT INTO outbox (outbox_key, kind, channel_id, body, rank, state, next_at, created_at, updated_at)
       VALUES (?, 'create', 'c1', '{}', 0, ?, ?, ?, ?)`,
      key,
      state,
      WEEK_AGO,
      WEEK_AGO,
      WEEK_AGO,
    );
  }
}

const keys = async (store: BotStore) => ({
  jobs: (await store.query<{ k: string }>('SELECT correlation_id AS k FROM jobs ORDER BY k')).map((r) => r.k),
  outbox: (await store.query<{ k: string }>('SELECT outbox_key AS k FROM outbox ORDER BY k')).map((r) => r.k),
});

describe.each(ENGINES)('the wings’ sweeps on %s', (engine) => {
  let store: BotStore;
  let cleanup: () => void;
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    await seed(store);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it('leaves the jobs and the outbox alone when no wing registered its part', async () => {
    const before = await keys(store);
    await store.sweep(NOW);
    expect(await keys(store)).toEqual(before);
  });

  it('clears week-old posted jobs and finished outbox rows, keeping the open ones, once registered', async () => {
    store.registerSweep(JOBS_SWEEP);
    store.registerSweep(OUTBOX_SWEEP);
    await store.sweep(NOW);
    expect(await keys(store)).toEqual({ jobs: ['pending-old'], outbox: ['create:open'] });
  });
});
