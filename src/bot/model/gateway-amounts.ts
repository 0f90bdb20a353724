/**
 * The gateway's dollars read into cents at the edge (issue 44, decision 2015): a balance's parts and a transaction's
 * stake and P&L, each read once here and then carried as integer cents. The gateway sends JSON numbers (12.5), a
 * field it leaves out or sends as null is no money, and anything else a number cannot be read from is zero.
 */
import { centsFromDollars } from './money.js';

/** A gateway amount in dollars (a number, or the string a loose record may hold) in whole cents; absent is 0. */
export const gatewayCents = (dollars: number | string | null | undefined): number => {
  const n = Number(dollars ?? 0);
  return Number.isFinite(n) ? centsFromDollars(n) : 0;
};

/** A balance record's parts in cents; withdrawable defaults to the cash part when the book does not say. */
export function balanceCents(b: {
  balance: number | string;
  bonus_balance?: number | string | null;
  withdrawable_balance?: number | string | null;
}): { balanceCents: number; bonusCents: number; cashCents: number; withdrawableCents: number } {
  const balance = gatewayCents(b.balance);
  const bonus = gatewayCents(b.bonus_balance);
  const cash = balance - bonus;
  return {
    balanceCents: balance,
    bonusCents: bonus,
    cashCents: cash,
    withdrawableCents:
      b.withdrawable_balance === undefined || b.withdrawable_balance === null
        ? cash
        : gatewayCents(b.withdrawable_balance),
  };
}
