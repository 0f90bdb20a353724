/**
 * The same-race multis among a set of bets, told apart from the singles (decision 2040): how many, of how many legs,
 * their money and their CLV. They are counted in every total as any bet is; this is the part of it that is multis.
 */

import { type ClvSummary, clvSummary } from './clv-summary.js';
import type { BetFact } from './facts.js';
import { betPnlCents, type PnlSummary, pnl } from './pnl.js';

/** How many multis, of how many legs, and their P&L in whole cents (a void's is 0, an open one's 0 until settled). */
export interface MultiCount {
  /** Multis among the bets, voids included. */
  bets: number;
  /** How many multis have each number of legs, fewest legs first. */
  byLegs: Array<{ legs: number; bets: number }>;
  pnlCents: number;
}

export interface MultiPart extends MultiCount {
  pnl: PnlSummary;
  clv: ClvSummary;
}

export const isMulti = (b: Pick<BetFact, 'multiLegs'>): boolean => typeof b.multiLegs === 'number';

/** The multis among `facts` counted; undefined when there are none. */
export function multiCount(facts: readonly BetFact[]): MultiCount | undefined {
  const multis = facts.filter(isMulti);
  if (multis.length === 0) return undefined;
  const legs = new Map<number, number>();
  for (const b of multis) legs.set(b.multiLegs as number, (legs.get(b.multiLegs as number) ?? 0) + 1);
  return {
    bets: multis.length,
    byLegs: [...legs].sort((a, b) => a[0] - b[0]).map(([n, bets]) => ({ legs: n, bets })),
    pnlCents: multis.reduce((s, b) => s + (b.status === 'open' ? 0 : betPnlCents(b)), 0),
  };
}

/** The multis among `facts` with their money and CLV; undefined when there are none. */
export function multiPart(facts: readonly BetFact[]): MultiPart | undefined {
  const count = multiCount(facts);
  if (!count) return undefined;
  const multis = facts.filter(isMulti);
  return { ...count, pnl: pnl(multis), clv: clvSummary(multis) };
}
