/**
 * The shapes of the fund's records as the repository reads them (docs/fund.md): pure data, so views and the
 * planners read them without the store.
 */
import type { CashoutAsk, Share } from './fund.js';
import type { CashoutState, ContributionState, WithdrawalState } from './fund-states.js';
import type { TipsterShareLine } from './tipster-share.js';

/** A bookmaker account the fund owns (bookie + username), with the float in it that is not the fund's. */
export interface FundAccount {
  guildKey: string;
  bookie: string;
  username: string;
  floatCents: number;
  addedBy: string;
  addedAt: number;
  /**
   * The gateway's instant the account's cash was taken at as it joined (the newest move then in its history, or its
   * balance's refresh): the cash bridge names every move after it. On the gateway's clock, not the desk's.
   */
  bridgeFrom: number;
}

/** How an account is named in every fund message: book and user name. */
export { accountName } from '../../model/slip-rules.js';

export interface Contribution {
  contributionId: string;
  memberId: string;
  amountCents: number;
  sessionId: string;
  reference: string | null;
  state: ContributionState;
  strikeId: string | null;
  units: number | null;
  depositId: string | null;
  note: string | null;
  createdAt: number;
}

export interface Cashout {
  cashoutId: string;
  memberId: string;
  ask: CashoutAsk;
  state: CashoutState;
  approvedBy: string | null;
  strikeId: string | null;
  units: number | null;
  cents: number | null;
  note: string | null;
  requestedAt: number;
}

export interface WithdrawalAttempt {
  attemptId: string;
  cashoutId: string;
  guildKey: string;
  sessionId: string;
  amountCents: number;
  state: WithdrawalState;
  correlationId: string | null;
  bookmakerStatus: string | null;
  gatewayWithdrawalId: string | null;
  createdAt: number;
  note: string | null;
}

export interface StrikeRecord {
  strikeId: string;
  guildKey: string;
  dealingKey: string;
  at: number;
  grossNavCents: number;
  feeCents: number;
  navCents: number;
  unitsBefore: number;
  price: number;
  navAfterCents: number;
  unitsAfter: number;
  residualCents: number;
  inputs: StrikeInputs;
  actor: string | null;
}

/** What a strike was computed from, each with its source and time (kept on the strike and its ledger entry). */
export interface StrikeInputs {
  /** One row per fund account (valued once, through one live session of it), the float kept out. */
  sessions: Array<{
    sessionId: string;
    account?: string;
    balanceCents: number;
    bonusCents: number;
    floatCents?: number;
    retrievedAt: string | null;
  }>;
  /** The fund's bets the book has settled and the desk has not read yet: their return is already in the cash. */
  settledUnread?: number;
  openStakeCents: number;
  openBets: number;
  withdrawnUnpaidCents: number;
  owedRedemptionsCents: number;
  /** The fee accrual standing before this strike (the strike works it out afresh: decision 1704). */
  feesAccruedCents: number;
  pendingContributionsCents: number;
  /** The fee period this strike accrues in (`2026-11`); a strike in a new period crystallises the fee. */
  feePeriod?: string;
  /** What the fee came to at this strike: accrued, crystallised (owed to the manager) and left accrued. */
  fee?: {
    accruedCents: number;
    crystallisedCents: number;
    accruedAfterCents: number;
    highWaterPrice: number;
    /** Fees a fund struck before fee periods had charged for good, owed from this strike on. */
    chargedBeforeCents?: number;
  };
  /**
   * The tipster share at this strike (decision 1923), when on: its rate, the fund's gain that caps it, each tipster's
   * P&L, mark, gain, accrual and mark after (the next strike reads the marks here), and what crystallised.
   */
  share?: {
    rateBps: number;
    fundGainCents: number;
    gainsCents: number;
    capped: boolean;
    accruedCents: number;
    crystallisedCents: number;
    accruedAfterCents: number;
    tipsters: TipsterShareLine[];
  };
  /** Requests left for a later strike: bets open when they were made have not all settled (decision 1701). */
  deferred: { contributions: number; cashouts: number };
  /** What this strike dealt, member by member: units issued for contributions, units redeemed for cash-outs. */
  dealt?: {
    issued: Array<{ memberId: string; cents: number; units: number }>;
    redeemed: Array<{ memberId: string; cents: number; units: number }>;
  };
  held?: string;
}

/** Every member's units and value at the last strike, summing to its NAV (/fund members, the monthly statement). */
export interface FundMembers {
  last: StrikeRecord | undefined;
  shares: Share[];
  residualCents: number;
  cashouts: Cashout[];
  /** Withdrawal attempts a treasurer must settle by hand (/fund withdrawal). */
  unresolved?: WithdrawalAttempt[];
}

/** One member's statement (/fund me): units and value at the last strike, money in and out, returns. */
export interface FundStatement {
  units: number;
  valueCents: number;
  share: number;
  contributedCents: number;
  cashedOutCents: number;
  pendingCents: number;
  profitCents: number;
  returnRatio: number | null;
  perUnitReturn: number | null;
  residualCent: boolean;
  lastStrike: StrikeRecord | null;
  openCashouts: Cashout[];
}
