// Balance records read from a bookmaker account, through each session's balance cache: seeded at a start or
// restart, refreshed on each heartbeat of the session's running client, held as it was while the session is
// stopped (decision 1820).

import { money } from '../core/money.js';
import type { BookAccount, HeldBalance, Session } from './types.js';

/** The cache is refreshed on each session heartbeat: every 30 s of sandbox time. */
export const HEARTBEAT_MS = 30_000;

export function bonusBalance(book: BookAccount): number {
  return money(book.bonusTokens.filter((t) => t.status === 'AVAILABLE').reduce((sum, t) => sum + t.amount, 0));
}

/** The book's money now, stamped `retrievedAtMs`. */
function readBook(book: BookAccount, retrievedAtMs: number): HeldBalance {
  const bonus = bonusBalance(book);
  return {
    balance: money(book.cash + bonus),
    bonus_balance: bonus,
    withdrawable_balance: book.cash,
    retrieved_at: new Date(retrievedAtMs).toISOString(),
  };
}

/** The last refresh of a running session at `nowMs`: its last heartbeat, or its start when none has beaten since. */
function lastRefreshMs(session: Session, nowMs: number): number {
  const beat = Math.floor(nowMs / HEARTBEAT_MS) * HEARTBEAT_MS;
  return Math.max(beat, session.balanceSeededAtMs ?? Number.NEGATIVE_INFINITY);
}

export function balanceRecord(session: Session, book: BookAccount, nowMs: number) {
  const cached = session.balanceHeld ?? readBook(book, lastRefreshMs(session, nowMs));
  return {
    session_id: session.session_id,
    bookie: session.bookie,
    username: session.username,
    ...cached,
  };
}

/**
 * A start or restart seeds the cache at `nowMs`. With its client offline the session has no heartbeat yet, so
 * the seeded record is held until the client runs the launch (`releaseBalance`).
 */
export function seedBalance(session: Session, book: BookAccount, nowMs: number): void {
  session.balanceSeededAtMs = nowMs;
  if (session.clientOnline) delete session.balanceHeld;
  else session.balanceHeld = readBook(book, nowMs);
}

/** The client runs the session: heartbeats refresh the cache again. */
export function releaseBalance(session: Session): void {
  delete session.balanceHeld;
}

/** A stop: the cache keeps what the last heartbeat (or the start) left in it until the session runs again. */
export function holdBalance(session: Session, book: BookAccount, nowMs: number): void {
  if (session.balanceHeld) return;
  session.balanceHeld = readBook(book, lastRefreshMs(session, nowMs));
}
