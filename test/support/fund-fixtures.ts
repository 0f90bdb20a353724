// A fund strike as the views read it, for the unit tests of the fund's views and export: $1,600.00 over 1,600 units
// at $1.000000 a unit, struck on demand; override what a test is about.
import type { StrikeRecord } from '../../src/bot/fund/model/fund-records.js';

export const UNIT = 1_000_000;

export function strikeFixture(over: Partial<StrikeRecord> = {}): StrikeRecord {
  return {
    strikeId: 'fs-1',
    guildKey: 'g',
    dealingKey: 'demand:1795792668335',
    at: Date.parse('2026-11-27T15:17:30Z'),
    grossNavCents: 160_000,
    feeCents: 0,
    navCents: 160_000,
    unitsBefore: 1600 * UNIT,
    price: 100 * UNIT, // $1.000000 a unit: cents × 1,000,000
    navAfterCents: 160_000,
    unitsAfter: 1600 * UNIT,
    residualCents: 0,
    inputs: {
      sessions: [],
      openStakeCents: 0,
      openBets: 0,
      withdrawnUnpaidCents: 0,
      owedRedemptionsCents: 0,
      feesAccruedCents: 0,
      pendingContributionsCents: 0,
      deferred: { contributions: 0, cashouts: 0 },
    },
    actor: null,
    ...over,
  } as StrikeRecord;
}
