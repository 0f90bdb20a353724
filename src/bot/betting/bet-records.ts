import { chainSoon, type LedgerInput, stageInTx } from '../ledger/index.js';
import {
  BET_STATES,
  BET_TRANSITIONS,
  type BetMove,
  type BetRecord,
  type BetState,
  type BetTransition,
  type CapName,
  EXPOSED,
  type ExposureCaps,
  HOLDING,
} from '../model/bet-states.js';
import { type SlipPayload, type StoredSlipPayload, slipFromStored } from '../model/slip-rules.js';
import { sqlStates } from '../model/state-sets.js';
import type { BotStore, Tx } from '../store/index.js';
import { runnerOverCap, runnerStakes, runnerTotals } from './runner-stakes.js';
import type { SlipOwnerColumns } from './slips.js';

export type { BetRecord, BetState, CapName, ExposureCaps } from '../model/bet-states.js';

export { EXPOSED, HOLDING, IN_FLIGHT, UNRESOLVED } from '../model/bet-states.js';

const HOLDING_SQL = sqlStates(HOLDING);
/** Bet ids per lookup of known ones: under SQLite's oldest bound of 999 parameters. */
const KNOWN_IDS_PER_READ = 500;

interface Row extends SlipOwnerColumns {
  placement_id: string;
  day: string;
  stake_cents: number;
  payload: string;
  state: BetState;
  correlation_id: string | null;
  timeout_at: number | null;
  bet_id: string | null;
  odds: number | null;
  note: string | null;
  settled_status: string | null;
  pnl_cents: number | null;
  misses: number;
  close_odds: number | null;
  close_market: string | null;
  fund_key?: string | null;
  fund_decided?: number | null;
  created_at: number;
  updated_at: number;
}

