import { describe, expect, it } from 'vitest';
import { ENGINES, freshStoreUrl } from '../pg/engines.js';
import { crashSteps } from './crash-steps.js';

describe.each(ENGINES)('kill -9 at every step of a bet on %s', (engine) => {
  it('survives: nothing placed twice, lost, unknown to the desk or announced twice, and the ledger holds exactly the committed moves', async () => {
    const { url, cleanup } = await freshStoreUrl(engine);
    try {
      const result = await crashSteps({ storeUrl: url });
      expect(result.notes.join('\n')).toMatch(/duplicate bets 0, gateway bets unknown to the desk 0, lost results 0/);
      expect(result.notes.join('\n')).toMatch(/ledger problems 0$/m);
      expect(result.survived, result.notes.join('\n')).toBe(true);
      expect(result.crashes).toBe(0);
      // On SQLite the kill as the receipt lands falls between its journal and its transaction (decision 2120): the
      // step holds the store's write lock while the delivery comes, so its transaction cannot commit first.
      if (engine === 'sqlite') {
        expect(result.notes.join('\n')).toMatch(
          /receipt edit lands.*: \d+ receipt\(s\) left in the journal, this bet's among them( \(others: [^)]*\))?, record submitted/,
        );
      }
    } finally {
      cleanup();
    }
  }, 240_000);
});
