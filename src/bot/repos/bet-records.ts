import type { SlipPayload } from '../model/slip-rules.js';
import type { BotStore } from '../store/index.js';
import { Ledger, type LedgerKind } from './ledger.js';

/**
 * A bet's life, one row per Confirm (docs/reliability.md has the table of states and who moves them).
 * `sending` is written in the same statement that claims the slip, before place_bet leaves the process.
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

/** States whose stake counts against the member's day: a release is the move out of them. */
export const HOLDING: readonly BetState[] = ['sending', 'submitted', 'unknown', 'placed', 'settled', 'missing'];
/** States reconciliation may still move: the gateway may hold a bet the desk has not seen. */
export const UNRESOLVED: readonly BetState[] = ['sending', 'unknown'];

const list = (states: readonly string[]) => states.map((s) => `'${s}'`).join(', ');
const HOLDING_SQL = list(HOLDING);

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
  pnl: number | null;
  misses: number;
  /** The last pre-off price captured for the selection at its book, and the market then (JSON). */
  closeOdds: number | null;
  closeMarket: unknown;
  createdAt: number;
  updatedAt: number;
}

interface Row extends Record<string, unknown> {
  placement_id: string;
  slip_id: string;
  guild_key: string;
  guild_id: string | null;
  channel_id: string;
  message_id: string | null;
  user_id: string;
  session_id: string;
  bookie: string;
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
  pnl: number | null;
  misses: number;
  close_odds: number | null;
  close_market: string | null;
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
  payload: JSON.parse(r.payload) as SlipPayload,
  state: r.state,
  correlationId: r.correlation_id,
  timeoutAt: r.timeout_at === null ? null : Number(r.timeout_at),
  betId: r.bet_id,
  odds: r.odds,
  note: r.note,
  settledStatus: r.settled_status,
  pnl: r.pnl,
  misses: Number(r.misses),
  closeOdds: r.close_odds,
  closeMarket: r.close_market === null ? null : (JSON.parse(r.close_market) as unknown),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

/** States whose stake is still at risk on its event: held, in flight or placed and not yet settled. */
export const EXPOSED: readonly BetState[] = ['sending', 'submitted', 'unknown', 'placed', 'missing'];
const EXPOSED_SQL = list(EXPOSED);

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
}

export type CapName = 'member_day' | 'event' | 'market' | 'session_day' | 'syndicate_day';

export interface ClaimRequest {
  placementId: string;
  slipId: string;
  userId: string;
  guildKey: string;
  day: string;
  stakeCents: number;
  dayLimitCents: number;
  caps?: ExposureCaps;
  now: number;
}

export type ClaimOutcome =
  | { kind: 'claimed'; record: BetRecord }
  | { kind: 'handled'; record: BetRecord }
  | { kind: 'over_limit'; cap: CapName; usedCents: number; limitCents: number }
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
export function capUsageSql(cap: CapName, s: ExposureScope): { sql: string; params: unknown[] } {
  const scopes: Record<CapName, [string, unknown[], string]> = {
    member_day: ['b.user_id = ? AND b.day = ?', [s.userId, s.day], HOLDING_SQL],
    event: ['b.epk = ?', [s.epk], EXPOSED_SQL],
    market: ['b.epk = ? AND b.market_key = ?', [s.epk, s.marketKey], EXPOSED_SQL],
    session_day: ['b.session_id = ? AND b.day = ?', [s.sessionId, s.day], HOLDING_SQL],
    syndicate_day: ['b.day = ?', [s.day], HOLDING_SQL],
  };
  const [where, params, states] = scopes[cap];
  return {
    sql: `((SELECT COALESCE(SUM(b.stake_cents), 0) FROM bet_records b
             WHERE b.guild_key = ? AND ${where} AND b.state IN (${states}))
         + (SELECT COALESCE(SUM(b.stake_cents), 0) FROM proposals b
             WHERE b.guild_key = ? AND ${where} AND b.state IN (${list(PROPOSAL_HOLDING)}) AND b.slip_id <> ?))`,
    params: [s.guildKey, ...params, s.guildKey, ...params, s.slipId],
  };
}

export function capsOf(req: { dayLimitCents: number; caps?: ExposureCaps }): Array<[CapName, number]> {
  const c = req.caps ?? {};
  const all: Array<[CapName, number | undefined]> = [
    ['member_day', req.dayLimitCents],
    ['event', c.perEventCents],
    ['market', c.perMarketCents],
    ['session_day', c.perSessionDayCents],
    ['syndicate_day', c.perSyndicateDayCents],
  ];
  return all.filter((x): x is [CapName, number] => x[1] !== undefined);
}

