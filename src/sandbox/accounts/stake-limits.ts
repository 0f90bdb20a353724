// Simulated bookmaker limits: a bookmaker account's largest stake per sport, shrinking as the account wins,
// and restricted sessions. Off for every fixture account until a control route (or a fixture) turns it on.
import { centsOf, dollarsText } from '../core/money.js';
import type { BookAccount, LedgerBet, OverLimit, StakeLimitRule, TransactionStatus } from './types.js';

export type { OverLimit, StakeLimitRule };

/** The account's limit for one sport right now: the rule, shrunk once per win counted. */
export interface StakeLimitNow {
  maxStake: number;
  overLimit: OverLimit;
  wins: number;
}

/** A settled or open bet as the limit reads it. */
export interface BetForLimit {
  bet: Pick<LedgerBet, 'account_id' | 'epk' | 'placed_at'>;
  status: TransactionStatus;
}

/** The sport group of a sports event key (`basketball/us/nba/...`); undefined for racing. */
export function sportOfEpk(epk: string | undefined): string | undefined {
  return epk?.split('/')[0] || undefined;
}

/** The limit a rule sets after `wins` wins: shrunk in whole cents, rounded down, never below the floor. */
export function shrunkLimit(rule: Pick<StakeLimitRule, 'max_stake' | 'shrink_factor' | 'min_stake'>, wins: number) {
  let cents = centsOf(rule.max_stake);
  const floor = centsOf(rule.min_stake);
  for (let i = 0; i < wins && cents > floor; i++) cents = Math.floor(cents * rule.shrink_factor);
  return Math.max(cents, floor) / 100;
}

/** The limit on `sport` for the book account, counting its wins in the ledger; null when it has none. */
export function stakeLimitNow(book: BookAccount, sport: string, bets: readonly BetForLimit[]): StakeLimitNow | null {
  const rule =
    (book.stakeLimits ?? []).find((r) => r.sport === sport) ?? book.stakeLimits?.find((r) => r.sport === '*');
  if (!rule) return null;
  const wins = bets.filter(
    (b) =>
      b.status === 'won' &&
      b.bet.account_id === book.account_id &&
      (rule.sport === '*' || sportOfEpk(b.bet.epk) === sport) &&
      b.bet.placed_at >= rule.since,
  ).length;
  return { maxStake: shrunkLimit(rule, wins), overLimit: rule.over_limit, wins };
}

/** The refusal text of a stake above the limit (the same words as the max_stake fault). */
/** The stake the book takes: the asked stake, the limit (reduce), or a refusal text (refuse). */
export function stakeUnderLimit(
  limit: StakeLimitNow | null,
  stake: number,
  useBonus: boolean,
): { stake: number } | { error: string; maxStake: number } {
  if (!limit || stake <= limit.maxStake) return { stake };
  // A bonus token is spent whole, so a bonus bet above the limit is refused even when the book would reduce.
  if (limit.overLimit === 'reduce' && !useBonus) return { stake: limit.maxStake };
  return { error: maxStakeError(limit.maxStake), maxStake: limit.maxStake };
}

export function maxStakeError(maxStake: number): string {
  return `max_stake_exceeded: The maximum stake for this bet is ${dollarsText(maxStake)}.`;
}

/** The refusal text of a restricted session (the same words as the restricted fault). */
export const RESTRICTED_ERROR =
  'account_restricted: This account is restricted from placing bets. Please contact customer support.';
