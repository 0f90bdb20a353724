// Pure money maths of settling a bet.
import { centsOf, money } from '../core/money.js';
import type { SettleStatus } from './types.js';

export interface Settlement {
  /** Profit and loss as the transaction reports it. */
  pnl: number;
  /** Cash paid back into the account. */
  credit: number;
}

/**
 * Cash bet: won pays stake × odds (pnl = winnings), lost pnl = −stake, void refunds the stake.
 * Bonus bet: the stake was a token, so won pays only the winnings and lost/void is pnl 0 with nothing back.
 * Cashed out pays `payout` (default: the stake back).
 */
export function settle(
  stake: number,
  odds: number,
  isBonus: boolean,
  status: SettleStatus,
  payout?: number,
): Settlement {
  // One rounding, in cents: the return is rounded once and the winnings are that return less the stake, so a
  // cash bet's credit is always its stake plus its pnl to the cent.
  const stakeCents = centsOf(stake);
  const returnCents = Math.round(stakeCents * odds);
  const winnings = (returnCents - stakeCents) / 100;
  switch (status) {
    case 'won':
      return { pnl: winnings, credit: isBonus ? winnings : returnCents / 100 };
    case 'lost':
      return { pnl: isBonus ? 0 : -stake, credit: 0 };
    case 'void':
      return { pnl: 0, credit: isBonus ? 0 : stake };
    case 'cashed_out': {
      const paid = money(payout ?? (isBonus ? 0 : stake));
      return { pnl: money(isBonus ? paid : paid - stake), credit: paid };
    }
  }
}
