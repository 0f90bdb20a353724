/**
 * The part of the gateway client library (src/gateway, docs/contracts.md) the bot uses, typed
 * structurally so the bot depends on the contract and tests can pass a GatewayClient or a stand-in.
 */

export interface JobEnvelope {
  status: string;
  correlation_id: string;
  submitted_at?: string | null;
  timeout_at?: string | null;
  session_id?: string | null;
  bookie?: string | null;
  username?: string | null;
  callback_url?: string | null;
}

export type JobOutcome<T = unknown> =
  | { status: 'completed'; result: T; entry?: unknown }
  | { status: 'timeout' | 'unknown'; entry?: unknown };

export interface JobHandle<T = unknown> {
  envelope: JobEnvelope;
  correlationId: string;
  wait(opts?: unknown): Promise<JobOutcome<T>>;
}

export interface GwSession {
  session_id: string;
  bookie: string;
  username?: string | null;
  active: boolean;
  pc_id?: string | null;
}

export interface GwBalance {
  session_id?: string | null;
  bookie?: string | null;
  username?: string | null;
  balance: number;
  bonus_balance?: number | null;
  withdrawable_balance?: number | null;
  retrieved_at?: string | null;
}

export interface GwSelection {
  label: string;
  odds: number | null;
  line?: number | null;
  player?: string | null;
  slug?: string;
  market_ref?: string;
  bettable: boolean;
  reason?: string | null;
}

export interface GwMarket {
  market: string;
  label: string;
  raw_market_name?: string | null;
  tier: string;
  n_bettable?: number | null;
  selections: GwSelection[];
}

export interface GwMarketCard {
  epk: string;
  bookie: string;
  bound: boolean;
  market_ref_betting_enabled: boolean;
  markets: GwMarket[];
}

export interface GwScore {
  status?: string;
  home_score?: number | null;
  away_score?: number | null;
}

export interface GwEvent {
  event_id: string;
  sport: string;
  league: string;
  country?: string;
  name: string;
  home?: string | null;
  away?: string | null;
  start_time: string;
  status: string;
  books?: string[] | null;
  score?: GwScore | null;
  is_outright?: boolean;
}

export interface GwEventsPage {
  data: GwEvent[];
  next_cursor?: string | null;
}

export interface GwEventsQuery {
  sport?: string;
  league?: string;
  date?: string;
  since?: string;
  until?: string;
  status?: 'prematch' | 'in_play' | 'finished';
  limit?: number;
  cursor?: string;
}

export interface GwBetResult {
  success: boolean;
  bet_id?: string | null;
  odds?: number | null;
  stake?: number | null;
  potential_return?: number | null;
  error?: string | null;
  bet_result?: {
    success: boolean;
    bet_id?: string | null;
    odds?: number | null;
    stake?: number | null;
    error?: string | null;
  } | null;
}

export interface GwTransaction {
  id: string;
  type: string;
  status: string;
  stake?: number | null;
  odds?: number | null;
  pnl?: number | null;
  is_bonus_bet?: boolean | null;
  placed_at?: string | null;
  settled_at?: string | null;
  selections?: Array<Record<string, unknown>> | null;
}

export interface GwTransactionsResult {
  success: boolean;
  transactions: GwTransaction[];
  has_more?: boolean | null;
}

export interface PlaceSportsBetByRef {
  session_id: string;
  category: 'sports';
  sport: string;
  epk: string;
  market_ref: string;
  stake: number;
  target_odds: number;
  callback_url?: string;
}

export interface PlaceRacingBet {
  session_id: string;
  category: 'racing';
  track: string;
  race_num: number;
  race_type?: '(R)' | '(G)' | '(H)';
  date: string;
  runner: string;
  market: 'win' | 'place';
  stake: number;
  target_odds: number;
  use_bonus_bet?: boolean;
  /** A promo to attach (an account promo that needs a chosen runner names it). */
  promo_name?: string;
  bet_type?: RacingBetType;
  callback_url?: string;
}

