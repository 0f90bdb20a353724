import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../pg/engines.js';
import { killMidMove } from './kill-mid-move.js';
import { ledgerAgainstRecords } from './ledger-check.js';

const CHILD = fileURLToPath(new URL('./ledger-moves-child.ts', import.meta.url));

describe.each(ENGINES)('kill -9 in the middle of bet moves on %s', (engine) => {
  it('leaves the ledger with exactly the entries of the moves that committed, in an unbroken chain', async () => {
    const { url, cleanup } = await freshStoreUrl(engine);
    try {
      // Three kills at different moments, each run going on from the store the one before left.
      for (const [i, ms] of [150, 400, 900].entries()) await killMidMove(CHILD, url, `r${i}`, ms);
      const store = await openStore(url);
      try {
        const [{ n } = { n: 0 }] = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM bet_records');
        expect(Number(n)).toBeGreaterThan(60);
        expect(await ledgerAgainstRecords(store)).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      cleanup();
    }
  }, 120_000);
});
