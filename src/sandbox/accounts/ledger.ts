// The money: bets placed (by the betting routes), their settlement, deposits and withdrawals,
// and the transaction history read back by /v3/transactions.
import { randomBytes } from 'node:crypto';
import type { SandboxClock } from '../core/clock.js';
import { centsOf, dollarsText, money } from '../core/money.js';
import type { Accounts } from './accounts.js';
import { settle } from './settlement.js';
import type { BookAccount, LedgerBet, PromoPayout, SettleStatus, Transaction } from './types.js';

/** A bonus token a promo pays stays usable this long. */
const PROMO_TOKEN_DAYS = 14;

export interface Entry {
  account_id: string;
  txn: Transaction;
  bet?: LedgerBet;
}

export interface WithdrawalResult {
  success: boolean;
  message: string;
  withdrawal_id?: string;
  status: 'pending' | 'completed' | 'failed';
  bookie: string;
}

/** How the bookmaker answers the next withdrawals: at once, held pending (resolved by a control call), or refused. */
export type WithdrawalMode = 'completed' | 'pending' | 'failed';

export class Ledger {
  private entries: Entry[] = [];
  /** Set by POST /_sandbox/withdrawals/mode; back to completed on reset. */
  withdrawalMode: WithdrawalMode = 'completed';
  private byBet = new Map<string, Entry>();
  private seq = 0;
  /** Distinguishes this run's ids from a previous run's (a client's store outlives a sandbox restart). */
  private readonly runId = randomBytes(3).toString('hex');

  constructor(
    private readonly accounts: Accounts,
    private readonly clock: SandboxClock,
  ) {
    this.seedHistory();
  }

  reset(): void {
    this.withdrawalMode = 'completed';
    this.entries = [];
    this.byBet.clear();
    this.seq = 0;
    this.seedHistory();
  }

  /** The ledger as plain data (snapshot). */
  dump(): { entries: Entry[]; seq: number } {
    return structuredClone({ entries: this.entries, seq: this.seq });
  }

  /** Puts back a dump; the id sequence never goes back, so no id is issued twice in one run. */
  load(d: { entries: Entry[]; seq: number }): void {
    this.entries = structuredClone(d.entries);
    this.byBet = new Map(this.entries.filter((e) => e.bet).map((e) => [e.bet!.bet_id, e]));
    this.seq = Math.max(this.seq, d.seq);
  }

  /** Records a placed bet: debits the cash stake (bonus bets spend a token instead) and adds a pending transaction. */
  recordBet(bet: LedgerBet): void {
    if (this.byBet.has(bet.bet_id)) throw new Error(`bet ${bet.bet_id} is already recorded`);
    const book = this.accounts.bookAccount(bet.account_id);
    if (!bet.is_bonus_bet) book.cash = money(book.cash - bet.stake);
    const entry: Entry = {
      account_id: bet.account_id,
      bet,
      txn: {
        id: bet.bet_id,
        type: 'bet',
        status: 'pending',
        stake: bet.stake,
        odds: null,
        pnl: 0,
        is_bonus_bet: bet.is_bonus_bet,
        placed_at: bet.placed_at,
        settled_at: null,
        selections: bet.selections.map((s) => ({ ...s })),
        ...(bet.promo_name ? { bet_type: bet.bet_type ?? 'non_promo', promo_name: bet.promo_name } : {}),
      },
    };
    this.entries.push(entry);
    this.byBet.set(bet.bet_id, entry);
  }

  /**
   * Settles a pending bet: pnl, credit to the account, selection results, and what its promo pays (`finish`: the
   * finishing place of a racing single's runner). Returns false when the bet is unknown or already settled
   * (settling twice never pays twice).
   */
  settleBet(
    bet_id: string,
    status: SettleStatus,
    settled_at: Date,
    opts: { payout?: number; finish?: number } = {},
  ): boolean {
    const entry = this.byBet.get(bet_id);
    if (!entry?.bet || entry.txn.status !== 'pending') return false;
    const { bet, txn } = entry;
    const book = this.accounts.bookAccount(bet.account_id);
    const terms = bet.promo_terms;
    const refunded =
      status === 'lost' && opts.finish !== undefined && terms?.refund_places?.includes(opts.finish) === true;
    if (refunded) {
      // Stake back, up to the promo's cap, in the form it was paid: cash for cash, a bonus token for a token.
      const amount = money(Math.min(bet.stake, terms.max_reward));
      const token = bet.is_bonus_bet
        ? addPromoToken(book, `${bet_id}-refund`, amount, settled_at, `Stake back on bet ${bet_id}`)
        : null;
      if (!token) book.cash = money(book.cash + amount);
      txn.status = amount === bet.stake ? 'void' : 'lost';
      txn.pnl = bet.is_bonus_bet ? 0 : money(amount - bet.stake);
      txn.promo_payout = { kind: 'refund', amount, bonus_token_id: token?.id ?? null };
    } else {
      const result = settle(bet.stake, bet.odds, bet.is_bonus_bet, status, opts.payout);
      book.cash = money(book.cash + result.credit);
      txn.status = status;
      txn.pnl = result.pnl;
      const share = status === 'won' ? terms?.bonus_share : undefined;
      if (terms && share) txn.promo_payout = bonusShare(book, bet_id, share, terms.max_reward, result.pnl, settled_at);
    }
    txn.odds = bet.odds;
    txn.settled_at = settled_at.toISOString();
    const selResult = status === 'won' ? 'won' : status === 'lost' ? 'lost' : 'pending';
    txn.selections = txn.selections.map((s) => ({ ...s, result: selResult }));
    return true;
  }

