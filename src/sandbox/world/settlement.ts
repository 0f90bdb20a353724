// Deciding bets: from the final score where it says enough, from a seeded draw otherwise.
import type { Outcome } from './cards.js';
import type { FinalScore } from './lifecycle.js';
import { unit } from './prng.js';

export type BetOutcome = 'won' | 'lost' | 'void';

/** A sports selection against the final score (null score: decided by the draw). */
export function sportsOutcome(
  seed: number,
  betId: string,
  outcome: Outcome,
  chance: number,
  final: FinalScore | null,
  isPlayerMarket: boolean,
): BetOutcome {
  if (outcome.kind === 'one_of') {
    const r = unit(seed, 'settle', outcome.key);
    return r >= outcome.from && r < outcome.to ? 'won' : 'lost';
  }
  if (final) {
    const diff = final.home - final.away;
    if (outcome.kind === 'side') {
      const winner = diff > 0 ? 'home' : diff < 0 ? 'away' : 'draw';
      return winner === outcome.side ? 'won' : 'lost';
    }
    if (outcome.kind === 'line') {
      const margin = outcome.side === 'home' ? diff + outcome.line : -diff + outcome.line;
      return margin > 0 ? 'won' : margin < 0 ? 'lost' : 'void';
    }
    if (outcome.kind === 'total' && !isPlayerMarket) {
      const total = final.home + final.away;
      if (total === outcome.line) return 'void';
      return total > outcome.line === (outcome.side === 'over') ? 'won' : 'lost';
    }
  }
  const r = unit(seed, 'settle', betId);
  // A player who does not take the field voids his props.
  if (isPlayerMarket && r > 0.98) return 'void';
  return r < chance ? 'won' : 'lost';
}

/** A racing leg: finish position of the runner against the positions it needs (1 = win, 3 = top 3). */
export function legWins(order: readonly number[], runner: number, within: number): boolean {
  const pos = order.indexOf(runner);
  return pos >= 0 && pos < within;
}
