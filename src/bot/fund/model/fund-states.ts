/**
 * The fund's records as state machines, as data (the way `bet-states.ts` keeps a bet's life): every move of a
 * contribution, a cash-out and a withdrawal attempt by the name its callers use, each naming the states it may
 * leave, the state it enters and the ledger kind it writes in the same transaction (docs/fund.md, decision 1805).
 * Pure: the repository applies a row of these tables; nothing else writes a fund record's state.
 */

export type ContributionState = 'pending' | 'issued' | 'cancelled';

/**
 * A cash-out's life: awaiting_approval (above the tier) → pending (dealt at the next eligible strike) →
 * redeemed (units cancelled, cents owed) → withdrawing (a withdraw_balance attempt open) → withdrawn (cash left
 * the account) → paid (the treasurer paid the member). rejected ends one awaiting approval; cancelled ends one
 * not yet dealt.
 */
export type CashoutState =
  | 'awaiting_approval'
  | 'pending'
  | 'redeemed'
  | 'withdrawing'
  | 'withdrawn'
  | 'paid'
  | 'rejected'
  | 'cancelled';

/**
 * A withdraw_balance attempt: sending (written, call not answered) → submitted (202 with its correlation id) →
 * completed / failed by the job's result (its withdrawal_id recorded). unknown: the answer or the job was lost;
 * the evidence decides. unresolved: the evidence cannot tie a withdrawal to it; a treasurer settles it by hand.
 */
export type WithdrawalState = 'sending' | 'submitted' | 'unknown' | 'unresolved' | 'completed' | 'failed' | 'not_sent';

export type FundEntryKind =
  | 'fund_contribution'
  | 'fund_issue'
  | 'fund_redemption'
  | 'fund_withdrawal'
  | 'fund_paid'
  | 'fund_cancel'
  | 'fund_decision';

export interface Transition<S extends string> {
  from: readonly S[];
  to: S;
  ledger: FundEntryKind;
}

/** Every move of a contribution. */
export const CONTRIBUTION_MOVES = {
  record: { from: [], to: 'pending', ledger: 'fund_contribution' },
  /** Units issued at a strike, once its deposit is matched. */
  issue: { from: ['pending'], to: 'issued', ledger: 'fund_issue' },
  /** The treasurer cancels a contribution not yet dealt (a mistyped amount, a deposit that never came). */
  cancel: { from: ['pending'], to: 'cancelled', ledger: 'fund_cancel' },
} as const satisfies Record<string, Transition<ContributionState>>;

/** Every move of a cash-out. */
export const CASHOUT_MOVES = {
  askBelowTier: { from: [], to: 'pending', ledger: 'fund_decision' },
  askAboveTier: { from: [], to: 'awaiting_approval', ledger: 'fund_decision' },
  approve: { from: ['awaiting_approval'], to: 'pending', ledger: 'fund_decision' },
  reject: { from: ['awaiting_approval'], to: 'rejected', ledger: 'fund_decision' },
  cancel: { from: ['awaiting_approval', 'pending'], to: 'cancelled', ledger: 'fund_cancel' },
  /** Units cancelled at a strike; a crystallised fee enters here directly. */
  redeem: { from: ['pending'], to: 'redeemed', ledger: 'fund_redemption' },
  /** A withdrawal attempt is written for it (one at a time). */
  startWithdrawal: { from: ['redeemed'], to: 'withdrawing', ledger: 'fund_withdrawal' },
  /** An attempt completed and the parts add up to what is owed. */
  withdrawnWhole: { from: ['withdrawing'], to: 'withdrawn', ledger: 'fund_withdrawal' },
  /** An attempt completed a part, or failed / was not sent: the next part or attempt may start. */
  backToRedeemed: { from: ['withdrawing'], to: 'redeemed', ledger: 'fund_withdrawal' },
  markPaid: { from: ['withdrawn'], to: 'paid', ledger: 'fund_paid' },
} as const satisfies Record<string, Transition<CashoutState>>;

