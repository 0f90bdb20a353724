import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getRiskState } from '../../src/bot/fund/risk-limits-repo.js';
import { Ledger } from '../../src/bot/ledger/ledger-repo.js';
import { openStore } from '../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../pg/engines.js';
import { killMidMove } from './kill-mid-move.js';

const CHILD = fileURLToPath(new URL('./risk-moves-child.ts', import.meta.url));

/**
 * kill -9 between a risk move and its ledger entry leaves both or neither (decision 1951): after three kills at
 * different moments, the stops, votes and resumes in the ledger are exactly those the state has been through (each
 * resume two votes and one stop; a stop in force its votes so far), the limit changes one per limit row written, and
 * the chain verifies.
 */
describe.each(ENGINES)('kill -9 in the middle of risk moves on %s', (engine) => {
  it('leaves every stop, vote, resume and limit change with exactly its ledger entry', async () => {
    const { url, cleanup } = await freshStoreUrl(engine);
    try {
      for (const [i, ms] of [120, 350, 800].entries()) await killMidMove(CHILD, url, `r${i}`, ms);
      const store = await openStore(url);
      try {
        const entries = await store.query<{ kind: string; data: string }>(
          "SELECT kind, data FROM ledger WHERE ref = 'risk:g-risk' ORDER BY seq",
        );
        const count = (risk: string) =>
          entries.filter((e) => (JSON.parse(String(e.data)) as { risk?: string }).risk === risk).length;
        const stops = count('drawdown_stop');
        const votes = count('resume_vote');
        const resumes = count('resumed');
        const state = await getRiskState(store, 'g-risk');
        expect(resumes).toBeGreaterThan(5);
        expect(stops).toBe(resumes + (state.stop ? 1 : 0));
        expect(votes).toBe(2 * resumes + (state.stop?.votes.length ?? 0));
        // The last limit change's entry names the limits the state holds.
        const changes = entries.filter((e) => e.kind === 'limit_change');
        const last = JSON.parse(String(changes.at(-1)?.data)) as { after: unknown };
        expect(last.after).toEqual(state.limits);
        expect((await new Ledger(store).verify()).ok).toBe(true);
      } finally {
        await store.close();
      }
    } finally {
      cleanup();
    }
  }, 120_000);
});
