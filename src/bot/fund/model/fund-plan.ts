/**
 * The fund's decisions as pure functions of what was read (docs/fund.md, decisions 1802–1804): which cash a
 * strike may value and whether its cash bridge holds (planStrike), and where a cash-out's next withdrawal comes
 * from (planWithdrawal). No store, no gateway: the service reads, these decide, the repository writes.
 */

import { clockTime, discordTime } from '../../model/dates.js';
import { formatCentsDecimal, formatMoney } from '../../model/money.js';

const dollars = formatMoney;

/** One transaction of an account's history, as the bridge needs it (cents; epoch ms). */
export interface BridgeTxn {
  id: string;
  type: 'bet' | 'deposit' | 'withdrawal' | string;
  status: string;
  cents: number;
  placedAt: number;
  settledAt: number | null;
  /** Withdrawals: the bookmaker's own state. */
  withdrawalStatus?: 'pending' | 'completed' | 'failed';
}

/** One account of the fund as read for a strike. */
export interface AccountRead {
  /** `bookie/username`. */
  account: string;
  /** The session its balance and history were read through (a live one). */
  sessionId: string | null;
  /** Every session of the account (twins), for the desk's own moves. */
  sessionIds: readonly string[];
  /** Undefined: no live session of it answered. */
  balance?: { balanceCents: number; bonusCents: number; retrievedAt: number | null };
  floatCents: number;
  /** The gateway's instant its cash was taken at as it joined: moves after it are the bridge's to name. */
  bridgeFrom: number;
  /** Its history since it joined; undefined: it could not be read whole. */
  history?: readonly BridgeTxn[];
  /** When the desk last moved money on any of its sessions (a bet record's or an attempt's move). */
  lastDeskMove?: number;
}

/** What the desk can name (ids of the book's transactions). */
export interface Named {
  /** The book's bet ids of this server's bet records, with whether the desk still reads them as placed. */
  bets: ReadonlyMap<string, { open: boolean }>;
  /** Deposits matched to this fund's contributions. */
  deposits: ReadonlySet<string>;
  /** Withdrawals this fund's attempts own (by the gateway's withdrawal_id). */
  withdrawals: ReadonlySet<string>;
  /** Transactions a treasurer accepted as the fund's with a reason (/fund explain). */
  explained: ReadonlySet<string>;
}

export interface StrikeSnapshot {
  accounts: readonly AccountRead[];
  named: Named;
}

export type StrikePlan =
  | {
      ok: true;
      /** One row per account, the float kept out of cash. */
      sessions: Array<{
        sessionId: string;
        account: string;
        balanceCents: number;
        bonusCents: number;
        floatCents: number;
        retrievedAt: string | null;
      }>;
      /** Bets the book has settled and the desk still reads as open: their return is in the cash already. */
      settledUnread: string[];
      /** Per account: the moves named since it joined (for the strike's record). */
      bridge: Array<{ account: string; bets: number; deposits: number; withdrawals: number; explained: number }>;
    }
  | { ok: false; reason: string };

const when = (t: BridgeTxn) => t.settledAt ?? t.placedAt;

/** Whether a transaction moved cash (a failed withdrawal gave it back; a pending bet's stake left at placement). */
const movedCash = (t: BridgeTxn) =>
  !(t.type === 'withdrawal' && (t.withdrawalStatus === 'failed' || t.status === 'void'));

/**
 * The strike's decisions: each account valued once through one live session, its float kept out; its history
 * since it joined bridged (every transaction named: this server's bets, deposits matched to contributions, the
 * fund's own withdrawals, what a treasurer accepted); a balance older than a move it should hold is refused.
 */
