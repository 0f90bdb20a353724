// Bonus tokens: listing with split options, splitting, and spending one on a bet.
import { centsOf, money } from '../core/money.js';
import type { BonusToken, BookAccount } from './types.js';

/** Tokens under this value are not splittable. */
export const MIN_SPLITTABLE = 10;
const PIECE_COUNTS = [2, 4, 5, 10];

/** Piece counts that divide the amount into whole cents, and the value of each piece (aligned arrays). */
export function splitOptions(amount: number): { split_options: number[]; split_amounts: number[] } {
  if (amount < MIN_SPLITTABLE) return { split_options: [], split_amounts: [] };
  const cents = centsOf(amount);
  const counts = PIECE_COUNTS.filter((n) => cents % n === 0 && cents / n >= 100);
  return { split_options: counts, split_amounts: counts.map((n) => money(amount / n)) };
}

export function tokenView(t: BonusToken) {
  const split = t.status === 'AVAILABLE' ? splitOptions(t.amount) : { split_options: [], split_amounts: [] };
  return { id: t.id, amount: t.amount, status: t.status, ...split, expiry: t.expiry, description: t.description };
}

export function listBonusBets(book: BookAccount) {
  const tokens = book.bonusTokens.filter((t) => t.status !== 'SPLIT');
  return {
    success: true,
    bonus_bets: tokens.map(tokenView),
    total_bonus: money(tokens.filter((t) => t.status === 'AVAILABLE').reduce((s, t) => s + t.amount, 0)),
    count: tokens.length,
  };
}

export type SplitOutcome =
  | {
      success: true;
      message: string;
      original_amount: number;
      new_amount_per_bet: number;
      num_splits: number;
      token_id: string;
    }
  | { success: false; message: string };

/**
 * Picks the smallest available token worth more than `maxAmount` that splits into pieces not above it,
 * using the fewest pieces that do; the token is replaced by that many AVAILABLE tokens.
 */
export function splitBonusBet(book: BookAccount, maxAmount: number): SplitOutcome {
  const candidates = book.bonusTokens
    .filter((t) => t.status === 'AVAILABLE' && t.amount > maxAmount)
    .sort((a, b) => a.amount - b.amount);
  for (const token of candidates) {
    const { split_options, split_amounts } = splitOptions(token.amount);
    const i = split_amounts.findIndex((piece) => piece <= maxAmount);
    if (i < 0) continue;
    const count = split_options[i]!;
    const piece = split_amounts[i]!;
    token.status = 'SPLIT';
    for (let k = 1; k <= count; k++) {
      book.bonusTokens.push({
        id: `${token.id}-s${k}`,
        amount: piece,
        status: 'AVAILABLE',
        expiry: token.expiry,
        description: `$${piece} bonus bet (split from ${token.id})`,
      });
    }
    return {
      success: true,
      message: `Split $${token.amount} token into ${count} bonus bets of $${piece}`,
      original_amount: token.amount,
      new_amount_per_bet: piece,
      num_splits: count,
      token_id: token.id,
    };
  }
  const available = book.bonusTokens.filter((t) => t.status === 'AVAILABLE').map((t) => `$${t.amount}`);
  return {
    success: false,
    message:
      available.length === 0
        ? 'No available bonus token to split'
        : `No available bonus token can be split into pieces of at most $${maxAmount} (available: ${available.join(', ')}); raise max_amount`,
  };
}

/**
 * Spends a bonus token on a bet of `stake`: the token of exactly that value, else the largest one not above it.
 * Marks it USED and returns it; undefined when none fits (the bet must then fail).
 */
export function takeBonusToken(book: BookAccount, stake: number): BonusToken | undefined {
  const fits = book.bonusTokens
    .filter((t) => t.status === 'AVAILABLE' && t.amount <= stake)
    .sort((a, b) => b.amount - a.amount);
  const token = fits.find((t) => t.amount === stake) ?? fits[0];
  if (token) token.status = 'USED';
  return token;
}
