import type { SlipPayload } from './slip-rules.js';
/**
 * A bet's life as data: the states of a bet record and every move between them, each naming the states it may
 * leave, the state it enters and the ledger entry it writes (docs/reliability.md, "A bet's life"; decision
 * 1640). Pure: the repository applies a row of this table in one transaction with its ledger entry, and the
 * daily reconciliation checks each record's entries against it.
 */

export type BetState =
  | 'sending'
  | 'not_sent'
  | 'submitted'
  | 'unknown'
  | 'placed'
  | 'refused'
  | 'not_placed'
  | 'settled'
  | 'missing';

/** The ledger kinds a bet record's moves write (a subset of the ledger's kinds). */
export type BetEntryKind = 'hold' | 'submitted' | 'unknown' | 'placement' | 'release' | 'settlement' | 'missing';

export interface BetTransition {
  /** The states the move may leave (the claim leaves none: it writes the record). */
  from: readonly BetState[];
  to: BetState;
  ledger: BetEntryKind;
  /** The entry's amount: the stake, or the settled profit or loss. */
  amount: 'stake' | 'pnl';
}

/** Every move of a bet record, by the name its callers use. */
export const BET_TRANSITIONS = {
  /** Confirm claimed the slip (the same statement holds the stake against every cap). */
  claim: { from: [], to: 'sending', ledger: 'hold', amount: 'stake' },
  /** The 202 is stored; a late 202 for a bet thought unknown counts too. */
  markSubmitted: { from: ['sending', 'unknown'], to: 'submitted', ledger: 'submitted', amount: 'stake' },
  /** place_bet failed before anything could be placed (a 4xx, nothing sent): the hold is released. */
  markNotSent: { from: ['sending'], to: 'not_sent', ledger: 'release', amount: 'stake' },
  /** place_bet failed after the request may have reached the gateway. */
  markSendUnknown: { from: ['sending'], to: 'unknown', ledger: 'unknown', amount: 'stake' },
  /** The job ended timeout/unknown, or its result was of an unexpected shape. */
  markResultUnknown: { from: ['sending', 'submitted'], to: 'unknown', ledger: 'unknown', amount: 'stake' },
  /** A result with a bet id: evidence that wins even over a record reconciliation gave up on. */
  markPlaced: {
    from: ['sending', 'submitted', 'unknown', 'not_placed'],
    to: 'placed',
    ledger: 'placement',
    amount: 'stake',
  },
  /** The reconciler found the bet in the book's history. */
  markAdopted: { from: ['sending', 'unknown', 'submitted'], to: 'placed', ledger: 'placement', amount: 'stake' },
  /** The bookmaker refused the bet: the hold is released. */
  markRefused: { from: ['sending', 'submitted', 'unknown'], to: 'refused', ledger: 'release', amount: 'stake' },
  /** No matching bet in the book's history after the safe window: the hold is released. */
  markNotPlaced: { from: ['sending', 'unknown'], to: 'not_placed', ledger: 'release', amount: 'stake' },
  /** The book's transaction shows the bet settled. */
  markSettled: { from: ['placed'], to: 'settled', ledger: 'settlement', amount: 'pnl' },
  /** A placed bet the book's history no longer lists. */
  markMissing: { from: ['placed'], to: 'missing', ledger: 'missing', amount: 'stake' },
} as const satisfies Record<string, BetTransition>;

export type BetMove = Exclude<keyof typeof BET_TRANSITIONS, 'claim'>;

/** The ledger kinds a bet record's moves write. */
export const BET_ENTRY_KINDS: ReadonlySet<string> = new Set(
  (Object.values(BET_TRANSITIONS) as BetTransition[]).map((t) => t.ledger),
);