/**
 * The lock keys a claim or a proposal of this stake holds while its statement runs: the slip (against its
 * close), the member's day (against the member's other claims) and, when a cap spanning members is set
 * (event, market, session day, syndicate day), the guild's exposure (against every other member's claims). On
 * PostgreSQL at READ COMMITTED two concurrent INSERT … SELECT statements do not see each other's rows, so
 * without the guild key two members could pass one cap together. With no such cap set, members' claims do
 * not wait on each other.
 */
export function claimLockKeys(
  slipId: string,
  guildKey: string,
  userId: string,
  limits: { dayLimitCents: number; caps?: ExposureCaps },
): string[] {
  const keys = [`slip:${slipId}`, `hold:${guildKey}:${userId}`];
  if (capsOf(limits).some(([cap]) => cap !== 'member_day')) keys.push(`exposure:${guildKey}`);
  return keys;
}

/** The ledger entry each state a record moves into writes (docs/reliability.md, "A bet's life"). */
const LEDGER_KIND: Record<BetState, LedgerKind> = {
  sending: 'hold',
  submitted: 'submitted',
  placed: 'placement',
  unknown: 'unknown',
  refused: 'release',
  not_sent: 'release',
  not_placed: 'release',
  settled: 'settlement',
  missing: 'missing',
};

/** Bet records: the claim, every later move (each guarded by the state it leaves), and the day's holds. */
export class BetRecordRepo {
  readonly #ledger: Ledger;
  /**
   * `onLedgerError`: a ledger entry that could not be written is reported there and the move stands, so the
   * caller still shows the bet's state (the bot logs it; without it the error is thrown).
   */
  constructor(
    private readonly store: BotStore,
    private readonly opts: { onLedgerError?: (err: unknown, placementId: string) => void } = {},
  ) {
    this.#ledger = new Ledger(store);
  }