  openBets(): LedgerBet[] {
    return this.entries.filter((e) => e.bet && e.txn.status === 'pending').map((e) => e.bet!);
  }

  /** Every bet with its current transaction (state route). */
  bets(): { bet: LedgerBet; status: Transaction['status']; pnl: number; settled_at: string | null }[] {
    return this.entries
      .filter((e) => e.bet)
      .map((e) => ({ bet: e.bet!, status: e.txn.status, pnl: e.txn.pnl, settled_at: e.txn.settled_at }));
  }

  bet(bet_id: string): LedgerBet | undefined {
    return this.byBet.get(bet_id)?.bet;
  }

  /** Cash available for stakes and withdrawals on a bookmaker account. */
  available(account_id: string): number {
    return this.accounts.bookAccount(account_id).cash;
  }

  /**
   * Withdraws cash: refused (status failed) above the withdrawable balance or when the mode says the bookmaker
   * refuses; else the cash leaves at once and the withdrawal is completed, or pending until resolveWithdrawal.
   */
  withdraw(account_id: string, amount: number): WithdrawalResult {
    const book = this.accounts.bookAccount(account_id);
    if (amount > book.cash || this.withdrawalMode === 'failed') {
      return {
        success: false,
        message:
          amount > book.cash
            ? `Insufficient withdrawable balance: requested ${dollarsText(amount)}, withdrawable ${dollarsText(book.cash)}`
            : 'The bookmaker declined the withdrawal',
        status: 'failed',
        bookie: book.bookie,
      };
    }
    book.cash = money(book.cash - amount);
    const pending = this.withdrawalMode === 'pending';
    const id = this.addMoneyMovement(
      account_id,
      'withdrawal',
      amount,
      this.clock.now(),
      pending ? 'pending' : 'completed',
    );
    return {
      success: true,
      message: `Withdrawal of ${dollarsText(amount)} ${pending ? 'pending at the bookmaker' : 'accepted'}`,
      withdrawal_id: id,
      status: pending ? 'pending' : 'completed',
      bookie: book.bookie,
    };
  }

  /** A pending withdrawal completes, or fails and its cash goes back to the account. False when none is pending. */
  resolveWithdrawal(withdrawal_id: string, status: 'completed' | 'failed'): boolean {
    const entry = this.entries.find((e) => e.txn.id === withdrawal_id && e.txn.type === 'withdrawal');
    if (entry?.txn.withdrawal_status !== 'pending') return false;
    if (status === 'failed') {
      const book = this.accounts.bookAccount(entry.account_id);
      book.cash = money(book.cash + entry.txn.stake);
      entry.txn.status = 'void';
      entry.txn.pnl = 0;
    } else entry.txn.status = 'cashed_out';
    entry.txn.withdrawal_status = status;
    entry.txn.settled_at = this.clock.now().toISOString();
    return true;
  }

  /** The ids of the withdrawals still pending at the bookmaker, oldest first. */
  pendingWithdrawals(): string[] {
    return this.entries
      .filter((e) => e.txn.type === 'withdrawal' && e.txn.withdrawal_status === 'pending')
      .map((e) => e.txn.id);
  }

  /** A deposit into a bookmaker account (a member's money arriving): credits cash, lists a `deposit` transaction. */
  deposit(account_id: string, amount: number): string {
    const book = this.accounts.bookAccount(account_id);
    book.cash = money(book.cash + amount);
    return this.addMoneyMovement(account_id, 'deposit', amount, this.clock.now());
  }

