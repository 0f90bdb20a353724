import type { BotStore } from '../store/index.js';
import {
  type CapName,
  capsOf,
  capUsageSql,
  claimLockKeys,
  type ExposureCaps,
  type ExposureScope,
} from './bet-records.js';
import {
  PROPOSAL_MOVES,
  PROPOSAL_STATES,
  type ProposalMove,
  type ProposalState,
  sqlStates,
} from './model/proposal-states.js';
import type { SlipOwnerColumns } from './slips.js';

export type { ProposalState } from './model/proposal-states.js';

export interface Proposal {
  proposalId: string;
  slipId: string;
  guildKey: string;
  guildId: string | null;
  channelId: string;
  messageId: string | null;
  proposerId: string;
  sessionId: string;
  bookie: string;
  epk: string;
  marketKey: string;
  marketRef: string;
  day: string;
  stakeCents: number;
  /** The price the approvers are asked to approve; a lapse moves it to the new live price (a new round). */
  shownOdds: number;
  needed: number;
  round: number;
  state: ProposalState;
  note: string | null;
  reminded: boolean;
  remindAt: number;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
}

interface Row extends SlipOwnerColumns {
  proposal_id: string;
  epk: string;
  market_key: string;
  market_ref: string;
  day: string;
  stake_cents: number;
  shown_odds: number;
  needed: number;
  round: number;
  state: ProposalState;
  note: string | null;
  reminded: number;
  remind_at: number;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

const toProposal = (r: Row): Proposal => ({
  proposalId: r.proposal_id,
  slipId: r.slip_id,
  guildKey: r.guild_key,
  guildId: r.guild_id,
  channelId: r.channel_id,
  messageId: r.message_id,
  proposerId: r.user_id,
  sessionId: r.session_id,
  bookie: r.bookie,
  epk: r.epk,
  marketKey: r.market_key,
  marketRef: r.market_ref,
  day: r.day,
  stakeCents: Number(r.stake_cents),
  shownOdds: Number(r.shown_odds),
  needed: Number(r.needed),
  round: Number(r.round),
  state: r.state,
  note: r.note,
  reminded: Number(r.reminded) === 1,
  remindAt: Number(r.remind_at),
  expiresAt: Number(r.expires_at),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export type NewProposal = Omit<Proposal, 'round' | 'state' | 'note' | 'reminded' | 'updatedAt'>;

export type ProposeOutcome =
  | { kind: 'proposed'; proposal: Proposal }
  | { kind: 'over_limit'; cap: CapName; usedCents: number; limitCents: number };

export interface Approval {
  approverId: string;
  odds: number;
  createdAt: number;
}

export class ProposalRepo {
  constructor(private readonly store: BotStore) {}

  /**
   * Writes the proposal only while every cap has room for its stake: the proposal is its own hold. Serialized
   * with the member's claims (the same lock keys as BetRecordRepo.claim: claimLockKeys).
   */
  async create(p: NewProposal, limits: { dayLimitCents: number; caps?: ExposureCaps }): Promise<ProposeOutcome> {
    return this.store.serialize(claimLockKeys(p.slipId, p.guildKey, p.proposerId, limits), () =>
      this.#create(p, limits),
    );
  }

  async #create(p: NewProposal, limits: { dayLimitCents: number; caps?: ExposureCaps }): Promise<ProposeOutcome> {
    const scope: ExposureScope = {
      slipId: p.slipId,
      guildKey: p.guildKey,
      userId: p.proposerId,
      day: p.day,
      sessionId: p.sessionId,
      epk: p.epk,
      marketKey: p.marketKey,
    };
    const caps = capsOf(limits);
    const conditions: string[] = [];
    const params: unknown[] = [];
    for (const [cap, limit] of caps) {
      const usage = capUsageSql(cap, scope);
      conditions.push(`${usage.sql} + ? <= ?`);
      params.push(...usage.params, p.stakeCents, limit);
    }
    const rows = await this.store.query<Row>(
      `INSERT INTO proposals (proposal_id, slip_id, guild_key, guild_id, channel_id, message_id, user_id, session_id,
         bookie, epk, market_key, market_ref, day, stake_cents, shown_odds, needed, round, state, remind_at,
         expires_at, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?
       WHERE ${conditions.length ? conditions.join(' AND ') : '1 = 1'}
       ON CONFLICT (slip_id) DO NOTHING RETURNING *`,
      p.proposalId,
      p.slipId,
      p.guildKey,
      p.guildId,
      p.channelId,
      p.messageId,
      p.proposerId,
      p.sessionId,
      p.bookie,
      p.epk,
      p.marketKey,
      p.marketRef,
      p.day,
      p.stakeCents,
      p.shownOdds,
      p.needed,
      PROPOSAL_MOVES.propose.to,
      p.remindAt,
      p.expiresAt,
      p.createdAt,
      p.createdAt,
      ...params,
    );
    if (rows[0]) return { kind: 'proposed', proposal: toProposal(rows[0]) };
    for (const [cap, limit] of caps) {
      const rowsUsed = await this.store.query<{ total: number }>(
        `SELECT ${capUsageSql(cap, scope).sql} AS total`,
        ...capUsageSql(cap, scope).params,
      );
      const used = Number(rowsUsed[0]?.total ?? 0);
      if (used + p.stakeCents > limit) return { kind: 'over_limit', cap, usedCents: used, limitCents: limit };
    }
    throw new Error(`proposal for slip ${p.slipId} was not written and no cap explains it`);
  }

  async get(proposalId: string): Promise<Proposal | undefined> {
    const rows = await this.store.query<Row>('SELECT * FROM proposals WHERE proposal_id = ?', proposalId);
    return rows[0] ? toProposal(rows[0]) : undefined;
  }

  async bySlip(slipId: string): Promise<Proposal | undefined> {
    const rows = await this.store.query<Row>('SELECT * FROM proposals WHERE slip_id = ?', slipId);
    return rows[0] ? toProposal(rows[0]) : undefined;
  }

  async setMessage(proposalId: string, channelId: string, messageId: string): Promise<void> {
    await this.store.query(
      'UPDATE proposals SET channel_id = ?, message_id = ? WHERE proposal_id = ?',
      channelId,
      messageId,
      proposalId,
    );
  }

  /**
   * One approval by one member in the current round, bound to the round's price: only while the proposal is
   * open, unexpired, still in that round, and not by its proposer. False when it was not written.
   */
  async approve(proposalId: string, round: number, approverId: string, odds: number, now: number): Promise<boolean> {
    const rows = await this.store.query(
      `INSERT INTO approvals (proposal_id, round, approver_id, odds, created_at)
       SELECT p.proposal_id, p.round, ?, ?, ? FROM proposals p
       WHERE p.proposal_id = ? AND p.state IN ${sqlStates(PROPOSAL_STATES.open)} AND p.round = ? AND p.expires_at > ? AND p.user_id <> ?
       ON CONFLICT (proposal_id, round, approver_id) DO NOTHING RETURNING approver_id`,
      approverId,
      odds,
      now,
      proposalId,
      round,
      now,
      approverId,
    );
    return rows.length === 1;
  }

  async approvals(proposalId: string, round: number): Promise<Approval[]> {
    const rows = await this.store.query<{ approver_id: string; odds: number; created_at: number }>(
      'SELECT approver_id, odds, created_at FROM approvals WHERE proposal_id = ? AND round = ? ORDER BY created_at',
      proposalId,
      round,
    );
    return rows.map((r) => ({ approverId: r.approver_id, odds: Number(r.odds), createdAt: Number(r.created_at) }));
  }

  /** The price moved beyond tolerance: a new round at the new price; the old round's approvals no longer count. */
  async lapse(proposalId: string, round: number, newOdds: number, note: string, now: number) {
    const rows = await this.store.query<Row>(
      `UPDATE proposals SET round = round + 1, shown_odds = ?, note = ?, updated_at = ?
       WHERE proposal_id = ? AND state IN ${sqlStates(PROPOSAL_STATES.open)} AND round = ? RETURNING *`,
      newOdds,
      note,
      now,
      proposalId,
      round,
    );
    return rows[0] ? toProposal(rows[0]) : undefined;
  }

  /** Moves a proposal by a named move of its table; the row only for the caller that moved it. */
  async move(
    proposalId: string,
    move: ProposalMove,
    now: number,
    extra: { round?: number; note?: string } = {},
  ): Promise<Proposal | undefined> {
    const { from, to } = PROPOSAL_MOVES[move];
    const rows = await this.store.query<Row>(
      `UPDATE proposals SET state = ?, updated_at = ?${extra.note === undefined ? '' : ', note = ?'}
       WHERE proposal_id = ? AND state IN (${from.map(() => '?').join(', ')})${extra.round === undefined ? '' : ' AND round = ?'}
       RETURNING *`,
      to,
      now,
      ...(extra.note === undefined ? [] : [extra.note]),
      proposalId,
      ...from,
      ...(extra.round === undefined ? [] : [extra.round]),
    );
    return rows[0] ? toProposal(rows[0]) : undefined;
  }

  /** Open proposals past their expiry, each moved to `expired` by this call only. */
  /** Proposals in `placing` since before `before` (their placement did not finish). */
  async placingSince(before: number, limit = 50): Promise<Proposal[]> {
    const rows = await this.store.query<Row>(
      `SELECT * FROM proposals WHERE state IN ${sqlStates(PROPOSAL_STATES.placing)} AND updated_at <= ? ORDER BY updated_at LIMIT ?`,
      before,
      limit,
    );
    return rows.map(toProposal);
  }

  async expireDue(now: number, limit = 50): Promise<Proposal[]> {
    const due = await this.store.query<{ proposal_id: string }>(
      `SELECT proposal_id FROM proposals WHERE state IN ${sqlStates(PROPOSAL_STATES.open)} AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
      now,
      limit,
    );
    const out: Proposal[] = [];
    for (const { proposal_id } of due) {
      const moved = await this.move(proposal_id, 'expire', now);
      if (moved) out.push(moved);
    }
    return out;
  }

  /** Open proposals at half-time not yet reminded about, each claimed for its reminder by this call only. */
  async remindDue(now: number, limit = 50): Promise<Proposal[]> {
    const rows = await this.store.query<Row>(
      `UPDATE proposals SET reminded = 1, updated_at = ?
       WHERE proposal_id IN (SELECT proposal_id FROM proposals
         WHERE state IN ${sqlStates(PROPOSAL_STATES.open)} AND reminded = 0 AND remind_at <= ? AND expires_at > ? ORDER BY remind_at LIMIT ?)
         AND reminded = 0
       RETURNING *`,
      now,
      now,
      now,
      limit,
    );
    return rows.map(toProposal);
  }

  /** Open and placing proposals of a guild (for /exposure). */
  async holding(guildKey: string): Promise<Proposal[]> {
    const rows = await this.store.query<Row>(
      `SELECT * FROM proposals WHERE guild_key = ? AND state IN ${sqlStates([...PROPOSAL_STATES.open, ...PROPOSAL_STATES.placing])} ORDER BY created_at`,
      guildKey,
    );
    return rows.map(toProposal);
  }
}
