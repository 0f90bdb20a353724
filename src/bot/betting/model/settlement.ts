import type { Transaction } from '../../../gateway/index.js';
import { isSettledStatus, type SettledStatus } from '../../model/bet-states.js';
import { centsFromDollars } from '../../model/money.js';

/**
 * A book's settlement of one bet, read from the gateway's transaction where it arrives: its dollars become whole
 * cents here, once (decision 2015), and the bet record, its ledger entry and the notice all take these cents.
 */
export interface Settlement {
  betId: string;
  status: SettledStatus;
  stakeCents: number;
  /** The book's profit or loss (negative on a loss); null when the transaction did not say. */
  pnlCents: number | null;
  /** What came back to the account: the stake plus the P&L (nothing on a loss), never below zero. */
  returnedCents: number;
  odds: number | null;
  /** A promo paid the stake back (the transaction's `promo_payout.kind` is `refund`). */
  refunded: boolean;
  /** The book's own words for the first selection, for a notice that has none of its own. */
  selection: { event?: string; selection?: string; market?: string } | undefined;
}

/** The settlement a transaction reports, or undefined while its bet is open (any status not in SETTLED_STATUSES). */
export function settlementOf(tx: Transaction): Settlement | undefined {
  if (!isSettledStatus(tx.status)) return undefined;
  const stakeCents = centsFromDollars(tx.stake ?? 0);
  const pnlCents = tx.pnl === null || tx.pnl === undefined ? null : centsFromDollars(tx.pnl);
  const payout = (tx as { promo_payout?: { kind?: unknown } }).promo_payout;
  const sel = tx.selections?.[0];
  return {
    betId: tx.id,
    status: tx.status,
    stakeCents,
    pnlCents,
    returnedCents: tx.status === 'lost' ? 0 : Math.max(0, stakeCents + (pnlCents ?? 0)),
    odds: tx.odds ?? null,
    refunded: payout?.kind === 'refund',
    selection: sel ? { event: sel.event, selection: sel.selection, market: sel.market } : undefined,
  };
}
