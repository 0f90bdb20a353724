import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LastNav, NavOrSetBank, SetBank } from '../../../src/bot/betting/bank.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { freshStoreUrl } from '../../pg/engines.js';

const AT = Date.parse('2026-11-20T12:00:00Z');

describe('the bank stakes are sized by', () => {
  let store: BotStore;
  let cleanup: () => void;
  beforeEach(async () => {
    const fresh = await freshStoreUrl('sqlite', { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    await SetBank.set(store, 'g1', 250_000, AT);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  const strikes =
    (navCents: number | null): LastNav =>
    async () =>
      navCents === null ? null : { navCents, at: new Date(AT + 60_000) };

  it('is the fund’s NAV at its last strike when the fund holds money, over a set bank', async () => {
    const bank = await new NavOrSetBank(store, strikes(1_234_567)).bankFor('g1');
    expect(bank).toEqual({ cents: 1_234_567, source: 'nav', asOf: new Date(AT + 60_000) });
  });

  it('is the bank an admin set when the fund has no strike yet', async () => {
    const bank = await new NavOrSetBank(store, strikes(null)).bankFor('g1');
    expect(bank).toEqual({ cents: 250_000, source: 'set', asOf: new Date(AT) });
  });

  it('is the bank an admin set when every unit was cashed out (NAV 0)', async () => {
    const bank = await new NavOrSetBank(store, strikes(0)).bankFor('g1');
    expect(bank?.source).toBe('set');
  });
});
