import type { BalanceRecord, Transaction } from '../../gateway/index.js';
import { recordBalanceEvidence } from '../accounts/index.js';
import { Ledger, type LedgerEntry } from '../ledger/index.js';
import { isSettledStatus } from '../model/bet-states.js';
import { balanceCents, gatewayCents } from '../model/gateway-amounts.js';
import { formatMoney, formatSignedMoney } from '../model/money.js';
import type { BotStore } from '../store/index.js';

/**
 * A session's cash at the gateway against what the desk's records imply
 * (docs/decisions/1200-balance-implied-by-the-ledger.md): the cash of the previous check, less the cash stakes
 * of the bets the ledger placed, plus the returns of the bets the ledger settled, each counted when the
 * gateway's history says the money moved (between the two balance reads). Whatever else moved the cash is a
 * mismatch, and what the gateway's history lists of it is named.
 */
export interface BalanceCheck {
  sessionId: string;
  /** Cash at the gateway (balance less the bonus part), whole cents, as of `retrievedAt` (epoch ms). */
  cashCents: number;
  retrievedAt: number;
  previous: { cashCents: number; retrievedAt: number } | null;
  /** What the desk's records imply now, or null when not compared (see `notCompared`). */
  impliedCents: number | null;
  /** Why no comparison was made: the first check, money moved after the read, or the history read fell short. */
  notCompared?: 'first' | 'moved_after_read' | 'history_incomplete';
  /** Moves in the gateway's history the desk's records do not explain, each signed in cents. */
  listed: { id: string; cents: number; what: string }[];
}

/** The desk's bets, by the gateway's bet id: the stake it placed and, once settled, the profit or loss. */
export interface DeskBets {
  stakeCents: Map<string, number>;
  settledPnlCents: Map<string, number>;
}

const cents = gatewayCents;
const at = (iso: string | null | undefined) => Date.parse(String(iso ?? ''));

/** Signed money for a move: +$1.00, -$4.25. */
const signed = formatSignedMoney;

/** The cash a settled bet paid back: stake plus profit for a cash bet; only the winnings for a bonus bet. */
const credit = (stakeCents: number, pnlCents: number, bonus: boolean) =>
  bonus ? Math.max(0, pnlCents) : stakeCents + pnlCents;

/**
 * The desk's bets from the ledger's placement and settlement entries (every server's: a shared account's
 * balance moves with all of them).
 */
export function deskBets(entries: readonly LedgerEntry[]): DeskBets {
  const betByPlacement = new Map<string, string>();
  const out: DeskBets = { stakeCents: new Map(), settledPnlCents: new Map() };
  for (const e of entries) {
    if (e.kind === 'placement' && typeof e.data.betId === 'string') {
      betByPlacement.set(e.ref, e.data.betId);
      out.stakeCents.set(e.data.betId, e.amountCents ?? 0);
    }
    const betId = betByPlacement.get(e.ref);
    if (e.kind === 'settlement' && betId !== undefined) out.settledPnlCents.set(betId, e.amountCents ?? 0);
  }
  return out;
}

/** The session's last recorded balance check, the start of the next comparison. */
export async function previousCheck(
  store: BotStore,
  sessionId: string,
): Promise<{ cashCents: number; retrievedAt: number } | null> {
  const last: LedgerEntry | undefined = await new Ledger(store).latest('balance_check', sessionId);
  if (!last || last.amountCents === null || typeof last.data.retrievedAt !== 'number') return null;
  return { cashCents: last.amountCents, retrievedAt: last.data.retrievedAt };
}

