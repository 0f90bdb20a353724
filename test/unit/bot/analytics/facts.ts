import type { BetFact } from '../../../../src/bot/analytics/facts.js';

let seq = 0;

/** A bet with plain defaults; each test states only the fields its rule is about. */
export function bet(over: Partial<BetFact> = {}): BetFact {
  seq++;
  return {
    betId: `b${seq}`,
    member: 'm1',
    book: 'bookie_a',
    session: 's1',
    sport: 'soccer',
    placedAt: Date.UTC(2026, 8, 1, 12) + seq * 60_000,
    stakeCents: 1000,
    oddsTaken: 2,
    status: 'open',
    returnCents: null,
    closeOdds: null,
    closeMarket: null,
    ...over,
  };
}