  /** Transactions of one bookmaker account placed within `daysBack` days, newest first. */
  transactions(account_id: string, daysBack: number, limit: number) {
    const since = this.clock.nowMs() - daysBack * 86_400_000;
    const matched = this.entries
      .filter((e) => e.account_id === account_id && Date.parse(e.txn.placed_at) >= since)
      .map((e) => ({ ...e.txn, selections: e.txn.selections.map((s) => ({ ...s })) }))
      .sort((a, b) => Date.parse(b.placed_at) - Date.parse(a.placed_at));
    return {
      success: true,
      transactions: matched.slice(0, limit),
      total_count: matched.length,
      has_more: matched.length > limit,
    };
  }

  private nextId(prefix: string): string {
    this.seq += 1;
    return `${prefix}-${this.runId}-${String(this.seq).padStart(6, '0')}`;
  }

  // Deposits and withdrawals: stake is the amount, pnl the signed amount, status 'won' (in) / 'cashed_out' (out);
  // a withdrawal also carries the bookmaker's own state, and is 'pending' (no settled_at) while the bookmaker holds it.
  private addMoneyMovement(
    account_id: string,
    type: 'deposit' | 'withdrawal',
    amount: number,
    at: Date,
    withdrawal: 'pending' | 'completed' = 'completed',
  ): string {
    const iso = at.toISOString();
    const held = type === 'withdrawal' && withdrawal === 'pending';
    const id = this.nextId(type === 'deposit' ? 'dep' : 'wd');
    this.entries.push({
      account_id,
      txn: {
        id,
        type,
        status: type === 'deposit' ? 'won' : held ? 'pending' : 'cashed_out',
        stake: amount,
        odds: null,
        pnl: type === 'deposit' ? amount : -amount,
        is_bonus_bet: false,
        placed_at: iso,
        settled_at: held ? null : iso,
        selections: [],
        ...(type === 'withdrawal' ? { withdrawal_status: withdrawal } : {}),
      },
    });
    return id;
  }

  // A little history so transactions have something to page through: an opening deposit 20 days ago and
  // two settled bets in the last week on every bookmaker account. Money already reflects them.
  private seedHistory(): void {
    const now = this.clock.nowMs();
    for (const book of this.accounts.bookAccounts()) {
      this.addMoneyMovement(book.account_id, 'deposit', 500, new Date(now - 20 * 86_400_000));
      const past = [
        { days: 3, odds: 2.4, stake: 20, status: 'won' as const, event: 'Flemington R4', sel: 'Northern Lad' },
        {
          days: 5,
          odds: 1.9,
          stake: 50,
          status: 'lost' as const,
          event: 'Sydney Swans v Carlton',
          sel: 'Sydney Swans',
        },
      ];
      for (const p of past) {
        const placed = new Date(now - p.days * 86_400_000);
        const settled = new Date(placed.getTime() + 3 * 3_600_000);
        const r = settle(p.stake, p.odds, false, p.status);
        this.entries.push({
          account_id: book.account_id,
          txn: {
            id: this.nextId('hist'),
            type: 'bet',
            status: p.status,
            stake: p.stake,
            odds: p.odds,
            pnl: r.pnl,
            is_bonus_bet: false,
            placed_at: placed.toISOString(),
            settled_at: settled.toISOString(),
            selections: [{ event: p.event, selection: p.sel, market: 'win', odds: p.odds, result: p.status }],
          },
        });
      }
    }
  }
}

/** Adds an AVAILABLE bonus token a promo paid (it counts in total_bonus and bonus_balance at once). */
function addPromoToken(book: BookAccount, id: string, amount: number, at: Date, description: string) {
  const token = {
    id,
    amount,
    status: 'AVAILABLE' as const,
    expiry: new Date(at.getTime() + PROMO_TOKEN_DAYS * 86_400_000).toISOString(),
    description,
  };
  book.bonusTokens.push(token);
  return token;
}

/** A winning bet's bonus boost: that share of the winnings, to the cent and up to the cap, as a bonus token. */
function bonusShare(
  book: BookAccount,
  betId: string,
  share: number,
  maxReward: number,
  winnings: number,
  at: Date,
): PromoPayout | undefined {
  const amount = Math.min(centsOf(maxReward), Math.round(centsOf(winnings) * share)) / 100;
  if (amount <= 0) return undefined;
  const pct = Math.round(share * 1000) / 10;
  const token = addPromoToken(book, `${betId}-boost`, amount, at, `${pct}% winnings boost on bet ${betId}`);
  return { kind: 'bonus_bet', amount, bonus_token_id: token.id };
}