  /** One ledger entry for a move that happened (only the caller that moved the record writes it). */
  async #record(r: BetRecord, from: BetState | null, actor: string | null): Promise<void> {
    const p = r.payload;
    const pnlCents = r.pnl === null ? null : Math.round(r.pnl * 100);
    try {
      await this.#append(r, p, pnlCents, from, actor);
    } catch (err) {
      if (!this.opts.onLedgerError) throw err;
      this.opts.onLedgerError(err, r.placementId);
    }
  }

  async #append(r: BetRecord, p: SlipPayload, pnlCents: number | null, from: BetState | null, actor: string | null) {
    await this.#ledger.append({
      at: r.updatedAt,
      guildKey: r.guildKey,
      kind: LEDGER_KIND[r.state],
      ref: r.placementId,
      actor,
      amountCents: r.state === 'settled' ? pnlCents : r.stakeCents,
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
    });
  }

  /**
   * Claims the slip and writes the record in state `sending`, in one statement: only the owner, only
   * before expiry, only once per slip (slip_id is unique), and only while every cap (the member's day,
   * the event, the market, the session's day, the syndicate's day) still has room for this stake. The
   * hold is the record itself, so two claims can never both fit where only one does. Whoever gets no row
   * learns why afterwards.
   */
  async claim(req: ClaimRequest): Promise<ClaimOutcome> {
    // Serialized with close() of the same slip, with the member's other claims and, where a cap spans members,
    // with the guild's other claims: on PostgreSQL neither statement would see the other's row.
    const outcome = await this.store.serialize(claimLockKeys(req.slipId, req.guildKey, req.userId, req), () =>
      this.#claim(req),
    );
    // The ledger entry is written after the locks are let go: the ledger takes a lock of its own.
    if (outcome.kind === 'claimed') await this.#record(outcome.record, null, req.userId);
    return outcome;
  }

  async #claim(req: ClaimRequest): Promise<ClaimOutcome> {
    const slip = await this.#slipPayload(req.slipId);
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
      capParams.push(...usage.params, req.stakeCents, limit);
    }
    const rows = await this.store.query<Row>(
      `INSERT INTO bet_records (placement_id, slip_id, guild_key, guild_id, channel_id, message_id, user_id,
         session_id, bookie, epk, market_key, day, stake_cents, payload, state, created_at, updated_at)
       SELECT ?, s.slip_id, ?, s.guild_id, s.channel_id, s.message_id, s.user_id, ?, ?, ?, ?, ?, ?, s.payload,
         'sending', ?, ?
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
      req.now,
      req.now,
      req.slipId,
      req.userId,
      req.now,
      ...capParams,
    );
    if (rows[0] !== undefined) return { kind: 'claimed', record: toRecord(rows[0]) };
    const existing = await this.bySlip(req.slipId);
    if (existing) return { kind: 'handled', record: existing };
    for (const [cap, limit] of caps) {
      const used = await this.capUsage(cap, scope);
      if (used + req.stakeCents > limit) return { kind: 'over_limit', cap, usedCents: used, limitCents: limit };
    }
    return { kind: 'other' };
  }

  /** The stake counted against one cap right now. */
  async capUsage(cap: CapName, scope: ExposureScope): Promise<number> {
    const usage = capUsageSql(cap, scope);
    const rows = await this.store.query<{ total: number | null }>(`SELECT ${usage.sql} AS total`, ...usage.params);
    return Number(rows[0]?.total ?? 0);
  }

  async #slipPayload(slipId: string): Promise<SlipPayload | undefined> {
    const rows = await this.store.query<{ payload: string }>('SELECT payload FROM slips WHERE slip_id = ?', slipId);
    return rows[0] ? (JSON.parse(rows[0].payload) as SlipPayload) : undefined;
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
       WHERE guild_key = ? AND user_id = ? AND day = ? AND state IN (${HOLDING_SQL})`,
      guildKey,
      userId,
      day,
    );
    return Number(rows[0]?.total ?? 0);
  }

  /**
   * Moves a record from one of `from` to `to`, setting the given columns; the record only for the caller
   * that moved it (a second handling of the same evidence changes nothing).
   */
  async move(
    placementId: string,
    from: readonly BetState[],
    to: BetState,
    set: Partial<{
      correlationId: string;
      timeoutAt: number | null;
      betId: string;
      odds: number | null;
      note: string;
      settledStatus: string;
      pnl: number | null;
    }>,
    now: number,
  ): Promise<BetRecord | undefined> {
    const cols: string[] = ['state = ?', 'updated_at = ?'];
    const params: unknown[] = [to, now];
    const add = (col: string, v: unknown) => {
      cols.push(`${col} = ?`);
      params.push(v);
    };
    if (set.correlationId !== undefined) add('correlation_id', set.correlationId);
    if (set.timeoutAt !== undefined) add('timeout_at', set.timeoutAt);
    if (set.betId !== undefined) add('bet_id', set.betId);
    if (set.odds !== undefined) add('odds', set.odds);
    if (set.note !== undefined) add('note', set.note);
    if (set.settledStatus !== undefined) add('settled_status', set.settledStatus);
    if (set.pnl !== undefined) add('pnl', set.pnl);
    const rows = await this.store.query<Row>(
      `UPDATE bet_records SET ${cols.join(', ')} WHERE placement_id = ? AND state IN (${list(from)}) RETURNING *`,
      ...params,
      placementId,
    );
    if (rows[0] === undefined) return undefined;
    const moved = toRecord(rows[0]);
    await this.#record(moved, from.length === 1 ? (from[0] ?? null) : null, null);
    return moved;
  }

  /** Counts a settlement read that did not find a placed bet; returns the new count. */
  async countMiss(placementId: string, now: number): Promise<number> {
    const rows = await this.store.query<{ misses: number }>(
      "UPDATE bet_records SET misses = misses + 1, updated_at = ? WHERE placement_id = ? AND state = 'placed' RETURNING misses",
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
        ? await this.store.query<Row>(`SELECT * FROM bet_records WHERE state IN (${list(states)}) ORDER BY created_at`)
        : guildId === null
          ? await this.store.query<Row>(
              `SELECT * FROM bet_records WHERE guild_id IS NULL AND state IN (${list(states)}) ORDER BY created_at`,
            )
          : await this.store.query<Row>(
              `SELECT * FROM bet_records WHERE guild_id = ? AND state IN (${list(states)}) ORDER BY created_at`,
              guildId,
            );
    return rows.map(toRecord);
  }

  /** What /exposure reads: every open record of the guild, and every record of the day that holds stake. */
  async forExposure(guildKey: string, day: string): Promise<BetRecord[]> {
    const rows = await this.store.query<Row>(
      `SELECT * FROM bet_records WHERE guild_key = ?
         AND (state IN (${EXPOSED_SQL}) OR (day = ? AND state IN (${HOLDING_SQL})))
       ORDER BY created_at`,
      guildKey,
      day,
    );
    return rows.map(toRecord);
  }

  async inStates(states: readonly BetState[]): Promise<BetRecord[]> {
    const rows = await this.store.query<Row>(
      `SELECT * FROM bet_records WHERE state IN (${list(states)}) ORDER BY created_at`,
    );
    return rows.map(toRecord);
  }

  async knownBetIds(sessionId: string): Promise<Set<string>> {
    const rows = await this.store.query<{ bet_id: string }>(
      'SELECT bet_id FROM bet_records WHERE session_id = ? AND bet_id IS NOT NULL',
      sessionId,
    );
    return new Set(rows.map((r) => r.bet_id));
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
