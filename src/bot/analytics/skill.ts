/**
 * Is it skill or luck? Mean closing line value with its 95 % interval, and a verdict in plain words
 * (decision 1870). The sample is the bets with a captured close; voids never count.
 */

import { priceClv } from './clv.js';
import type { BetFact } from './facts.js';
import { type MeanInterval, meanInterval } from './interval.js';

/** Bets with a close a verdict needs by default: below about 30 the interval leans on a shape the sample cannot show. */
export const DEFAULT_SKILL_MIN_BETS = 30;
export const SKILL_CONFIDENCE = 0.95;

export type SkillVerdict =
  | { kind: 'too-few'; have: number; need: number }
  | { kind: 'beats-close'; interval: MeanInterval }
  | { kind: 'behind-close'; interval: MeanInterval }
  | { kind: 'unclear'; interval: MeanInterval };

export interface Skill {
  /** Bets with a captured close: the sample. */
  n: number;
  /** The interval of mean price CLV; null under two bets with a close. */
  interval: MeanInterval | null;
  verdict: SkillVerdict;
}

/** Price CLV of each non-void bet with a close, in the facts' order. */
export function clvSample(facts: readonly BetFact[]): number[] {
  const out: number[] = [];
  for (const b of facts) {
    if (b.status === 'void' || b.closeOdds === null || !(b.closeOdds > 1)) continue;
    out.push(priceClv(b.oddsTaken, b.closeOdds));
  }
  return out;
}

export function skillOf(facts: readonly BetFact[], minBets = DEFAULT_SKILL_MIN_BETS): Skill {
  const sample = clvSample(facts);
  const interval = meanInterval(sample, SKILL_CONFIDENCE);
  const need = Math.max(2, minBets);
  let verdict: SkillVerdict;
  if (sample.length < need || interval === null) verdict = { kind: 'too-few', have: sample.length, need };
  else if (interval.low > 0) verdict = { kind: 'beats-close', interval };
  else if (interval.high < 0) verdict = { kind: 'behind-close', interval };
  else verdict = { kind: 'unclear', interval };
  return { n: sample.length, interval, verdict };
}