/** Every move of a withdrawal attempt. */
export const WITHDRAWAL_MOVES = {
  begin: { from: [], to: 'sending', ledger: 'fund_withdrawal' },
  /**
   * The 202 is stored with its correlation id; or the job's own result (a webhook tagged with the attempt) names it
   * after the 202 was lost, even once the attempt waits unresolved: its own evidence supersedes the guess.
   */
  markSubmitted: { from: ['sending', 'unknown', 'unresolved'], to: 'submitted', ledger: 'fund_withdrawal' },
  /** The bookmaker holds it pending: the job answered with its withdrawal_id; followed by that id. */
  markHeld: { from: ['submitted'], to: 'submitted', ledger: 'fund_withdrawal' },
  /** Refused before anything could be sent (a 4xx, a refused connection). */
  markNotSent: { from: ['sending'], to: 'not_sent', ledger: 'fund_withdrawal' },
  /** The request may have reached the gateway (a 5xx, a timeout), or its job ended timeout/unknown. */
  markUnknown: { from: ['sending', 'submitted'], to: 'unknown', ledger: 'fund_withdrawal' },
  /** Its own job, or its own withdrawal_id in the account's history, says the cash left. */
  markCompleted: { from: ['submitted', 'unknown'], to: 'completed', ledger: 'fund_withdrawal' },
  /** Its own job, or its own withdrawal_id, says the bookmaker refused or returned it. */
  markFailed: { from: ['submitted', 'unknown'], to: 'failed', ledger: 'fund_withdrawal' },
  /** The safe window passed and the account's history shows no withdrawal the desk cannot name. */
  markNeverSent: { from: ['sending', 'unknown'], to: 'not_sent', ledger: 'fund_withdrawal' },
  /** The safe window passed and the history shows a withdrawal no attempt owns: only a person can say whose. */
  markUnresolved: { from: ['sending', 'unknown'], to: 'unresolved', ledger: 'fund_withdrawal' },
  /** A treasurer names the withdrawal that was this attempt's (ledgered with who and why). */
  settleAsWithdrawn: { from: ['unresolved'], to: 'completed', ledger: 'fund_withdrawal' },
  /** A treasurer says it was never made. */
  settleAsNotSent: { from: ['unresolved'], to: 'not_sent', ledger: 'fund_withdrawal' },
} as const satisfies Record<string, Transition<WithdrawalState>>;

export type ContributionMove = Exclude<keyof typeof CONTRIBUTION_MOVES, 'record'>;
export type CashoutMove = keyof typeof CASHOUT_MOVES;
export type WithdrawalMove = Exclude<keyof typeof WITHDRAWAL_MOVES, 'begin'>;

/** Attempts whose cash may or may not have left: a strike waits for them. */
export const WITHDRAWAL_IN_FLIGHT: readonly WithdrawalState[] = ['sending', 'submitted', 'unknown'];
/** Attempts the beat follows up. */
export const WITHDRAWAL_FOLLOWED: readonly WithdrawalState[] = ['sending', 'submitted', 'unknown'];
/** Cash-out states whose cents are owed to the member (struck, not yet paid). */
export const CASHOUT_OWED: readonly CashoutState[] = ['redeemed', 'withdrawing', 'withdrawn'];
/** Cash-out states not yet dealt (cancellable). */
export const CASHOUT_UNDEALT: readonly CashoutState[] = ['awaiting_approval', 'pending'];

/** Whether a table allows `from` → `to` (the unit test checks every write against this). */
export function allowed<S extends string>(
  table: Record<string, Transition<S>>,
  from: S | null,
  to: S,
): Transition<S> | undefined {
  return Object.values(table).find((t) => t.to === to && (from === null ? t.from.length === 0 : t.from.includes(from)));
}

/** `('a', 'b')` for an SQL IN list of states: the fund's name for the shared `sqlStates`. */
export { sqlStates as sqlList } from '../../model/state-sets.js';

/**
 * The named sets every read of a fund record's state asks by (issue 44): a state is named here, from the tables
 * above, and nowhere else as a literal (test/unit/bot/fund/fund-states.test.ts scans the wing).
 */
export const STATES = {
  /** Contributions waiting to be issued at a strike (their deposit matched or not). */
  contributionWaiting: CONTRIBUTION_MOVES.issue.from,
  contributionIssued: [CONTRIBUTION_MOVES.issue.to],
  cashoutAwaitingApproval: CASHOUT_MOVES.approve.from,
  /** Struck and waiting for its withdrawal. */
  cashoutRedeemed: [CASHOUT_MOVES.redeem.to],
  cashoutWithdrawn: [CASHOUT_MOVES.withdrawnWhole.to],
  cashoutPaid: [CASHOUT_MOVES.markPaid.to],
  cashoutCancelled: [CASHOUT_MOVES.cancel.to],
  cashoutRejected: [CASHOUT_MOVES.reject.to],
  /** Nothing more happens to it: paid, rejected or cancelled. */
  cashoutClosed: [CASHOUT_MOVES.markPaid.to, CASHOUT_MOVES.reject.to, CASHOUT_MOVES.cancel.to],
  /** Not yet dealt by a strike (cancellable). */
  cashoutUndealt: CASHOUT_UNDEALT,
  withdrawalSubmitted: [WITHDRAWAL_MOVES.markSubmitted.to],
  withdrawalCompleted: [WITHDRAWAL_MOVES.markCompleted.to],
  withdrawalUnresolved: [WITHDRAWAL_MOVES.markUnresolved.to],
  /** Sent and waiting for the book's withdrawal id. */
  withdrawalAwaitingId: WITHDRAWAL_MOVES.markCompleted.from,
} as const satisfies Record<string, readonly string[]>;

/** A record's state is one of a named set: `isIn(STATES.cashoutPaid)(c)`, the fund's name for `inStates`. */
export { inStates as isIn } from '../../model/state-sets.js';
