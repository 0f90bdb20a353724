/** Closing line value of a set of bets: capture, CLV, beat-close rate and EV where the close allows it. */

import { evAgainstClose, logClv, priceClv } from './clv.js';
import type { BetFact } from './facts.js';

export interface ClvSummary {
  /** Bets that count for CLV: every bet but voids (a void was never a position). */
  bets: number;
  withClose: number;
  /** Counted, never dropped: these lower the capture rate. */
  withoutClose: number;
  settled: number;
  settledWithClose: number;
  /** Share of settled, non-void bets with a captured close: the goal is 1. */
  captureRate: number | null;
  /** Mean price-vs-price CLV of bets with a close. */
  meanClv: number | null;
  /** The same, weighted by stake. */
  stakeWeightedClv: number | null;
  meanLogClv: number | null;
  sumLogClv: number;
  beatClose: number;
  beatCloseRate: number | null;
  /** Bets with an EV against the no-vig close (complete market). */
  evBets: number;
  meanEv: number | null;
  /** Bets with a close whose market was incomplete (or unusable): EV left out for them. */
  noEv: number;
  /** Σ stake × EV (or × price CLV where the market was incomplete), whole cents per bet. */
  expectedProfitCents: number;
}

/** What a bet is expected to make on its close: EV against the no-vig close, else price CLV, else nothing. */
export function expectedProfitCents(b: BetFact): number {
  if (b.closeOdds === null || b.status === 'void') return 0;
  const ev = evAgainstClose(b.oddsTaken, b.closeOdds, b.closeMarket);
  const edge = ev.ok ? ev.ev : priceClv(b.oddsTaken, b.closeOdds);
  return Math.round(b.stakeCents * edge);
}

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

export function clvSummary(facts: readonly BetFact[]): ClvSummary {
  const live = facts.filter((b) => b.status !== 'void');
  const closed = live.filter((b) => b.closeOdds !== null && b.closeOdds > 1);
  const settled = live.filter((b) => b.status !== 'open');
  const settledWithClose = settled.filter((b) => b.closeOdds !== null && b.closeOdds > 1).length;
  const clvs = closed.map((b) => priceClv(b.oddsTaken, b.closeOdds as number));
  const logs = closed.map((b) => logClv(b.oddsTaken, b.closeOdds as number));
  const stake = closed.reduce((s, b) => s + b.stakeCents, 0);
  const evs = closed.map((b) => evAgainstClose(b.oddsTaken, b.closeOdds, b.closeMarket));
  const okEvs = evs.flatMap((e) => (e.ok ? [e.ev] : []));
  const beat = closed.filter((b) => b.oddsTaken > (b.closeOdds as number)).length;
  return {
    bets: live.length,
    withClose: closed.length,
    withoutClose: live.length - closed.length,
    settled: settled.length,
    settledWithClose,
    captureRate: settled.length ? settledWithClose / settled.length : null,
    meanClv: mean(clvs),
    stakeWeightedClv: stake > 0 ? closed.reduce((s, b, i) => s + b.stakeCents * (clvs[i] as number), 0) / stake : null,
    meanLogClv: mean(logs),
    sumLogClv: logs.reduce((s, x) => s + x, 0),
    beatClose: beat,
    beatCloseRate: closed.length ? beat / closed.length : null,
    evBets: okEvs.length,
    meanEv: mean(okEvs),
    noEv: evs.length - okEvs.length,
    expectedProfitCents: live.reduce((s, b) => s + expectedProfitCents(b), 0),
  };
}
