// Guild settings stored before decision 1931 hold money in dollars; they are read as whole cents and written back
// as version 2, on both engines, and a record already in cents is never converted twice.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSettings, settingsFromStored, updateSettings } from '../../../src/bot/settings/guild-settings.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

/** A record as the desk stored it before money moved to cents: every amount in dollars, no version. */
const IN_DOLLARS = {
  timezone: 'Australia/Sydney',
  sessions: { bookie_a: 's-1' },
  maxStakePerBet: 150,
  maxStakePerDay: 1500.5,
  maxPerEvent: 2000,
  maxPerMarket: 999.99,
  maxPerSessionDay: 3000,
  maxPerSyndicateDay: 10_000,
  maxPerEventPct: 2,
  approvalT1: 50,
  approvalT2: 100.25,
  approvalMinutes: 15,
  bank: 12_500,
  bankSetAt: 1_700_000_000_000,
  stakeUnit: 0.5,
  fundCashoutTier: 500,
  fundMinCashout: 0,
  fundOpeningPrice: 1,
  fundFeePercent: 20,
};

const IN_CENTS = {
  maxStakePerBetCents: 15_000,
  maxStakePerDayCents: 150_050,
  maxPerEventCents: 200_000,
  maxPerMarketCents: 99_999,
  maxPerSessionDayCents: 300_000,
  maxPerSyndicateDayCents: 1_000_000,
  approvalT1Cents: 5000,
  approvalT2Cents: 10_025,
  bankCents: 1_250_000,
  stakeUnitCents: 50,
  fundCashoutTierCents: 50_000,
  fundMinCashoutCents: 0,
  fundOpeningPriceCents: 100,
};

describe('settingsFromStored', () => {
  it('converts every dollar field of an unversioned record to cents and drops the dollar names', () => {
    const read = settingsFromStored(IN_DOLLARS) as Record<string, unknown>;
    expect(read).toMatchObject({ version: 2, ...IN_CENTS, maxPerEventPct: 2, approvalMinutes: 15, fundFeePercent: 20 });
    for (const k of ['maxStakePerBet', 'bank', 'stakeUnit', 'approvalT1', 'fundOpeningPrice'])
      expect(read).not.toHaveProperty(k);
  });

  it('leaves a version 2 record as it is', () => {
    const v2 = { version: 2, timezone: 'UTC', sessions: {}, bankCents: 12_500 };
    expect(settingsFromStored(v2)).toBe(v2);
  });
});

describe.each(ENGINES)('guild settings in cents on %s', (engine) => {
  let store: BotStore;
  let cleanup: () => void;
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine);
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it('reads a record stored in dollars as cents, and the next save writes it as version 2', async () => {
    await store.kv.set('guild:g1', IN_DOLLARS);
    expect(await getSettings(store, 'g1')).toMatchObject({ timezone: 'Australia/Sydney', ...IN_CENTS });
    await updateSettings(store, 'g1', (s) => ({ ...s, approvalMinutes: 20 }));
    const stored = (await store.kv.get('guild:g1')) as Record<string, unknown>;
    expect(stored).toMatchObject({ version: 2, ...IN_CENTS, approvalMinutes: 20 });
    expect(stored).not.toHaveProperty('maxStakePerBet');
    // Read again: already cents, never multiplied a second time.
    expect(await getSettings(store, 'g1')).toMatchObject(IN_CENTS);
  });
});
