import { describe, expect, it } from 'vitest';
import type { BetFact } from '../../../../src/bot/analytics/facts.js';
import { edgeAtPlacement, stakeDiscipline } from '../../../../src/bot/analytics/staking.js';

const fact = (f: Partial<BetFact>): BetFact => ({
  betId: 'b',
  member: 'm1',
  book: 'bookie_a',
  session: 's',
  sport: 'soccer',
  placedAt: 0,
  stakeCents: 1000,
  oddsTaken: 2.1,
  status: 'open',
  returnCents: null,
  closeOdds: null,
  closeMarket: null,
  ...f,
});

describe('edge at placement', () => {
  it('is the fair probability at placement times the odds taken, less one, averaged', () => {
    const r = edgeAtPlacement([
      fact({ fairProbability: 0.5, oddsTaken: 2.1 }),
      fact({ fairProbability: 0.5, oddsTaken: 1.9 }),
      fact({ fairProbability: null }),
    ]);
    expect(r.bets).toBe(2);
    expect(r.meanEdge).toBeCloseTo(0, 12);
  });

  it('sets it beside the EV against the no-vig close where the close market is complete', () => {
    // Close 2.0/2.0 → fair 0.5; taken 2.1 → EV +5%; edge at placement 0.5 × 2.1 − 1 = +5%: same sign.
    const r = edgeAtPlacement([
      fact({ fairProbability: 0.5, closeOdds: 2.0, closeMarket: { prices: [2.0, 2.0], complete: true } }),
    ]);
    expect(r.withCloseEv).toBe(1);
    expect(r.meanCloseEv).toBeCloseTo(0.05, 12);
    expect(r.sameSign).toBe(1);
  });

  it('leaves void bets out', () => {
    expect(edgeAtPlacement([fact({ fairProbability: 0.5, status: 'void' })]).bets).toBe(0);
  });
});

describe('stake discipline', () => {
  it('sums each member’s stakes against the suggested ones and counts bets above the suggestion', () => {
    const rows = stakeDiscipline([
      fact({ member: 'm2', stakeCents: 3000, suggestedCents: 2000 }),
      fact({ member: 'm1', stakeCents: 1000, suggestedCents: 1500 }),
      fact({ member: 'm2', stakeCents: 1000, suggestedCents: 1000 }),
      fact({ member: 'm1', stakeCents: 500, suggestedCents: null }),
    ]);
    expect(rows).toEqual([
      { member: 'm1', bets: 1, stakedCents: 1000, suggestedCents: 1500, over: 0 },
      { member: 'm2', bets: 2, stakedCents: 4000, suggestedCents: 3000, over: 1 },
    ]);
  });
});
