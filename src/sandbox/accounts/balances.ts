// Balance records read from a bookmaker account.

import { money } from '../core/rng.js';
import type { BookAccount, Session } from './types.js';

/** The cache is refreshed on each session heartbeat: every 30 s of sandbox time. */
export const HEARTBEAT_MS = 30_000;

export function bonusBalance(book: BookAccount): number {
  return money(book.bonusTokens.filter((t) => t.status === 'AVAILABLE').reduce((sum, t) => sum + t.amount, 0));
}

export function balanceRecord(session: Session, book: BookAccount, nowMs: number) {
  const bonus = bonusBalance(book);
  return {
    session_id: session.session_id,
    bookie: session.bookie,
    username: session.username,
    balance: money(book.cash + bonus),
    bonus_balance: bonus,
    withdrawable_balance: book.cash,
    retrieved_at: new Date(Math.floor(nowMs / HEARTBEAT_MS) * HEARTBEAT_MS).toISOString(),
  };
}
