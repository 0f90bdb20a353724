// Accounts (one per API key), their bookmaker sessions, and what the ledger records.

export type SessionStatus = 'active' | 'inactive' | 'launching' | 'stopped';

export interface Session {
  session_id: string;
  bookie: string;
  username: string;
  /** true exactly when status is 'active' (kept in step by Accounts.setStatus). */
  active: boolean;
  pc_id: string;
  status: SessionStatus;
  /** stop_session with revoke: an offline client stops on reconnect; cleared by the next start. */
  revoked: boolean;
  /** The bookmaker account (UUID) the session logs into; several sessions may share one. */
  account_id: string;
  /** Whether the session's client machine is connected (start/restart/stop report it as `delivered`). */
  clientOnline: boolean;
  /** A launch published while the client was offline: it runs when the client connects (unless revoked). */
  pendingLaunch: boolean;
  /** The bookmaker restricted the account as this session sees it: every bet is refused (control route). */
  restricted?: boolean;
  /** When the last start or restart seeded the balance cache (sandbox ms); unset before the first in this run. */
  balanceSeededAtMs?: number;
  /** The cached balance while no client heartbeats refresh it (stopped, or started with its client offline). */
  balanceHeld?: HeldBalance;
}

/** A balance cache entry as the gateway last refreshed it. */
export interface HeldBalance {
  balance: number;
  bonus_balance: number;
  withdrawable_balance: number;
  retrieved_at: string;
}

/** The account behind one API key. */
export interface Account {
  id: string;
  key: string;
  name: string;
  subscription: boolean;
  /** Betting permission: without it state-changing calls answer 403. */
  canBet: boolean;
  /** The public demo key: always samples, never a real account. */
  demo?: boolean;
  sessions: Session[];
}

export type BonusTokenStatus = 'AVAILABLE' | 'USED' | 'SPLIT';

export interface BonusToken {
  id: string;
  amount: number;
  status: BonusTokenStatus;
  expiry: string;
  description: string;
}

/** A login at one bookmaker: holds the money, bonus tokens and account promos. */
export interface BookAccount {
  account_id: string;
  owner: string;
  bookie: string;
  username: string;
  cash: number;
  bonusTokens: BonusToken[];
  /** Simulated stake limits per sport (stake-limits.ts); none unless a fixture or a control route sets them. */
  stakeLimits?: StakeLimitRule[];
  /** Day savers spent (daySaverKey): each racing day's saver token is used once. */
  usedSavers?: string[];
}

export type SelectionResult = 'won' | 'lost' | 'pending';

export interface LedgerSelection {
  event: string;
  selection: string;
  market: string;
  odds: number;
  result: SelectionResult;
}

export interface LedgerBet {
  bet_id: string;
  session_id: string;
  /** The session's bookmaker account (Session.account_id). */
  account_id: string;
  bookie: string;
  stake: number;
  odds: number;
  is_bonus_bet: boolean;
  placed_at: string;
  selections: LedgerSelection[];
  /** Sports event key, so the world can settle the bet when the event finishes. */
  epk?: string;
  /** Racing key `<track>/<race_num>/<race_type>/<country>/<date>`. */
  race_key?: string;
  market_ref?: string;
  /** e.g. 'single', 'srm', 'promo', 'bonus', '2/3'. */
  bet_type?: string;
  promo_name?: string;
  bonus_token_id?: string;
  /** The promo attached at placement and what it pays at settlement (racing singles). */
  promo_terms?: PromoTerms;
}

/** What an attached racing promo pays: the stake back on those places, or a share of the winnings as a bonus bet. */
export interface PromoTerms {
  /** Finishing places (2 = second) on which a losing bet gets its stake back. */
  refund_places?: number[];
  /** Share of a winning bet's winnings paid as a bonus token (0.25 = 25%). */
  bonus_share?: number;
  /** The most the promo pays, in dollars. */
  max_reward: number;
  /** Where the promo came from: a race promo of /v3/promos, the race's bonus boost, an account promo, a saver. */
  source: 'race_promo' | 'bonus_boost' | 'account_promo' | 'saver_token';
}

/** What a promo paid at settlement, shown on the bet's transaction. */
export interface PromoPayout {
  /** `refund`: stake back (cash, or a bonus token for a bonus-bet stake); `bonus_bet`: a bonus token. */
  kind: 'refund' | 'bonus_bet';
  amount: number;
  /** The bonus token paid, when the payout is one. */
  bonus_token_id: string | null;
}

export type SettleStatus = 'won' | 'lost' | 'void' | 'cashed_out';
export type TransactionStatus = SettleStatus | 'pending';

export interface Transaction {
  id: string;
  type: 'bet' | 'deposit' | 'withdrawal';
  status: TransactionStatus;
  stake: number;
  odds: number | null;
  pnl: number;
  is_bonus_bet: boolean;
  placed_at: string;
  settled_at: string | null;
  selections: LedgerSelection[];
  /** Withdrawals only: the bookmaker's own state (status is pending, cashed_out or void to match). */
  withdrawal_status?: 'pending' | 'completed' | 'failed';
  /** Bets placed through place_bet: the bet_type and the promo attached (sandbox extras beside the spec's fields). */
  bet_type?: string;
  promo_name?: string | null;
  /** What the bet's promo paid at settlement, when it paid. */
  promo_payout?: PromoPayout;
}

/** What the book does with a stake above the account's limit. */
export type OverLimit = 'refuse' | 'reduce';

export interface StakeLimitRule {
  /** The sport group the limit covers (the epk's first part, e.g. `basketball`), or `*` for every sport. */
  sport: string;
  /** The limit before any win counts, in dollars (whole cents). */
  max_stake: number;
  /** Each winning bet on the sport settled after `since` multiplies the limit by this (0 < f ≤ 1). */
  shrink_factor: number;
  /** The limit never shrinks below this, in dollars. */
  min_stake: number;
  /** `refuse`: a bigger stake fails with max_stake_exceeded; `reduce`: it is taken for the limit. */
  over_limit: OverLimit;
  /** Wins count from this time (ISO): when the rule was set. */
  since: string;
}