export type RacingBetType =
  | 'non_promo'
  | 'bonus'
  | '2'
  | '2/3'
  | '2/3/4'
  | 'bonus_betboost_25pc'
  | 'bonus_betboost_50pc'
  | 'pump';
export const RACING_BET_TYPES: readonly RacingBetType[] = [
  'non_promo',
  'bonus',
  '2',
  '2/3',
  '2/3/4',
  'bonus_betboost_25pc',
  'bonus_betboost_50pc',
  'pump',
];

/** An account promo as the desk reads it (GET /v3/account_promos); the gateway may add fields. */
export interface GwAccountPromo {
  promo_id: number;
  session_id?: string | null | undefined;
  session_ids?: string[] | undefined;
  bookie: string;
  promo: string;
  label?: string | null | undefined;
  summary?: { headline?: string | null | undefined; detail?: string | null | undefined } | null | undefined;
  kind?: string | undefined;
  track?: string | null | undefined;
  race_num?: number | null | undefined;
  race_type?: string | null | undefined;
  sport?: string | null | undefined;
  event?: string | null | undefined;
  date?: string | null | undefined;
  epk?: string | null | undefined;
  selection?: string | null | undefined;
  base_odds?: number | null | undefined;
  boosted_odds?: number | null | undefined;
  placeable_by_id: boolean;
  how_to_bet?:
    | { endpoint: string | null; promo_name?: string | null | undefined; note?: string | null | undefined }
    | undefined;
}

export interface GwBonusToken {
  id: string;
  amount: number;
  status: string;
}

export interface SportsPriceCheckByRef {
  session_ids: string[];
  category?: 'sports';
  sport: string;
  epk: string;
  market_ref: string;
  callback_url?: string;
}

export interface RacingPriceCheck {
  session_ids: string[];
  category?: 'racing';
  track: string;
  race_num: number;
  race_type?: string;
  date: string;
  runner?: string;
  callback_url?: string;
}

export interface PriceCheckSubmission {
  /** A query answered in the 202 has no job at the gateway (and no correlation id): sessionId and wait() are common. */
  jobs: (Pick<JobHandle<unknown>, 'wait'> & { sessionId: string })[];
}

export interface GatewayPort {
  sessions: { list(): Promise<GwSession[]> };
  balances: { get(req: { session_id: string }): Promise<GwBalance> };
  bets: { place(req: PlaceSportsBetByRef | PlaceRacingBet): Promise<JobHandle<GwBetResult>> };
  accountPromos: {
    list(q?: { session_id?: string; bookie?: string }): Promise<{ promos: GwAccountPromo[] }>;
    place(req: {
      session_id: string;
      promo_id: number;
      stake: number;
      idempotency_key: string;
      callback_url?: string;
    }): Promise<JobHandle<unknown>>;
  };
  bonusBets: {
    list(req: {
      session_id: string;
      callback_url?: string;
    }): Promise<JobHandle<{ bonus_bets?: GwBonusToken[] | null }>>;
  };
  priceChecks: {
    sports(req: SportsPriceCheckByRef): Promise<PriceCheckSubmission>;
    racing(req: RacingPriceCheck): Promise<PriceCheckSubmission>;
  };
  transactions: {
    list(req: {
      session_id: string;
      days_back?: number;
      limit?: number;
      callback_url?: string;
    }): Promise<JobHandle<GwTransactionsResult>>;
  };
  markets: { get(q: { epk: string; bookie: string; tier?: string; market?: string }): Promise<GwMarketCard> };
  /** The client's GET /v3/markets limiter, when the port exposes it: `queued` reads are held for a slot. */
  marketsLimiter?: { readonly queued: number; readonly perMinute?: number; readonly windowMs?: number };
  events: { list(q: GwEventsQuery): Promise<GwEventsPage> };
  jobs: {
    track(envelope: JobEnvelope): Promise<JobOutcome<unknown>>;
    resolveFromWebhook(body: unknown): unknown;
  };
  close(): Promise<void> | void;
}