/** States whose stake counts against the member's day: a release is the move out of them. */
export const HOLDING: readonly BetState[] = ['sending', 'submitted', 'unknown', 'placed', 'settled', 'missing'];
/** States whose stake is still at risk on its event: held, in flight or placed and not yet settled. */
export const EXPOSED: readonly BetState[] = ['sending', 'submitted', 'unknown', 'placed', 'missing'];
/** States reconciliation may still move: the gateway may hold a bet the desk has not seen. */
export const UNRESOLVED: readonly BetState[] = ['sending', 'unknown'];
/** The state a record holds while its sender's place_bet may still be in flight (decision 2130). */
export const IN_FLIGHT: readonly BetState[] = ['sending'];

/**
 * The statuses of a book's transaction that settle a bet: the gateway's four, and the halves a book uses for a bet
 * settled half won or half lost (its P&L says how much). The one list the settlement watcher, the analytics and the
 * audits read (decision 2016); any other status (`pending`) leaves the bet open.
 */
export const SETTLED_STATUSES = ['won', 'lost', 'void', 'cashed_out', 'half_won', 'half_lost'] as const;
export type SettledStatus = (typeof SETTLED_STATUSES)[number];
const SETTLED_SET: ReadonlySet<string> = new Set(SETTLED_STATUSES);
/** Whether a transaction's status settles its bet. */
export const isSettledStatus = (status: string | null | undefined): status is SettledStatus =>
  typeof status === 'string' && SETTLED_SET.has(status);

/** The ledger kind of a move from `from` (null: the claim) to `to`, or undefined when no row allows it. */
export function entryKindOf(from: BetState | null, to: BetState): BetEntryKind | undefined {
  for (const t of Object.values(BET_TRANSITIONS) as BetTransition[]) {
    if (t.to !== to) continue;
    if (from === null ? t.from.length === 0 : t.from.includes(from)) return t.ledger;
  }
  return undefined;
}

/** What a bet record's ledger entry says about its move (`from` is null on the claim and on old entries). */
export interface BetEntry {
  seq: number;
  kind: string;
  from: BetState | null;
  to: BetState;
}

export interface EntryProblem {
  problem: 'missing_entry' | 'extra_entry';
  detail: string;
}

/**
 * A record's entries (oldest first) against its state: they must walk the table from the claim to the state
 * the record is in, one entry per move. A move with no entry (a gap in the walk, or an end short of the
 * record's state) is missing; an entry that repeats the move before it or is no move of the table is extra.
 * Entries written before moves recorded their exact from-state carry `from: null` after the claim; those are
 * taken to leave the state the walk is in.
 */
export function checkBetEntries(state: BetState, entries: readonly BetEntry[]): EntryProblem[] {
  const problems: EntryProblem[] = [];
  const extra = (e: BetEntry, why: string) =>
    problems.push({ problem: 'extra_entry', detail: `entry ${e.seq} ${why}` });
  const missing = (from: BetState | null, to: BetState) =>
    problems.push({ problem: 'missing_entry', detail: `no entry for ${moveText(from, to)}` });
  let at: BetState | null = null;
  let last: BetEntry | undefined;
  for (const e of entries) {
    const claim = e.kind === 'hold' && e.to === 'sending';
    if (claim && last) {
      extra(e, 'is a second hold (the claim)');
      continue;
    }
    const from = claim ? null : (e.from ?? at);
    if (last && last.from === e.from && last.to === e.to && last.kind === e.kind) {
      extra(e, `repeats the ${e.kind} for ${moveText(from, e.to)}`);
      continue;
    }
    if (entryKindOf(from, e.to) !== e.kind) {
      extra(e, `is a ${e.kind} for ${moveText(from, e.to)}, which is no move of a bet`);
      continue;
    }
    if (from !== at && from !== null) missing(at, from);
    at = e.to;
    last = e;
  }
  if (at === null) problems.push({ problem: 'missing_entry', detail: `no entry at all (the record is ${state})` });
  else if (at !== state) missing(at, state);
  return problems;
}

function moveText(from: BetState | null, to: BetState): string {
  if (from !== null) return `${from} → ${to}`;
  return to === 'sending' ? 'the claim (hold)' : `the claim and the moves up to ${to}`;
}