const toRecord = (r: Row): BetRecord => ({
  placementId: r.placement_id,
  slipId: r.slip_id,
  guildKey: r.guild_key,
  guildId: r.guild_id,
  channelId: r.channel_id,
  messageId: r.message_id,
  userId: r.user_id,
  sessionId: r.session_id,
  bookie: r.bookie,
  day: r.day,
  stakeCents: Number(r.stake_cents),
  payload: slipFromStored(JSON.parse(r.payload) as StoredSlipPayload),
  state: r.state,
  correlationId: r.correlation_id,
  timeoutAt: r.timeout_at === null ? null : Number(r.timeout_at),
  betId: r.bet_id,
  odds: r.odds,
  note: r.note,
  settledStatus: r.settled_status,
  pnlCents: r.pnl_cents === null ? null : Number(r.pnl_cents),
  misses: Number(r.misses),
  closeOdds: r.close_odds,
  closeMarket: r.close_market === null ? null : (JSON.parse(r.close_market) as unknown),
  ...(Number(r.fund_decided ?? 0) === 1 ? { fundKey: r.fund_key ?? null } : {}),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

/**
 * What `moveInTx` would make of a record, read through `read` (a receipt's journal reader, decision 2120) and
 * written nowhere: undefined when there is no such record or it is not in a state the row leaves. A receipt's edit
 * is drawn from it ahead of its transaction, whose own move decides.
 */
export async function movedAhead(
  read: <R extends Row = Row>(sql: string, ...params: unknown[]) => Promise<R[]>,
  placementId: string,
  name: BetMove,
  set: Partial<MoveFields>,
  now: number,
): Promise<BetRecord | undefined> {
  const [row] = await read('SELECT * FROM bet_records WHERE placement_id = ?', placementId);
  return movedFrom(row === undefined ? undefined : toRecord(row), name, set, now);
}

/** A record as the named move would leave it; undefined: no record, or not in a state the move leaves. */
export function movedFrom(
  record: BetRecord | undefined,
  name: BetMove,
  set: Partial<MoveFields>,
  now: number,
): BetRecord | undefined {
  const t: BetTransition = BET_TRANSITIONS[name];
  if (!record || !t.from.includes(record.state)) return undefined;
  const fields = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
  return { ...record, ...fields, state: t.to, updatedAt: now };
}

const EXPOSED_SQL = sqlStates(EXPOSED);

/** The fund's limits a claim reserves atomically with its record (decision 1950). */
export type FundCapName = 'fund_daily_loss' | 'fund_event' | 'fund_account';

/**
 * Whose a claimed bet is, and the fund's rooms its claim must fit (decision 1950). The rooms are what the gate
 * read just before the claim and that no claim changes (the account's cash less its float, the daily loss limit
 * plus today's realised P&L, the event's share of NAV); the claim's statement takes off what the fund's other
 * records hold at that moment, under the fund's lock, so two Confirms can never both take the last room.
 */
export interface FundClaim {
  /** The server whose fund owns the account now; null: the account is no fund's. */
  fundKey: string | null;
  /** `bookie/username` of the account the bet goes through. */
  account: string;
  bookie: string;
  username: string;
  /** The account's cash less its float, read at this Confirm; absent: not checked (a bonus bet stakes no cash). */
  accountRoomCents?: number;
  /** When that cash was read: bets placed since may not be in it yet, so they count against it too. */
  cashReadAt?: number;
  /** The daily loss limit plus today's realised P&L of the fund's bets; absent: no limit. */
  dailyLossRoomCents?: number;
  /** The cap on one event's open stake (a share of NAV); absent: no limit. */
  eventCapCents?: number;
}

export interface ClaimRequest {
  placementId: string;
  slipId: string;
  userId: string;
  guildKey: string;
  day: string;
  stakeCents: number;
  dayLimitCents: number;
  caps?: ExposureCaps;
  /** Whose the bet is and the fund's rooms (absent: decided as no fund's, nothing of a fund checked). */
  fund?: FundClaim;
  now: number;
}

/** One multi of a stack to claim: its record's id, slip id (the slip's, or `#k` after the first), payload, stake. */
export interface StackMember {
  placementId: string;
  slipId: string;
  payload: SlipPayload;
  stakeCents: number;
}

/** A stack's claim: the slip's claim request, with its multis in place of one placement and stake. */
export interface StackClaimRequest extends Omit<ClaimRequest, 'placementId' | 'stakeCents'> {
  members: StackMember[];
}

export type StackClaimOutcome = Exclude<ClaimOutcome, { kind: 'claimed' }> | { kind: 'claimed'; records: BetRecord[] };

/** The fund's gate for one Confirm: a refusal to show, or the claim's part and how to word its refusals. */
export type FundDecision =
  | { ok: false; message: string }
  | { ok: true; claim: FundClaim; overText(cap: FundCapName, usedCents: number, stakeCents: number): string };

export type ClaimOutcome =
  | { kind: 'claimed'; record: BetRecord }
  | { kind: 'handled'; record: BetRecord }
  /** `runner`: the runner whose cap it is (the runner cap, decision 2011). */
  | { kind: 'over_limit'; cap: CapName; usedCents: number; limitCents: number; runner?: string }
  | { kind: 'fund_over'; cap: FundCapName; usedCents: number; limitCents: number }
  /** The account joined or left a fund between the gate's read and the claim: nothing held, Confirm again. */
  | { kind: 'fund_moved' }
  | { kind: 'other' };

/** Where a stake lands: the scope each cap sums over. */
export interface ExposureScope {
  /** The slip being claimed or proposed: its own proposal is not counted against it. */
  slipId: string;
  guildKey: string;
  userId: string;
  day: string;
  sessionId: string;
  epk: string;
  marketKey: string;
}

/** Proposal states that hold exposure: waiting for approvers, or approved and being placed. */
export const PROPOSAL_HOLDING = ['open', 'placing'] as const;

/**
 * The stake already counted against one cap, as a scalar expression: bet records in a holding state plus open
 * proposals (a slip waiting for approval holds its stake too), leaving out the proposal of the slip being
 * claimed so its stake is not counted twice. Exposure caps (event, market) count open stakes; day caps every
 * stake of the day that was not released.
 */
export function capUsageSql(cap: SqlCapName, s: ExposureScope): { sql: string; params: unknown[] } {
  const scopes: Record<SqlCapName, [string, unknown[], string]> = {
    member_day: ['b.user_id = ? AND b.day = ?', [s.userId, s.day], HOLDING_SQL],
    event: ['b.epk = ?', [s.epk], EXPOSED_SQL],
    market: ['b.epk = ? AND b.market_key = ?', [s.epk, s.marketKey], EXPOSED_SQL],
    session_day: ['b.session_id = ? AND b.day = ?', [s.sessionId, s.day], HOLDING_SQL],
    syndicate_day: ['b.day = ?', [s.day], HOLDING_SQL],
  };
  const [where, params, states] = scopes[cap];
  return {
    sql: `((SELECT COALESCE(SUM(b.stake_cents), 0) FROM bet_records b
             WHERE b.guild_key = ? AND ${where} AND b.state IN ${states})
         + (SELECT COALESCE(SUM(b.stake_cents), 0) FROM proposals b
             WHERE b.guild_key = ? AND ${where} AND b.state IN ${sqlStates(PROPOSAL_HOLDING)} AND b.slip_id <> ?))`,
    params: [s.guildKey, ...params, s.guildKey, ...params, s.slipId],
  };
}

/** The caps summed in SQL (every cap but the runner's, whose stake is read from the bets' legs). */
export type SqlCapName = Exclude<CapName, 'runner'>;

export function capsOf(req: { dayLimitCents: number; caps?: ExposureCaps }): Array<[SqlCapName, number]> {
  const c = req.caps ?? {};
  const all: Array<[SqlCapName, number | undefined]> = [
    ['member_day', req.dayLimitCents],
    ['event', c.perEventCents],
    ['market', c.perMarketCents],
    ['session_day', c.perSessionDayCents],
    ['syndicate_day', c.perSyndicateDayCents],
  ];
  return all.filter((x): x is [SqlCapName, number] => x[1] !== undefined);
}

/**
 * The lock keys a claim or a proposal of this stake holds while its statement runs: the slip (against its
 * close), the member's day (against the member's other claims) and, when a cap spanning members is set
 * (event, market, session day, syndicate day), the guild's exposure (against every other member's claims). On
 * PostgreSQL at READ COMMITTED two concurrent INSERT … SELECT statements do not see each other's rows, so
 * without the guild key two members could pass one cap together. With no such cap set, members' claims do
 * not wait on each other.
 */
/** The lock a claim on a fund's accounts and every move of the fund's limits or accounts hold. */
export const fundLockKey = (fundKey: string) => `fund-bets:${fundKey}`;

export function claimLockKeys(
  slipId: string,
  guildKey: string,
  userId: string,
  limits: { dayLimitCents: number; caps?: ExposureCaps },
  fund?: FundClaim,
): string[] {
  const keys = [`slip:${slipId}`, `hold:${guildKey}:${userId}`];
  if (capsOf(limits).some(([cap]) => cap !== 'member_day') || limits.caps?.perRunnerCents !== undefined) {
    keys.push(`exposure:${guildKey}`);
  }
  // A fund's claims one at a time (its rooms), and against an account leaving it. A claim through no fund's account
  // takes no lock: should the account join meanwhile, the bet stays outside and its return is the float's.
  if (fund?.fundKey) keys.push(fundLockKey(fund.fundKey));
  return keys;
}

type Query = Pick<Tx, 'query'>;

/** States whose stake the book may not have taken from the account's cash yet (or took after the gate read it). */
const NOT_IN_CASH_SQL = sqlStates(BET_STATES.undecided);

/**
 * What the fund's own records hold against one of its limits, as a scalar expression: the open stake of every bet
 * decided as the fund's (the daily loss and the event caps), or for the account's cash the stake the book may not
 * have taken yet when the gate read it.
 */
export function fundUsageSql(cap: FundCapName, f: FundClaim, epk: string): { sql: string; params: unknown[] } {
  const base = 'SELECT COALESCE(SUM(f.stake_cents), 0) FROM bet_records f WHERE f.fund_decided = 1 AND f.fund_key = ?';
  if (cap === 'fund_account') {
    return {
      sql: `(${base} AND f.fund_account = ? AND (f.state IN ${NOT_IN_CASH_SQL}
              OR (f.state IN ${EXPOSED_SQL} AND f.updated_at >= ?)))`,
      params: [f.fundKey, f.account, f.cashReadAt ?? 0],
    };
  }
  if (cap === 'fund_event')
    return { sql: `(${base} AND f.epk = ? AND f.state IN ${EXPOSED_SQL})`, params: [f.fundKey, epk] };
  return { sql: `(${base} AND f.state IN ${EXPOSED_SQL})`, params: [f.fundKey] };
}

/** The fund's limits a claim checks, with their rooms. */
export function fundCapsOf(f: FundClaim | undefined): Array<[FundCapName, number]> {
  if (!f || f.fundKey === null) return [];
  const all: Array<[FundCapName, number | undefined]> = [
    ['fund_daily_loss', f.dailyLossRoomCents],
    ['fund_event', f.eventCapCents],
    ['fund_account', f.accountRoomCents],
  ];
  return all.filter((x): x is [FundCapName, number] => x[1] !== undefined);
}

/**
 * The runner cap at a claim (decision 2011): every runner the slip bets on against the open stake on that runner in
 * its race, from the guild's open records and open proposals (each bet's legs read from its payload).
 */
async function runnerCapRefusal(
  q: Query,
  req: Pick<ClaimRequest, 'guildKey' | 'slipId'>,
  slip: SlipPayload,
  capCents: number,
): Promise<ClaimOutcome | undefined> {
  const adding = runnerStakes(slip, slip.stakeCents);
  if (adding.size === 0) return undefined;
  const rows = await q.query<{ payload: string; stake_cents: number }>(
    `SELECT b.payload, b.stake_cents FROM bet_records b WHERE b.guild_key = ? AND b.epk = ? AND b.state IN ${EXPOSED_SQL}
     UNION ALL
     SELECT s.payload, p.stake_cents FROM proposals p JOIN slips s ON s.slip_id = p.slip_id
     WHERE p.guild_key = ? AND p.epk = ? AND p.state IN ${sqlStates(PROPOSAL_HOLDING)} AND p.slip_id <> ?`,
    req.guildKey,
    slip.epk,
    req.guildKey,
    slip.epk,
    req.slipId,
  );
  const open = runnerTotals(
    rows.map((r) => ({
      payload: slipFromStored(JSON.parse(r.payload) as StoredSlipPayload),
      stakeCents: Number(r.stake_cents),
    })),
  );
  const over = runnerOverCap(adding, open, capCents);
  return over ? { kind: 'over_limit', cap: 'runner', limitCents: capCents, ...over } : undefined;
}

/** The stake counted against one cap right now. */
async function capUsage(q: Query, cap: SqlCapName, scope: ExposureScope): Promise<number> {
  const usage = capUsageSql(cap, scope);
  const rows = await q.query<{ total: number | null }>(`SELECT ${usage.sql} AS total`, ...usage.params);
  return Number(rows[0]?.total ?? 0);
}

async function slipPayload(q: Query, slipId: string): Promise<SlipPayload | undefined> {
  const rows = await q.query<{ payload: string }>('SELECT payload FROM slips WHERE slip_id = ?', slipId);
  return rows[0] ? slipFromStored(JSON.parse(rows[0].payload) as StoredSlipPayload) : undefined;
}

/** What a move may set besides the state, by column. */
export interface MoveFields {
  correlationId: string;
  timeoutAt: number | null;
  betId: string;
  odds: number | null;
  note: string;
  settledStatus: string;
  /** The book's profit or loss in whole cents, read from its dollars where the settlement arrives. */
  pnlCents: number | null;
  /** The stake the book accepted, when it took less than asked (the record then holds that stake). */
  stakeCents: number;
}

/** The ledger entry of a record's move from `from` (null: the claim), by the table's row. */
function entryOf(r: BetRecord, t: BetTransition, from: BetState | null, actor: string | null): LedgerInput {
  const p = r.payload;
  const pnlCents = r.pnlCents;
  return {
    at: r.updatedAt,
    guildKey: r.guildKey,
    kind: t.ledger,
    ref: r.placementId,
    actor,
    amountCents: t.amount === 'pnl' ? pnlCents : r.stakeCents,
    data: {
      from,
      to: r.state,
      slipId: r.slipId,
      userId: r.userId,
      sessionId: r.sessionId,
      bookie: r.bookie,
      epk: p.epk,
      market: p.marketKey,
      marketRef: p.marketRef,
      selection: p.selectionLabel,
      stakeCents: r.stakeCents,
      shownOdds: p.shownOdds,
      odds: r.odds,
      betId: r.betId,
      settledStatus: r.settledStatus,
      pnlCents,
      note: r.note,
    },
  };
}

/** How often a move re-reads a record another process moved between its read and its UPDATE. */
const MOVE_ATTEMPTS = 10;

/**
 * Bet records: the claim and every later move, each a row of the transition table (src/bot/model/bet-states.ts)
 * applied in one transaction with its ledger entry, so a record never moves without its entry nor an entry
 * lands without its move; and the day's holds.
 */
/**
 * Runs after a move's transaction committed and before its ledger entry's chaining starts: for what the move's caller
 * shows at once (the slip's receipt).
 */
export type OnCommitted = (record: BetRecord) => Promise<void>;

export class BetRecordRepo {
  #moved: ((record: BetRecord) => void) | undefined;

  /** `onMove` hears every move made (the metrics count them by move and states); it must not throw. */
  constructor(
    private readonly store: BotStore,
    private readonly onMove: (move: {
      move: BetMove | 'claim';
      from: BetState | 'none';
      to: BetState;
    }) => void = () => {},
  ) {}

  /**
   * Claims the slip and writes the record in state `sending`, in one statement: only the owner, only
   * before expiry, only once per slip (slip_id is unique), and only while every cap (the member's day,
   * the event, the market, the session's day, the syndicate's day) still has room for this stake. The
   * hold is the record itself, so two claims can never both fit where only one does. Whoever gets no row
   * learns why afterwards. The `hold` entry is written in the same transaction.
   */
  claim(req: ClaimRequest): Promise<ClaimOutcome> {
    // Serialized with close() of the same slip, with the member's other claims and, where a cap spans members,
    // with the guild's other claims: on PostgreSQL neither statement would see the other's row. The keys are
    // held until the transaction has committed.
    return this.store
      .transaction(
        async (tx) => {
          const outcome = await this.#claim(tx, req);
          if (outcome.kind === 'claimed') {
            await stageInTx(tx, [entryOf(outcome.record, BET_TRANSITIONS.claim, null, req.userId)]);
          }
          return outcome;
        },
        { serialize: claimLockKeys(req.slipId, req.guildKey, req.userId, req, req.fund) },
      )
      .then((outcome) => {
        if (outcome.kind === 'claimed') {
          this.#chain();
          this.onMove({ move: 'claim', from: 'none', to: 'sending' });
        }
        return outcome;
      });
  }

  /**
   * Claims a stack slip (decision 2010): one record per multi, all in one transaction under the claim's locks, or
   * none. The first record is written by the claim's statement with every cap and fund room checked for the whole
   * stack's stake (so the stack is counted once, whole); the others follow it in the same transaction, each with its
   * own payload, stake and hold entry.
   */
  claimStack(req: StackClaimRequest): Promise<StackClaimOutcome> {
    const [first, ...rest] = req.members;
    if (!first) throw new Error('a stack claim without multis');
    const total = req.members.reduce((a, m) => a + m.stakeCents, 0);
    return this.store
      .transaction(
        async (tx): Promise<StackClaimOutcome> => {
          const head = { ...req, placementId: first.placementId, stakeCents: first.stakeCents };
          const outcome = await this.#claim(tx, head, { payload: first.payload, capStakeCents: total });
          if (outcome.kind !== 'claimed') return outcome;
          const records = [outcome.record];
          for (const m of rest) records.push(await this.#claimFollower(tx, outcome.record, m, req.fund));
          await stageInTx(
            tx,
            records.map((r) => entryOf(r, BET_TRANSITIONS.claim, null, req.userId)),
          );
          return { kind: 'claimed', records };
        },
        { serialize: claimLockKeys(req.slipId, req.guildKey, req.userId, req, req.fund) },
      )
      .then((outcome) => {
        if (outcome.kind === 'claimed') {
          this.#chain();
          for (const _ of outcome.records) this.onMove({ move: 'claim', from: 'none', to: 'sending' });
        }
        return outcome;
      });
  }

  /** A stack's record after its first: the first's slip, place and fund, with its own id, payload and stake. */
  async #claimFollower(tx: Tx, head: BetRecord, m: StackMember, fund: FundClaim | undefined): Promise<BetRecord> {
    const rows = await tx.query<Row>(
      `INSERT INTO bet_records (placement_id, slip_id, guild_key, guild_id, channel_id, message_id, user_id,
         session_id, bookie, epk, market_key, day, stake_cents, payload, state, created_at, updated_at,
         fund_key, fund_account, fund_decided)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending', ?, ?, ?, ?, ?) RETURNING *`,
      m.placementId,
      m.slipId,
      head.guildKey,
      head.guildId,
      head.channelId,
      head.messageId,
      head.userId,
      head.sessionId,
      head.bookie,
      head.payload.epk,
      head.payload.marketKey,
      head.day,
      m.stakeCents,
      JSON.stringify(m.payload),
      head.createdAt,
      head.createdAt,
      fund?.fundKey ?? null,
      fund?.account ?? null,
      fund ? 1 : 0,
    );
    const row = rows[0];
    if (!row) throw new Error(`the stack record ${m.slipId} was not written`);
    return toRecord(row);
  }

  /** A stack slip's records, in the stack's order (the first carries the slip's own id, the others `#k`). */
  async byStack(slipId: string): Promise<BetRecord[]> {
    const rows = await this.store.query<Row>(
      'SELECT * FROM bet_records WHERE slip_id = ? OR slip_id LIKE ?',
      slipId,
      `${slipId}#%`,
    );
    return rows
      .filter((r) => r.slip_id === slipId || r.slip_id.startsWith(`${slipId}#`))
      .map(toRecord)
      .sort((a, b) => (a.payload.stackOf?.index ?? 0) - (b.payload.stackOf?.index ?? 0));
  }

  /**
   * Starts chaining the entry a move staged (decision 1763), after the move committed and without waiting for it
   * (decision 2131): every read of the ledger chains first, so a reader still sees every committed move. A failure
   * leaves the entry staged, chained by the next move, read, stop or start; the move stands.
   */
  #chain(): void {
    chainSoon(this.store);
  }

  /**
   * `as`: a stack's first record (decision 2010): its own payload instead of the slip's, and the caps checked for
   * the whole stack's stake.
   */
  async #claim(tx: Tx, req: ClaimRequest, as?: { payload: SlipPayload; capStakeCents: number }): Promise<ClaimOutcome> {
    const capStake = as?.capStakeCents ?? req.stakeCents;
    const slip = await slipPayload(tx, req.slipId);
    const runnerCap = req.caps?.perRunnerCents;
    if (runnerCap !== undefined && slip) {
      // Read from the bets' legs, not summed in SQL: checked first, under the guild's exposure lock.
      const [existing] = await tx.query<Row>('SELECT * FROM bet_records WHERE slip_id = ?', req.slipId);
      if (existing) return { kind: 'handled', record: toRecord(existing) };
      const over = await runnerCapRefusal(tx, req, slip, runnerCap);
      if (over) return over;
    }
    const scope: ExposureScope = {
      slipId: req.slipId,
      guildKey: req.guildKey,
      userId: req.userId,
      day: req.day,
      sessionId: slip?.sessionId ?? '',
      epk: slip?.epk ?? '',
      marketKey: slip?.marketKey ?? '',
    };
    const caps = capsOf(req);
    const conditions: string[] = [];
    const capParams: unknown[] = [];
    for (const [cap, limit] of caps) {
      const usage = capUsageSql(cap, scope);
      conditions.push(`AND ${usage.sql} + ? <= ?`);
      capParams.push(...usage.params, capStake, limit);
    }
    const f = req.fund;
    const fundCaps = fundCapsOf(f);
    if (f) {
      // The account is still whose the gate found it to be.
      conditions.push(
        f.fundKey === null
          ? 'AND NOT EXISTS (SELECT 1 FROM fund_accounts fa WHERE fa.bookie = ? AND fa.username = ?)'
          : 'AND EXISTS (SELECT 1 FROM fund_accounts fa WHERE fa.bookie = ? AND fa.username = ? AND fa.guild_key = ?)',
      );
      capParams.push(f.bookie, f.username, ...(f.fundKey === null ? [] : [f.fundKey]));
      for (const [cap, room] of fundCaps) {
        const usage = fundUsageSql(cap, f, scope.epk);
        conditions.push(`AND ${usage.sql} + ? <= ?`);
        capParams.push(...usage.params, capStake, room);
      }
    }
    const rows = await tx.query<Row>(
      `INSERT INTO bet_records (placement_id, slip_id, guild_key, guild_id, channel_id, message_id, user_id,
         session_id, bookie, epk, market_key, day, stake_cents, payload, state, created_at, updated_at,
         fund_key, fund_account, fund_decided)
       SELECT ?, s.slip_id, ?, s.guild_id, s.channel_id, s.message_id, s.user_id, ?, ?, ?, ?, ?, ?, COALESCE(?, s.payload),
         'sending', ?, ?, ?, ?, ?
       FROM slips s
       WHERE s.slip_id = ? AND s.user_id = ? AND s.expires_at > ?
         ${conditions.join('\n         ')}
       ON CONFLICT (slip_id) DO NOTHING RETURNING *`,
      req.placementId,
      req.guildKey,
      scope.sessionId,
      slip?.bookie ?? '',
      scope.epk,
      scope.marketKey,
      req.day,
      req.stakeCents,
      as ? JSON.stringify(as.payload) : null,
      req.now,
      req.now,
      f?.fundKey ?? null,
      f?.account ?? null,
      f ? 1 : 0,
      req.slipId,
      req.userId,
      req.now,
      ...capParams,
    );
    if (rows[0] !== undefined) return { kind: 'claimed', record: toRecord(rows[0]) };
    const [existing] = await tx.query<Row>('SELECT * FROM bet_records WHERE slip_id = ?', req.slipId);
    if (existing) return { kind: 'handled', record: toRecord(existing) };
    for (const [cap, limit] of caps) {
      const used = await capUsage(tx, cap, scope);
      if (used + capStake > limit) return { kind: 'over_limit', cap, usedCents: used, limitCents: limit };
    }
    if (f) {
      const [owner] = await tx.query<{ guild_key: string }>(
        'SELECT guild_key FROM fund_accounts WHERE bookie = ? AND username = ?',
        f.bookie,
        f.username,
      );
      if ((owner?.guild_key ?? null) !== f.fundKey) return { kind: 'fund_moved' };
      for (const [cap, room] of fundCaps) {
        const usage = fundUsageSql(cap, f, scope.epk);
        const [r] = await tx.query<{ total: number | null }>(`SELECT ${usage.sql} AS total`, ...usage.params);
        const used = Number(r?.total ?? 0);
        if (used + capStake > room) return { kind: 'fund_over', cap, usedCents: used, limitCents: room };
      }
    }
    return { kind: 'other' };
  }

  /** The stake counted against one cap right now. */
  capUsage(cap: SqlCapName, scope: ExposureScope): Promise<number> {
    return capUsage(this.store, cap, scope);
  }

  async bySlip(slipId: string): Promise<BetRecord | undefined> {
    const rows = await this.store.query<Row>('SELECT * FROM bet_records WHERE slip_id = ?', slipId);
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  }

  async get(placementId: string): Promise<BetRecord | undefined> {
    const rows = await this.store.query<Row>('SELECT * FROM bet_records WHERE placement_id = ?', placementId);
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  }

  async byCorrelation(correlationId: string): Promise<BetRecord | undefined> {
    const rows = await this.store.query<Row>('SELECT * FROM bet_records WHERE correlation_id = ?', correlationId);
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  }

  async byBetId(betId: string): Promise<BetRecord | undefined> {
    const rows = await this.store.query<Row>('SELECT * FROM bet_records WHERE bet_id = ?', betId);
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  }

  /** The member's stake held today: every record in a holding state. */
  async usedCents(guildKey: string, userId: string, day: string): Promise<number> {
    const rows = await this.store.query<{ total: number | null }>(
      `SELECT COALESCE(SUM(stake_cents), 0) AS total FROM bet_records
       WHERE guild_key = ? AND user_id = ? AND day = ? AND state IN ${HOLDING_SQL}`,
      guildKey,
      userId,
      day,
    );
    return Number(rows[0]?.total ?? 0);
  }

  /** The 202 is stored (job row first): the correlation id, its deadline and the price sent. */
  markSubmitted(placementId: string, set: Pick<MoveFields, 'correlationId' | 'timeoutAt' | 'odds'>, now: number) {
    return this.#apply(placementId, 'markSubmitted', set, now);
  }
  /** place_bet failed before anything could be placed; `note` says why. */
  markNotSent(placementId: string, set: Pick<MoveFields, 'note'>, now: number) {
    return this.#apply(placementId, 'markNotSent', set, now);
  }
  /** place_bet failed after the request may have reached the gateway. */
  markSendUnknown(placementId: string, set: Pick<MoveFields, 'note'>, now: number) {
    return this.#apply(placementId, 'markSendUnknown', set, now);
  }
  /** The job ended without a usable result. */
  markResultUnknown(placementId: string, set: Pick<MoveFields, 'note'>, now: number, onCommitted?: OnCommitted) {
    return this.#apply(placementId, 'markResultUnknown', set, now, onCommitted);
  }
  /**
   * A result with a bet id (and the stake the book took, when it took less than asked). Its job's correlation id
   * comes with it: a resent bet's result can be read before its 202 is stored (markSubmitted then finds the record
   * placed), and the record must still name its job.
   */
  markPlaced(
    placementId: string,
    set: Pick<MoveFields, 'betId' | 'odds'> & Partial<Pick<MoveFields, 'correlationId' | 'stakeCents' | 'note'>>,
    now: number,
    onCommitted?: OnCommitted,
  ) {
    return this.#apply(placementId, 'markPlaced', set, now, onCommitted);
  }
  /** A job outcome's move by name (see BetResults): the receipt's placed, refused or result-unknown. */
  move(
    placementId: string,
    name: 'markPlaced' | 'markRefused' | 'markResultUnknown',
    set: Partial<MoveFields>,
    now: number,
    onCommitted?: OnCommitted,
  ) {
    return this.#apply(placementId, name, set, now, onCommitted);
  }
  /** The reconciler found the bet in the book's history (a bet id another record holds throws). */
  markAdopted(placementId: string, set: Pick<MoveFields, 'betId' | 'odds' | 'note'>, now: number) {
    return this.#apply(placementId, 'markAdopted', set, now);
  }
  markRefused(
    placementId: string,
    set: Pick<MoveFields, 'note'> & Partial<Pick<MoveFields, 'correlationId'>>,
    now: number,
    onCommitted?: OnCommitted,
  ) {
    return this.#apply(placementId, 'markRefused', set, now, onCommitted);
  }
  markNotPlaced(placementId: string, set: Pick<MoveFields, 'note'>, now: number) {
    return this.#apply(placementId, 'markNotPlaced', set, now);
  }
  markSettled(placementId: string, set: Pick<MoveFields, 'settledStatus' | 'pnlCents'>, now: number) {
    return this.#apply(placementId, 'markSettled', set, now);
  }
  markMissing(placementId: string, set: Pick<MoveFields, 'note'>, now: number) {
    return this.#apply(placementId, 'markMissing', set, now);
  }

  /**
   * Applies one row of the transition table: reads the record's state, and when the row may leave it, moves the
   * record with `UPDATE … WHERE state = <that state>` and appends the entry (naming that exact from-state) in the
   * same transaction. The record comes back only to the caller that moved it: a second handling of the same
   * evidence changes nothing and writes no entry.
   */
  async #apply(
    placementId: string,
    name: BetMove,
    set: Partial<MoveFields>,
    now: number,
    onCommitted?: OnCommitted,
  ): Promise<BetRecord | undefined> {
    const moved = await this.#move(placementId, name, set, now, onCommitted);
    return moved?.record;
  }

  async #move(
    placementId: string,
    name: BetMove,
    set: Partial<MoveFields>,
    now: number,
    onCommitted?: OnCommitted,
  ): Promise<{ record: BetRecord; from: BetState } | undefined> {
    const moved = await this.store.transaction((tx) => this.moveInTx(tx, placementId, name, set, now));
    if (moved) {
      this.#counted(name, moved);
      // What the move's caller shows (the slip's receipt) need not wait for the chain: it is queued first.
      if (onCommitted) await onCommitted(moved.record);
      this.#chain();
    }
    return moved;
  }

  /**
   * One row of the transition table inside the caller's transaction (a receipt commits its delivery, its job, this
   * move and its message's outbox row together): the move and its staged ledger entry, or undefined when the
   * record is not in a state the row leaves. After the commit, call `committed` with what it returned.
   */
  async moveInTx(
    tx: Tx,
    placementId: string,
    name: BetMove,
    set: Partial<MoveFields>,
    now: number,
  ): Promise<{ record: BetRecord; from: BetState } | undefined> {
    const t: BetTransition = BET_TRANSITIONS[name];
    const cols: string[] = ['state = ?', 'updated_at = ?'];
    const params: unknown[] = [t.to, now];
    const columns: Array<[keyof MoveFields, string]> = [
      ['correlationId', 'correlation_id'],
      ['timeoutAt', 'timeout_at'],
      ['betId', 'bet_id'],
      ['odds', 'odds'],
      ['note', 'note'],
      ['settledStatus', 'settled_status'],
      ['pnlCents', 'pnl_cents'],
      ['stakeCents', 'stake_cents'],
    ];
    for (const [field, col] of columns) {
      if (set[field] === undefined) continue;
      cols.push(`${col} = ?`);
      params.push(set[field]);
    }
    for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
      const [current] = await tx.query<{ state: BetState }>(
        'SELECT state FROM bet_records WHERE placement_id = ?',
        placementId,
      );
      if (!current || !t.from.includes(current.state)) return undefined;
      // On PostgreSQL another process may move the row after the read: then no row matches and it is read again.
      const rows = await tx.query<Row>(
        `UPDATE bet_records SET ${cols.join(', ')} WHERE placement_id = ? AND state = ? RETURNING *`,
        ...params,
        placementId,
        current.state,
      );
      if (rows[0] === undefined) continue;
      const moved = toRecord(rows[0]);
      await stageInTx(tx, [entryOf(moved, t, current.state, null)]);
      return { record: moved, from: current.state };
    }
    throw new Error(`bet record ${placementId} kept moving under ${name}; it was left as it is`);
  }

  /**
   * After the commit of a `moveInTx`: the move is counted, `first` runs (the receipt's edit goes out), then the
   * staged ledger entry's chaining starts (not waited for, decision 2131).
   */
  async committed(
    name: BetMove,
    moved: { record: BetRecord; from: BetState },
    first?: () => Promise<void>,
  ): Promise<void> {
    this.#counted(name, moved);
    if (first) await first();
    this.#chain();
  }

  /** Counted as committed, before anything it causes can be seen (the receipt a reader waits for). */
  #counted(name: BetMove, moved: { record: BetRecord; from: BetState }): void {
    this.onMove({ move: name, from: moved.from, to: moved.record.state });
    this.#moved?.(moved.record);
  }

  /** Hears each record this process moved, as committed (one listener: a copy held elsewhere is then stale). */
  whenMoved(fn: (record: BetRecord) => void): void {
    this.#moved = fn;
  }

  /** Counts a settlement read that did not find a placed bet; returns the new count. */
  async countMiss(placementId: string, now: number): Promise<number> {
    const rows = await this.store.query<{ misses: number }>(
      `UPDATE bet_records SET misses = misses + 1, updated_at = ? WHERE placement_id = ? AND state IN ${sqlStates(BET_STATES.placed)}
       RETURNING misses`,
      now,
      placementId,
    );
    return Number(rows[0]?.misses ?? 0);
  }

  /** Keeps a pre-off price as the close; a later read replaces an earlier one, never the other way. */
  async recordClose(placementId: string, odds: number, market: unknown, at: number): Promise<void> {
    await this.store.query(
      `UPDATE bet_records SET close_odds = ?, close_market = ?, close_at = ?
       WHERE placement_id = ? AND (close_at IS NULL OR close_at <= ?)`,
      odds,
      market === null ? null : JSON.stringify(market),
      at,
      placementId,
      at,
    );
  }

  /** Records in these states for one guild (all guilds when undefined), oldest first. */
  async forGuild(guildId: string | null | undefined, states: readonly BetState[]): Promise<BetRecord[]> {
    const rows =
      guildId === undefined
        ? await this.store.query<Row>(
            `SELECT * FROM bet_records WHERE state IN ${sqlStates(states)} ORDER BY created_at`,
          )
        : guildId === null
          ? await this.store.query<Row>(
              `SELECT * FROM bet_records WHERE guild_id IS NULL AND state IN ${sqlStates(states)} ORDER BY created_at`,
            )
          : await this.store.query<Row>(
              `SELECT * FROM bet_records WHERE guild_id = ? AND state IN ${sqlStates(states)} ORDER BY created_at`,
              guildId,
            );
    return rows.map(toRecord);
  }

  /** What /exposure reads: every open record of the guild, and every record of the day that holds stake. */
  async forExposure(guildKey: string, day: string): Promise<BetRecord[]> {
    const rows = await this.store.query<Row>(
      `SELECT * FROM bet_records WHERE guild_key = ?
         AND (state IN ${EXPOSED_SQL} OR (day = ? AND state IN ${HOLDING_SQL}))
       ORDER BY created_at`,
      guildKey,
      day,
    );
    return rows.map(toRecord);
  }

  async inStates(states: readonly BetState[]): Promise<BetRecord[]> {
    const rows = await this.store.query<Row>(
      `SELECT * FROM bet_records WHERE state IN ${sqlStates(states)} ORDER BY created_at`,
    );
    return rows.map(toRecord);
  }

  /** Which of `betIds` a record of the session already holds (read in pieces, within any engine's bound on parameters). */
  async knownBetIds(sessionId: string, betIds: readonly string[]): Promise<Set<string>> {
    const known = new Set<string>();
    for (let i = 0; i < betIds.length; i += KNOWN_IDS_PER_READ) {
      const piece = betIds.slice(i, i + KNOWN_IDS_PER_READ);
      const rows = await this.store.query<{ bet_id: string }>(
        `SELECT bet_id FROM bet_records WHERE session_id = ? AND bet_id IN (${piece.map(() => '?').join(', ')})`,
        sessionId,
        ...piece,
      );
      for (const r of rows) known.add(r.bet_id);
    }
    return known;
  }

  async recent(filter: { guildId: string | null; limit: number }): Promise<BetRecord[]> {
    const rows =
      filter.guildId === null
        ? await this.store.query<Row>('SELECT * FROM bet_records ORDER BY created_at DESC LIMIT ?', filter.limit)
        : await this.store.query<Row>(
            'SELECT * FROM bet_records WHERE guild_id = ? ORDER BY created_at DESC LIMIT ?',
            filter.guildId,
            filter.limit,
          );
    return rows.map(toRecord);
  }
}