/** Compares one session's balance (read before its transactions) with what the desk's records imply. */
export function compareBalance(input: {
  sessionId: string;
  balance: BalanceRecord;
  /** The session's transactions, read after the balance and reaching back to the previous check. */
  transactions: Transaction[];
  previous: { cashCents: number; retrievedAt: number } | null;
  desk: DeskBets;
  now: number;
}): BalanceCheck {
  const { balance, previous, desk } = input;
  const retrievedAt = Number.isFinite(at(balance.retrieved_at)) ? at(balance.retrieved_at) : input.now;
  const check: BalanceCheck = {
    sessionId: input.sessionId,
    cashCents: balanceCents(balance).cashCents,
    retrievedAt,
    previous,
    impliedCents: null,
    listed: [],
  };
  // A move after the balance was read may or may not be in it (the gateway caches the balance per
  // heartbeat): neither counting nor leaving it out would be honest, so this session waits for the next run.
  const moved = input.transactions.some((t) => at(t.placed_at) > retrievedAt || at(t.settled_at) > retrievedAt);
  if (moved) return { ...check, notCompared: 'moved_after_read' };
  if (!previous) return { ...check, notCompared: 'first' };
  const inWindow = (iso: string | null | undefined) => at(iso) > previous.retrievedAt && at(iso) <= retrievedAt;
  let implied = previous.cashCents;
  for (const t of input.transactions) {
    if (t.type !== 'bet') {
      // Deposits, withdrawals and anything else the account holder did: signed by the gateway's pnl.
      if (!inWindow(t.settled_at ?? t.placed_at)) continue;
      const c = Number.isFinite(Number(t.pnl)) ? cents(t.pnl) : (t.type === 'deposit' ? 1 : -1) * cents(t.stake);
      check.listed.push({ id: t.id, cents: c, what: `a ${t.type}` });
      continue;
    }
    const bonus = t.is_bonus_bet === true;
    const deskStake = desk.stakeCents.get(t.id);
    const gwStake = cents(t.stake);
    if (inWindow(t.placed_at)) {
      const gwMove = bonus ? 0 : -gwStake;
      if (deskStake === undefined) {
        if (gwMove !== 0) check.listed.push({ id: t.id, cents: gwMove, what: `bet ${t.id}, placed outside the desk` });
      } else {
        const deskMove = bonus ? 0 : -deskStake;
        implied += deskMove;
        if (gwMove !== deskMove) {
          check.listed.push({
            id: t.id,
            cents: gwMove - deskMove,
            what: `bet ${t.id}: stake ${formatMoney(gwStake)} at the gateway, ${formatMoney(deskStake)} in the ledger`,
          });
        }
      }
    }
    if (isSettledStatus(t.status) && inWindow(t.settled_at)) {
      const gwCredit = credit(gwStake, cents(t.pnl), bonus);
      const deskPnl = desk.settledPnlCents.get(t.id);
      if (deskStake === undefined) {
        if (gwCredit !== 0) {
          check.listed.push({
            id: t.id,
            cents: gwCredit,
            what: `the settlement of bet ${t.id}, placed outside the desk`,
          });
        }
      } else if (deskPnl === undefined) {
        if (gwCredit !== 0) {
          check.listed.push({ id: t.id, cents: gwCredit, what: `the settlement of bet ${t.id}, not in the ledger` });
        }
      } else {
        const deskCredit = credit(deskStake, deskPnl, bonus);
        implied += deskCredit;
        if (gwCredit !== deskCredit) {
          check.listed.push({
            id: t.id,
            cents: gwCredit - deskCredit,
            what: `bet ${t.id}: paid ${formatMoney(gwCredit)} at the book, ${formatMoney(deskCredit)} in the ledger`,
          });
        }
      }
    }
  }
  return { ...check, impliedCents: implied };
}

/**
 * The mismatch a check names, or undefined when the cash is what the desk's records imply, or what they imply
 * plus moves the gateway lists that the desk knows (`explained`: the fund's matched deposits and withdrawals).
 */
export function balanceMismatch(c: BalanceCheck, explained: ReadonlySet<string> = new Set()): string | undefined {
  if (c.impliedCents === null || !c.previous) return undefined;
  const gap = c.cashCents - c.impliedCents;
  const unknown = c.listed.filter((m) => !explained.has(m.id));
  if (gap === 0 && unknown.length === 0) return undefined;
  const listedSum = c.listed.reduce((a, m) => a + m.cents, 0);
  const unexplained = gap - listedSum;
  if (unexplained === 0 && unknown.length === 0) return undefined;
  const parts = [
    `cash ${formatMoney(c.cashCents)} at the gateway, ${formatMoney(c.impliedCents)} implied by the desk's records (${formatMoney(c.previous.cashCents)} at the last check, less stakes placed, plus returns settled since): ${signed(gap)} apart.`,
  ];
  if (c.listed.length) {
    parts.push(`The gateway lists ${c.listed.map((m) => `${m.what} (${signed(m.cents)})`).join('; ')}.`);
  }
  if (unexplained !== 0) parts.push(`Nothing the gateway lists explains ${signed(unexplained)}.`);
  return parts.join(' ');
}

/** Each comparable check becomes the next one's start: an append-only `balance_check` ledger entry. */
export async function recordBalanceChecks(
  store: BotStore,
  guildKey: string,
  checks: BalanceCheck[],
  now: number,
  actor: string | null = null,
): Promise<void> {
  const ledger = new Ledger(store);
  await recordBalanceEvidence(store, checks, now);
  for (const c of checks) {
    if (c.notCompared === 'moved_after_read' || c.notCompared === 'history_incomplete') continue;
    await ledger.append({
      at: now,
      guildKey,
      kind: 'balance_check',
      ref: c.sessionId,
      actor,
      amountCents: c.cashCents,
      data: {
        sessionId: c.sessionId,
        retrievedAt: c.retrievedAt,
        impliedCents: c.impliedCents,
        previousCents: c.previous?.cashCents ?? null,
        listed: c.listed,
      },
    });
  }
}