/** A bet's write-ahead record as every wing reads it; the betting wing's repository writes it. */
export interface BetRecord {
  placementId: string;
  slipId: string;
  guildKey: string;
  guildId: string | null;
  channelId: string;
  messageId: string | null;
  userId: string;
  sessionId: string;
  bookie: string;
  day: string;
  stakeCents: number;
  payload: SlipPayload;
  state: BetState;
  correlationId: string | null;
  timeoutAt: number | null;
  betId: string | null;
  odds: number | null;
  note: string | null;
  settledStatus: string | null;
  /** The book's profit or loss, whole cents (the gateway's dollars read once where the settlement arrives). */
  pnlCents: number | null;
  misses: number;
  /** The last pre-off price captured for the selection at its book, and the market then (JSON). */
  closeOdds: number | null;
  closeMarket: unknown;
  /**
   * Whose the bet is, decided at its claim (decision 1950): the server whose fund owned its account then, or null
   * (outside every fund). Undefined for records claimed before that was stored (the rule by dates decides).
   */
  fundKey?: string | null;
  createdAt: number;
  updatedAt: number;
}

/** Whole-cent caps beyond the member's day; an absent cap is not checked. */
export interface ExposureCaps {
  /** Open stake on one event, across members and accounts. */
  perEventCents?: number;
  /** Open stake on one market of an event. */
  perMarketCents?: number;
  /** Stake through one session (a bookmaker account) in a day. */
  perSessionDayCents?: number;
  /** Stake of the whole syndicate in a day. */
  perSyndicateDayCents?: number;
  /** Open stake on one runner of a race: its singles' stakes and the whole stake of every multi with a leg on it. */
  perRunnerCents?: number;
}

export type CapName = 'member_day' | 'event' | 'market' | 'session_day' | 'syndicate_day' | 'runner';

/**
 * Whose a bet is (decision 1950), the one rule the strike, the gate, the risk picture and the reports share: the fact
 * stored at its claim (`fundKey`: the server whose fund owned the account then, or null: outside every fund); for a
 * record claimed before that was stored (`fundKey` undefined), the rule by dates: through one of the fund's accounts
 * (`joined`: account → when it joined), placed at or after the account joined. With `fund.fundKey` unset, a bet
 * decided for any fund counts.
 */
export function isFundBet(
  bet: { fundKey: string | null | undefined; account: string | undefined; placedAt: number },
  fund: { fundKey?: string; joined: ReadonlyMap<string, number> },
): boolean {
  if (bet.fundKey !== undefined) {
    return bet.fundKey !== null && (fund.fundKey === undefined || bet.fundKey === fund.fundKey);
  }
  const since = bet.account === undefined ? undefined : fund.joined.get(bet.account);
  return since !== undefined && bet.placedAt >= since;
}

/** The named sets a read of a bet record's state asks by (issue 44): from the table, never a literal elsewhere. */
export const BET_STATES = {
  sending: [BET_TRANSITIONS.claim.to],
  submitted: [BET_TRANSITIONS.markSubmitted.to],
  unknown: [BET_TRANSITIONS.markSendUnknown.to],
  placed: [BET_TRANSITIONS.markPlaced.to],
  settled: [BET_TRANSITIONS.markSettled.to],
  refused: [BET_TRANSITIONS.markRefused.to],
  /** Not yet decided by the book: held and sent, or sent with no answer. */
  undecided: BET_TRANSITIONS.markRefused.from,
  /** The book took it: placed, settled since, or missing from its history after. */
  taken: [BET_TRANSITIONS.markPlaced.to, BET_TRANSITIONS.markSettled.to, BET_TRANSITIONS.markMissing.to],
  /** Still to be read at the book: undecided, or placed and not yet settled. */
  open: [...BET_TRANSITIONS.markRefused.from, BET_TRANSITIONS.markPlaced.to],
} as const satisfies Record<string, readonly BetState[]>;

export { inStates } from './state-sets.js';
