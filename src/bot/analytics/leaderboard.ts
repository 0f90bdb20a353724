/** Members ranked by closing line value, not profit: CLV shows skill in hundreds of bets, profit needs thousands. */

import { type ClvSummary, clvSummary } from './clv-summary.js';
import type { BetFact } from './facts.js';
import { pnl } from './pnl.js';

export interface LeaderRow {
  member: string;
  clv: ClvSummary;
  profitCents: number;
}

export interface Leaderboard {
  ranked: LeaderRow[];
  /** Members with fewer bets with a close than the minimum, fewest-needed first. */
  tooFew: Array<{ member: string; withClose: number }>;
  minBets: number;
}

/** Ranks by mean log CLV (ties: more bets first); a member needs `minBets` bets with a captured close. */
export function leaderboard(facts: readonly BetFact[], minBets: number): Leaderboard {
  const byMember = new Map<string, BetFact[]>();
  for (const b of facts) byMember.set(b.member, [...(byMember.get(b.member) ?? []), b]);
  const ranked: LeaderRow[] = [];
  const tooFew: Leaderboard['tooFew'] = [];
  for (const [member, bets] of byMember) {
    const clv = clvSummary(bets);
    if (clv.withClose < minBets || clv.meanLogClv === null) tooFew.push({ member, withClose: clv.withClose });
    else ranked.push({ member, clv, profitCents: pnl(bets).profitCents });
  }
  ranked.sort(
    (a, b) =>
      (b.clv.meanLogClv ?? 0) - (a.clv.meanLogClv ?? 0) ||
      b.clv.withClose - a.clv.withClose ||
      (a.member < b.member ? -1 : 1),
  );
  tooFew.sort((a, b) => b.withClose - a.withClose || (a.member < b.member ? -1 : 1));
  return { ranked, tooFew, minBets };
}