export function planStrike(s: StrikeSnapshot): StrikePlan {
  const sessions: Extract<StrikePlan, { ok: true }>['sessions'] = [];
  const settledUnread: string[] = [];
  const bridge: Extract<StrikePlan, { ok: true }>['bridge'] = [];
  for (const a of s.accounts) {
    if (!a.balance || !a.sessionId) {
      return { ok: false, reason: `the balance of ${a.account} could not be read (no live session of it answered)` };
    }
    if (!a.history) {
      return {
        ok: false,
        reason: `the history of ${a.account} could not be read whole, so its cash cannot be bridged`,
      };
    }
    const readAt = a.balance.retrievedAt;
    const mine = a.history.filter((t) => when(t) > a.bridgeFrom);
    const newest = Math.max(a.lastDeskMove ?? 0, ...mine.map(when));
    if (readAt !== null && newest > readAt) {
      return {
        ok: false,
        // To the second (<t:…:T>): both are often in the same minute, and "at Today at 18:28" is no English.
        reason: `the balance of ${a.account} was refreshed at ${clockTime(readAt)}, before a move on it at ${clockTime(newest)}; the next heartbeat brings it up to date`,
      };
    }
    const row = { account: a.account, bets: 0, deposits: 0, withdrawals: 0, explained: 0 };
    for (const t of mine) {
      if (!movedCash(t)) continue;
      if (s.named.explained.has(t.id)) {
        row.explained++;
        continue;
      }
      if (t.type === 'bet') {
        const bet = s.named.bets.get(t.id);
        if (!bet) return { ok: false, reason: unexplained(a, t, 'a bet this server did not place') };
        row.bets++;
        if (bet.open && t.settledAt !== null && t.status !== 'pending') settledUnread.push(t.id);
      } else if (t.type === 'deposit') {
        if (!s.named.deposits.has(t.id)) {
          return { ok: false, reason: unexplained(a, t, 'a deposit no contribution accounts for') };
        }
        row.deposits++;
      } else if (t.type === 'withdrawal') {
        if (!s.named.withdrawals.has(t.id)) {
          return { ok: false, reason: unexplained(a, t, "a withdrawal the fund's cash-outs did not make") };
        }
        row.withdrawals++;
      } else {
        return { ok: false, reason: unexplained(a, t, `a ${t.type} the desk cannot name`) };
      }
    }
    bridge.push(row);
    sessions.push({
      sessionId: a.sessionId,
      account: a.account,
      balanceCents: a.balance.balanceCents,
      bonusCents: a.balance.bonusCents,
      floatCents: a.floatCents,
      retrievedAt: readAt === null ? null : new Date(readAt).toISOString(),
    });
  }
  return { ok: true, sessions, settledUnread, bridge };
}

function unexplained(a: AccountRead, t: BridgeTxn, what: string): string {
  const todo =
    t.type === 'deposit'
      ? `record whose money it is with /fund contribute (amount:${formatCentsDecimal(t.cents)} session:${a.sessionId}), or accept it as the fund's with /fund explain transaction:${t.id} reason:…`
      : t.type === 'withdrawal'
        ? `if a cash-out's attempt made it, settle that attempt with /fund withdrawal; otherwise accept the loss with /fund explain transaction:${t.id} reason:…`
        : `bet the fund's accounts through this server only; once you know whose it is, accept it with /fund explain transaction:${t.id} reason:…`;
  return `unexplained money on ${a.account}: ${what} (${t.type} ${t.id}, ${dollars(t.cents)}, ${discordTime(t.placedAt)}); ${todo}`;
}

/** An account a withdrawal may come from: what it holds for the fund now (withdrawable, less its float). */
export interface WithdrawSource {
  account: string;
  sessionId: string;
  cents: number;
}

export type WithdrawalPlan = { from: WithdrawSource; cents: number } | { wait: string } | { nothing: true };

/**
 * Where the next part of a cash-out comes from (decision 1706): the whole from the account holding most when it
 * holds it all; else the largest part it can give, but only when the accounts together hold what is owed (no
 * account is drained for a payment that cannot finish).
 */
export function planWithdrawal(owedCents: number, sources: readonly WithdrawSource[]): WithdrawalPlan {
  if (owedCents <= 0) return { nothing: true };
  const usable = sources
    .filter((s) => s.cents > 0)
    .sort((a, b) => b.cents - a.cents || (a.account < b.account ? -1 : 1));
  const total = usable.reduce((a, s) => a + s.cents, 0);
  const best = usable[0];
  if (!best || total < owedCents) {
    return {
      wait: `waits: the fund's accounts hold ${dollars(total)} withdrawable, short of ${dollars(owedCents)} (bets still open hold the rest)`,
    };
  }
  return { from: best, cents: Math.min(owedCents, best.cents) };
}
