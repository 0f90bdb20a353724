/**
 * The staking report: the edge a bet had against the fair price when it was made (does it hold up at the close?),
 * and stake discipline, what each member staked against what Kelly suggested.
 */

import { evAgainstClose } from './clv.js';
import type { BetFact } from './facts.js';

export interface EdgeAtPlacement {
  /** Bets (not void) with a fair price at placement. */
  bets: number;
  /** Mean of fair probability × odds taken − 1. */
  meanEdge: number | null;
  /** Of those, bets whose close allows an EV against the no-vig close, and that EV's mean. */
  withCloseEv: number;
  meanCloseEv: number | null;
  /** Share of those where the edge at placement and the EV at the close have the same sign. */
  sameSign: number | null;
}

export interface MemberDiscipline {
  member: string;
  /** Bets with a suggested stake. */
  bets: number;
  stakedCents: number;
  suggestedCents: number;
  /** Bets staked above the suggestion. */
  over: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : null);

export function edgeAtPlacement(facts: readonly BetFact[]): EdgeAtPlacement {
  const priced = facts.filter((b) => b.status !== 'void' && typeof b.fairProbability === 'number');
  const edges = priced.map((b) => (b.fairProbability as number) * b.oddsTaken - 1);
  const pairs = priced.flatMap((b, i) => {
    const ev = evAgainstClose(b.oddsTaken, b.closeOdds, b.closeMarket);
    return ev.ok ? [{ edge: edges[i] as number, ev: ev.ev }] : [];
  });
  return {
    bets: priced.length,
    meanEdge: mean(edges),
    withCloseEv: pairs.length,
    meanCloseEv: mean(pairs.map((p) => p.ev)),
    sameSign: pairs.length ? pairs.filter((p) => p.edge > 0 === p.ev > 0).length / pairs.length : null,
  };
}

/** Per member, bets that had a suggested stake: staked against suggested, members in id order. */
export function stakeDiscipline(facts: readonly BetFact[]): MemberDiscipline[] {
  const by = new Map<string, MemberDiscipline>();
  for (const b of facts) {
    if (b.status === 'void' || typeof b.suggestedCents !== 'number') continue;
    const row = by.get(b.member) ?? { member: b.member, bets: 0, stakedCents: 0, suggestedCents: 0, over: 0 };
    row.bets += 1;
    row.stakedCents += b.stakeCents;
    row.suggestedCents += b.suggestedCents;
    if (b.stakeCents > b.suggestedCents) row.over += 1;
    by.set(b.member, row);
  }
  return [...by.values()].sort((a, b) => (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
}
