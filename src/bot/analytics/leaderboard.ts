/**
 * Members ranked by closing line value, not profit: CLV shows skill in hundreds of bets, profit needs thousands.
 * The rank reads the lower end of each member's 95 % interval, so a short lucky run does not top the table
 * (decision 1870).
 */

import { type ClvSummary, clvSummary } from './clv-summary.js';
import type { BetFact } from './facts.js';
import { type MultiPart, multiPart } from './multis.js';
import { pnl } from './pnl.js';
import { type Skill, skillOf } from './skill.js';

export interface LeaderRow {
  member: string;
  clv: ClvSummary;
  skill: Skill;
  profitCents: number;
  /** The member's same-race multis, counted in the row as any bet (absent: none). */
  multis?: MultiPart;
}

export interface Leaderboard {
  ranked: LeaderRow[];
  /** Members with fewer bets with a close than the minimum, most bets first. */
  tooFew: Array<{ member: string; withClose: number }>;
  minBets: number;
}

/** The number a row is ranked by: the interval's lower end (a ranked row always has an interval). */
const rankKey = (r: LeaderRow): number => r.skill.interval?.low ?? Number.NEGATIVE_INFINITY;

/**
 * Ranks by the lower end of the 95 % interval of mean CLV (ties: more bets first, then member id);
 * a member needs `minBets` bets with a captured close (at least two, for an interval).
 */
export function leaderboard(facts: readonly BetFact[], minBets: number): Leaderboard {
  const byMember = new Map<string, BetFact[]>();
  for (const b of facts) {
    const bets = byMember.get(b.member);
    if (bets) bets.push(b);
    else byMember.set(b.member, [b]);
  }
  const ranked: LeaderRow[] = [];
  const tooFew: Leaderboard['tooFew'] = [];
  for (const [member, bets] of byMember) {
    const skill = skillOf(bets, minBets);
    if (skill.verdict.kind === 'too-few') tooFew.push({ member, withClose: skill.n });
    else {
      const multis = multiPart(bets);
      ranked.push({
        member,
        clv: clvSummary(bets),
        skill,
        profitCents: pnl(bets).profitCents,
        ...(multis ? { multis } : {}),
      });
    }
  }
  ranked.sort(
    (a, b) =>
      rankKey(b) - rankKey(a) || b.skill.n - a.skill.n || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0),
  );
  tooFew.sort((a, b) => b.withClose - a.withClose || (a.member < b.member ? -1 : 1));
  return { ranked, tooFew, minBets: Math.max(2, minBets) };
}
