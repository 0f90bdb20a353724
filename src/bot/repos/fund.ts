import { randomUUID } from 'node:crypto';
import {
  type CashoutAsk,
  type FeeTerms,
  type NavInputs,
  navOf,
  type StrikeResult,
  shares,
  strike,
} from '../model/fund.js';
import type { BotStore } from '../store/index.js';
import { appendInTx, type LedgerInput } from './ledger.js';

/**
 * The fund's tables (migration 6): contributions, strikes, cash-outs and the withdraw_balance attempts that pay
 * them. Every move that carries money writes its ledger entry in the same transaction (decision 1640's rule).
 */

export interface FundRow {
  guildKey: string;
  openingPriceCents: number;
  units: number;
  highWaterPrice: number;
  feesAccruedCents: number;
  lastStrikeId: string | null;
}

export type ContributionState = 'pending' | 'issued';
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
  createdAt: number;
}

/**
 * A cash-out's life: awaiting_approval (above the tier) → pending (dealt at the next eligible strike) →
 * redeemed (units cancelled, cents owed) → withdrawing (a withdraw_balance attempt open) → withdrawn (cash left
 * the session) → paid (the treasurer paid the member). rejected ends one awaiting approval.
 */
export type CashoutState =
  | 'awaiting_approval'
  | 'pending'
  | 'redeemed'
  | 'withdrawing'
  | 'withdrawn'
  | 'paid'
  | 'rejected';
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

/** A withdraw_balance attempt: sending (record written, call not yet answered) → submitted → completed/failed. */
export type WithdrawalState = 'sending' | 'submitted' | 'unknown' | 'completed' | 'failed' | 'not_sent';
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
  sessions: Array<{ sessionId: string; balanceCents: number; bonusCents: number; retrievedAt: string | null }>;
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
  /** Requests left for a later strike: bets open when they were made have not all settled (decision 1701). */
  deferred: { contributions: number; cashouts: number };
  held?: string;
}

const n = (v: unknown) => Number(v);
const nOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const toContribution = (r: Record<string, unknown>): Contribution => ({
  contributionId: String(r.contribution_id),
  memberId: String(r.member_id),
  amountCents: n(r.amount_cents),
  sessionId: String(r.session_id),
  reference: (r.reference as string | null) ?? null,
  state: r.state as ContributionState,
  strikeId: (r.strike_id as string | null) ?? null,
  units: nOrNull(r.units),
  depositId: (r.deposit_id as string | null) ?? null,
  createdAt: n(r.created_at),
});

const toCashout = (r: Record<string, unknown>): Cashout => ({
  cashoutId: String(r.cashout_id),
  memberId: String(r.member_id),
  ask: JSON.parse(String(r.ask)) as CashoutAsk,
  state: r.state as CashoutState,
  approvedBy: (r.approved_by as string | null) ?? null,
  strikeId: (r.strike_id as string | null) ?? null,
  units: nOrNull(r.units),
  cents: nOrNull(r.cents),
  note: (r.note as string | null) ?? null,
  requestedAt: n(r.requested_at),
});

const toAttempt = (r: Record<string, unknown>): WithdrawalAttempt => ({
  attemptId: String(r.attempt_id),
  cashoutId: String(r.cashout_id),
  guildKey: String(r.guild_key),
  sessionId: String(r.session_id),
  amountCents: n(r.amount_cents),
  state: r.state as WithdrawalState,
  correlationId: (r.correlation_id as string | null) ?? null,
  bookmakerStatus: (r.bookmaker_status as string | null) ?? null,
  gatewayWithdrawalId: (r.gateway_withdrawal_id as string | null) ?? null,
  createdAt: n(r.created_at),
});

const toStrike = (r: Record<string, unknown>): StrikeRecord => ({
  strikeId: String(r.strike_id),
  guildKey: String(r.guild_key),
  dealingKey: String(r.dealing_key),
  at: n(r.at),
  grossNavCents: n(r.gross_nav_cents),
  feeCents: n(r.fee_cents),
  navCents: n(r.nav_cents),
  unitsBefore: n(r.units_before),
  price: n(r.price),
  navAfterCents: n(r.nav_after_cents),
  unitsAfter: n(r.units_after),
  residualCents: n(r.residual_cents),
  inputs: JSON.parse(String(r.inputs)) as StrikeInputs,
  actor: (r.actor as string | null) ?? null,
});

/** Bet states whose money the desk cannot place yet: the strike waits for them (decision 1701). */
export const IN_FLIGHT_BETS = ['sending', 'submitted', 'unknown', 'missing'] as const;
/** Cash-out states whose cents are owed to the member (struck, not yet paid). */
const OWED = "('redeemed', 'withdrawing', 'withdrawn')";

export type StrikeOutcome =
  | { struck: true; strike: StrikeRecord; result: StrikeResult }
  | { struck: false; reason: string; strike?: StrikeRecord };

export class FundRepo {
  constructor(private readonly store: BotStore) {}

  async fund(guildKey: string): Promise<FundRow | undefined> {
    const [r] = await this.store.query('SELECT * FROM funds WHERE guild_key = ?', guildKey);
    return r ? fundOf(r) : undefined;
  }

  /** A contribution, pending until the next strike; the first one opens the fund at its opening price. */
  async recordContribution(c: {
    guildKey: string;
    memberId: string;
    amountCents: number;
    sessionId: string;
    reference: string | null;
    actor: string;
    openingPriceCents: number;
    at: number;
  }): Promise<Contribution> {
    const id = `fc-${randomUUID()}`;
    return this.store.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO funds (guild_key, opening_price_cents, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (guild_key) DO NOTHING`,
        c.guildKey,
        c.openingPriceCents,
        c.at,
        c.at,
      );
      const [row] = await tx.query(
        `INSERT INTO fund_contributions (contribution_id, guild_key, member_id, amount_cents, session_id, reference,
           state, recorded_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) RETURNING *`,
        id,
        c.guildKey,
        c.memberId,
        c.amountCents,
        c.sessionId,
        c.reference,
        c.actor,
        c.at,
        c.at,
      );
      await appendInTx(tx, [
        entry(c.guildKey, c.at, 'fund_contribution', id, c.actor, c.amountCents, {
          memberId: c.memberId,
          sessionId: c.sessionId,
          reference: c.reference,
        }),
      ]);
      return toContribution(row as Record<string, unknown>);
    });
  }

  async requestCashout(c: {
    guildKey: string;
    memberId: string;
    ask: CashoutAsk;
    needsApproval: boolean;
    at: number;
  }): Promise<Cashout> {
    const [row] = await this.store.query(
      `INSERT INTO fund_cashouts (cashout_id, guild_key, member_id, ask, state, requested_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      `fo-${randomUUID()}`,
      c.guildKey,
      c.memberId,
      JSON.stringify(c.ask),
      c.needsApproval ? 'awaiting_approval' : 'pending',
      c.at,
      c.at,
    );
    return toCashout(row as Record<string, unknown>);
  }

  /** The checker's answer on a cash-out above the tier; the member who asked cannot approve their own. */
  async decideCashout(
    cashoutId: string,
    approver: string,
    approve: boolean,
    at: number,
  ): Promise<{ ok: true; cashout: Cashout } | { ok: false; why: 'own' | 'not_waiting' }> {
    const [current] = await this.store.query('SELECT * FROM fund_cashouts WHERE cashout_id = ?', cashoutId);
    if (current?.state !== 'awaiting_approval') return { ok: false, why: 'not_waiting' };
    if (current.member_id === approver) return { ok: false, why: 'own' };
    const [row] = await this.store.query(
      `UPDATE fund_cashouts SET state = ?, approved_by = ?, updated_at = ?
       WHERE cashout_id = ? AND state = 'awaiting_approval' RETURNING *`,
      approve ? 'pending' : 'rejected',
      approver,
      at,
      cashoutId,
    );
    return row ? { ok: true, cashout: toCashout(row) } : { ok: false, why: 'not_waiting' };
  }

  async setCashoutMessage(cashoutId: string, channelId: string, messageId: string): Promise<void> {
    await this.store.query(
      'UPDATE fund_cashouts SET channel_id = ?, message_id = ? WHERE cashout_id = ?',
      channelId,
      messageId,
      cashoutId,
    );
  }

  /** Where a cash-out request was posted (its server, channel and message), for the component guard. */
  async cashoutWhere(
    cashoutId: string,
  ): Promise<{ guildId: string; channelId: string | null; messageId: string | null } | undefined> {
    const [r] = await this.store.query<{ guild_key: string; channel_id: string | null; message_id: string | null }>(
      'SELECT guild_key, channel_id, message_id FROM fund_cashouts WHERE cashout_id = ?',
      cashoutId,
    );
    return r ? { guildId: r.guild_key, channelId: r.channel_id, messageId: r.message_id } : undefined;
  }

  async cashout(cashoutId: string): Promise<Cashout | undefined> {
    const [r] = await this.store.query('SELECT * FROM fund_cashouts WHERE cashout_id = ?', cashoutId);
    return r ? toCashout(r) : undefined;
  }

  async cashouts(guildKey: string, memberId?: string): Promise<Cashout[]> {
    const rows = memberId
      ? await this.store.query(
          'SELECT * FROM fund_cashouts WHERE guild_key = ? AND member_id = ? ORDER BY requested_at',
          guildKey,
          memberId,
        )
      : await this.store.query('SELECT * FROM fund_cashouts WHERE guild_key = ? ORDER BY requested_at', guildKey);
    return rows.map(toCashout);
  }

  async contributions(guildKey: string, memberId?: string): Promise<Contribution[]> {
    const rows = memberId
      ? await this.store.query(
          'SELECT * FROM fund_contributions WHERE guild_key = ? AND member_id = ? ORDER BY created_at',
          guildKey,
          memberId,
        )
      : await this.store.query('SELECT * FROM fund_contributions WHERE guild_key = ? ORDER BY created_at', guildKey);
    return rows.map(toContribution);
  }

  async markDepositMatched(contributionId: string, depositId: string): Promise<void> {
    await this.store.query(
      'UPDATE fund_contributions SET deposit_id = ? WHERE contribution_id = ? AND deposit_id IS NULL',
      depositId,
      contributionId,
    );
  }

  /** Members with units, oldest member first (the order the residual cents follow). */
  async members(guildKey: string): Promise<Array<{ memberId: string; units: number; joinedAt: number }>> {
    const rows = await this.store.query(
      'SELECT member_id, units, joined_at FROM fund_members WHERE guild_key = ? ORDER BY joined_at, member_id',
      guildKey,
    );
    return rows.map((r) => ({ memberId: String(r.member_id), units: n(r.units), joinedAt: n(r.joined_at) }));
  }

  async lastStrike(guildKey: string): Promise<StrikeRecord | undefined> {
    const [r] = await this.store.query(
      'SELECT * FROM fund_strikes WHERE guild_key = ? ORDER BY at DESC, strike_id DESC LIMIT 1',
      guildKey,
    );
    return r ? toStrike(r) : undefined;
  }

  async strikes(guildKey: string, since: number): Promise<StrikeRecord[]> {
    const rows = await this.store.query(
      'SELECT * FROM fund_strikes WHERE guild_key = ? AND at >= ? ORDER BY at, strike_id',
      guildKey,
      since,
    );
    return rows.map(toStrike);
  }

  async hasStrike(guildKey: string, dealingKey: string): Promise<boolean> {
    const rows = await this.store.query(
      'SELECT 1 AS x FROM fund_strikes WHERE guild_key = ? AND dealing_key = ?',
      guildKey,
      dealingKey,
    );
    return rows.length > 0;
  }

  /** Sessions the fund's money is in: those its contributions named and those its bets went through. */
  async sessionsOf(guildKey: string): Promise<string[]> {
    const rows = await this.store.query<{ session_id: string }>(
      `SELECT session_id FROM fund_contributions WHERE guild_key = ?
       UNION SELECT session_id FROM bet_records WHERE guild_key = ?`,
      guildKey,
      guildKey,
    );
    return rows.map((r) => r.session_id).sort();
  }

  /** When the desk last moved money on a session: a bet record's move or a withdrawal attempt's (epoch ms). */
  async lastMoveOn(sessionId: string): Promise<number | undefined> {
    const rows = await this.store.query<{ at: number | null }>(
      `SELECT MAX(updated_at) AS at FROM bet_records WHERE session_id = ?
       UNION ALL SELECT MAX(updated_at) AS at FROM fund_withdrawals WHERE session_id = ?`,
      sessionId,
      sessionId,
    );
    const at = rows.map((r) => (r.at === null ? Number.NaN : Number(r.at))).filter(Number.isFinite);
    return at.length ? Math.max(...at) : undefined;
  }

  /** Another server's bets through one of these sessions (a fund needs sessions of its own), if any. */
  async sharedSession(guildKey: string, sessions: string[]): Promise<string | undefined> {
    if (sessions.length === 0) return undefined;
    const rows = await this.store.query<{ session_id: string }>(
      `SELECT session_id FROM bet_records WHERE guild_key <> ? AND session_id IN (${sessions.map(() => '?').join(', ')}) LIMIT 1`,
      guildKey,
      ...sessions,
    );
    return rows[0]?.session_id;
  }

  /**
   * One strike, in one transaction: the fee, the price, every eligible contribution issued and cash-out
   * redeemed, members' units, the strike row and every ledger entry, or none of it. `dealingKey` is unique per
   * fund, so a scheduled strike runs once whatever crashes or processes race it.
   */
  async strike(s: {
    guildKey: string;
    dealingKey: string;
    at: number;
    actor: string | null;
    sessions: StrikeInputs['sessions'];
    feeRateBps: number;
    /** The fee period of this strike, and of an earlier instant (for strikes recorded without one). */
    feePeriod: string;
    feePeriodOf: (at: number) => string;
    /** Who a crystallised fee is owed to (its cash-out row names them). */
    managerId: string;
  }): Promise<StrikeOutcome> {
    return this.store.transaction(async (tx) => {
      await tx.lock(`fund:${s.guildKey}`);
      const [done] = await tx.query(
        'SELECT * FROM fund_strikes WHERE guild_key = ? AND dealing_key = ?',
        s.guildKey,
        s.dealingKey,
      );
      if (done) return { struck: false, reason: 'already struck', strike: toStrike(done) } as StrikeOutcome;
      const [fundRow] = await tx.query('SELECT * FROM funds WHERE guild_key = ?', s.guildKey);
      if (!fundRow) return { struck: false, reason: 'the fund has no contribution yet' } as StrikeOutcome;
      const fund = fundOf(fundRow);
      const bets = await tx.query<{ state: string; stake_cents: number; payload: string; created_at: number }>(
        `SELECT state, stake_cents, payload, created_at FROM bet_records
         WHERE guild_key = ? AND state IN ('placed', ${IN_FLIGHT_BETS.map((x) => `'${x}'`).join(', ')})`,
        s.guildKey,
      );
      const inFlight = bets.filter((b) => b.state !== 'placed');
      if (inFlight.length > 0) {
        return {
          struck: false,
          reason: `${inFlight.length} bet${inFlight.length === 1 ? ' is' : 's are'} in flight or unresolved (${[...new Set(inFlight.map((b) => b.state))].join(', ')}): the cash they moved is not known yet`,
        } as StrikeOutcome;
      }
      const [flying] = await tx.query<{ c: number }>(
        `SELECT COUNT(*) AS c FROM fund_withdrawals WHERE guild_key = ? AND state IN ('sending', 'submitted', 'unknown')`,
        s.guildKey,
      );
      if (n(flying?.c) > 0) {
        return {
          struck: false,
          reason: 'a withdrawal is in flight: the cash it moved is not known yet',
        } as StrikeOutcome;
      }
      const placed = bets.filter((b) => b.state === 'placed');
      // A bonus bet's stake came from a token, not cash: it costs the fund nothing (decision 1700).
      const openStakeCents = placed.reduce((a, b) => a + (isBonusBet(b.payload) ? 0 : n(b.stake_cents)), 0);
      const oldestOpen = placed.reduce((a, b) => Math.min(a, n(b.created_at)), Number.POSITIVE_INFINITY);
      const pendingIn = (
        await tx.query(
          "SELECT * FROM fund_contributions WHERE guild_key = ? AND state = 'pending' ORDER BY created_at",
          s.guildKey,
        )
      ).map(toContribution);
      const pendingOut = (
        await tx.query(
          "SELECT * FROM fund_cashouts WHERE guild_key = ? AND state = 'pending' ORDER BY requested_at",
          s.guildKey,
        )
      ).map(toCashout);
      const [owed] = await tx.query<{ c: number | null }>(
        `SELECT SUM(cents) AS c FROM fund_cashouts WHERE guild_key = ? AND state IN ${OWED}`,
        s.guildKey,
      );
      // Cash that left a session for a cash-out not yet paid, whole or in parts (decision 1706).
      const [withdrawn] = await tx.query<{ c: number | null }>(
        `SELECT SUM(w.amount_cents) AS c FROM fund_withdrawals w JOIN fund_cashouts c ON c.cashout_id = w.cashout_id
         WHERE w.guild_key = ? AND w.state = 'completed' AND c.state IN ${OWED}`,
        s.guildKey,
      );
      // Dealt only when every bet open when the request was made has settled (decision 1701).
      const eligibleIn = pendingIn.filter((c) => c.createdAt < oldestOpen);
      const eligibleOut = pendingOut.filter((c) => c.requestedAt < oldestOpen);
      const inputs: NavInputs = {
        sessions: s.sessions,
        openStakeCents,
        withdrawnUnpaidCents: n(withdrawn?.c ?? 0),
        owedRedemptionsCents: n(owed?.c ?? 0),
        pendingContributionsCents: pendingIn.reduce((a, c) => a + c.amountCents, 0),
      };
      // The first strike of a new fee period crystallises the accrual (decision 1704).
      const [previous] = fund.lastStrikeId
        ? await tx.query<{ at: number; inputs: string }>(
            'SELECT at, inputs FROM fund_strikes WHERE strike_id = ?',
            fund.lastStrikeId,
          )
        : [];
      const previousInputs = previous ? (JSON.parse(String(previous.inputs)) as StrikeInputs) : undefined;
      const previousPeriod = previous ? (previousInputs?.feePeriod ?? s.feePeriodOf(n(previous.at))) : s.feePeriod;
      const crystallise = fund.units > 0 && previousPeriod !== s.feePeriod;
      // A fund struck before fees had periods charged its fee for good at each strike: that total is owed now.
      const legacyOwed = previous && previousInputs?.feePeriod === undefined ? fund.feesAccruedCents : 0;
      inputs.owedRedemptionsCents += legacyOwed;
      const members = await tx.query('SELECT member_id, units FROM fund_members WHERE guild_key = ?', s.guildKey);
      const fee: FeeTerms = { rateBps: s.feeRateBps, highWaterPrice: fund.highWaterPrice };
      const result = strike({
        nav: navOf(inputs),
        units: fund.units,
        holdings: new Map(members.map((m) => [String(m.member_id), n(m.units)])),
        contributions: eligibleIn.map((c) => ({ id: c.contributionId, memberId: c.memberId, cents: c.amountCents })),
        cashouts: eligibleOut.map((c) => ({ id: c.cashoutId, memberId: c.memberId, ask: c.ask })),
        fee,
        openingPriceCents: fund.openingPriceCents,
        crystallise,
      });
      // Before the first units, money nobody contributed is for the treasurer to account for, not a strike to record.
      if (result.held && fund.units === 0) return { struck: false, reason: result.held } as StrikeOutcome;
      const strikeId = `fs-${randomUUID()}`;
      const dealt = !result.held;
      const unitsAfter = dealt ? result.unitsAfter : fund.units;
      const navAfter = dealt ? result.navAfterCents : result.navCents;
      const held = [...result.holdings].filter(([, u]) => u > 0).map(([memberId, units]) => ({ memberId, units }));
      const residual = shares(held, { navCents: navAfter, units: unitsAfter }).residualCents;
      const feeOwed = {
        accruedCents: result.feeCents,
        crystallisedCents: result.crystallisedCents,
        accruedAfterCents: result.accruedAfterCents,
        highWaterPrice: result.highWaterPrice,
        ...(legacyOwed > 0 ? { chargedBeforeCents: legacyOwed } : {}),
      };
      const recorded: StrikeInputs = {
        ...inputs,
        feesAccruedCents: fund.feesAccruedCents,
        feePeriod: s.feePeriod,
        fee: feeOwed,
        sessions: s.sessions,
        openBets: placed.length,
        deferred: {
          contributions: dealt ? pendingIn.length - eligibleIn.length : pendingIn.length,
          cashouts: dealt ? pendingOut.length - eligibleOut.length : pendingOut.length,
        },
        ...(result.held ? { held: result.held } : {}),
      };
      const [row] = await tx.query(
        `INSERT INTO fund_strikes (strike_id, guild_key, dealing_key, at, gross_nav_cents, fee_cents, nav_cents,
           units_before, price, nav_after_cents, units_after, residual_cents, inputs, actor)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        strikeId,
        s.guildKey,
        s.dealingKey,
        s.at,
        result.grossNavCents,
        result.feeCents,
        result.navCents,
        result.unitsBefore,
        result.price,
        navAfter,
        unitsAfter,
        residual,
        JSON.stringify(recorded),
        s.actor,
      );
      const entries: LedgerInput[] = [
        entry(s.guildKey, s.at, 'fund_strike', strikeId, s.actor, result.navCents, {
          dealingKey: s.dealingKey,
          price: result.price,
          unitsBefore: result.unitsBefore,
          navAfterCents: navAfter,
          unitsAfter,
          residualCents: residual,
          inputs: recorded,
        }),
      ];
      if (result.feeCents > 0 || fund.feesAccruedCents > 0) {
        const owedNow = result.crystallisedCents + legacyOwed;
        const feeCashoutId = owedNow > 0 ? `fee-${strikeId}` : null;
        entries.push(
          entry(s.guildKey, s.at, 'fund_fee', strikeId, null, result.feeCents, { ...feeOwed, feeCashoutId }),
        );
        // A crystallised fee is owed to the manager as a cash-out already struck: withdrawn and paid like one.
        if (feeCashoutId) {
          await tx.query(
            `INSERT INTO fund_cashouts (cashout_id, guild_key, member_id, ask, state, strike_id, units, cents,
               requested_at, updated_at)
             VALUES (?, ?, ?, ?, 'redeemed', ?, 0, ?, ?, ?)`,
            feeCashoutId,
            s.guildKey,
            s.managerId,
            JSON.stringify({ kind: 'fee' } satisfies CashoutAsk),
            strikeId,
            owedNow,
            s.at,
            s.at,
          );
        }
      }
      if (dealt) {
        for (const d of result.issued) {
          await tx.query(
            `UPDATE fund_contributions SET state = 'issued', strike_id = ?, units = ?, updated_at = ?
             WHERE contribution_id = ? AND state = 'pending'`,
            strikeId,
            d.units,
            s.at,
            d.id,
          );
          entries.push(entry(s.guildKey, s.at, 'fund_issue', d.id, d.memberId, d.cents, { strikeId, units: d.units }));
        }
        for (const d of result.redeemed) {
          await tx.query(
            `UPDATE fund_cashouts SET state = 'redeemed', strike_id = ?, units = ?, cents = ?, updated_at = ?
             WHERE cashout_id = ? AND state = 'pending'`,
            strikeId,
            d.units,
            d.cents,
            s.at,
            d.id,
          );
          entries.push(
            entry(s.guildKey, s.at, 'fund_redemption', d.id, d.memberId, d.cents, { strikeId, units: d.units }),
          );
        }
        for (const memberId of new Set([...result.issued, ...result.redeemed].map((d) => d.memberId))) {
          await tx.query(
            `INSERT INTO fund_members (guild_key, member_id, units, joined_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (guild_key, member_id) DO UPDATE SET units = excluded.units`,
            s.guildKey,
            memberId,
            result.holdings.get(memberId) ?? 0,
            s.at,
          );
        }
      }
      await tx.query(
        `UPDATE funds SET units = ?, high_water_price = ?, fees_accrued_cents = ?, last_strike_id = ?, updated_at = ?
         WHERE guild_key = ?`,
        unitsAfter,
        result.highWaterPrice,
        result.accruedAfterCents,
        strikeId,
        s.at,
        s.guildKey,
      );
      await appendInTx(tx, entries);
      return { struck: true, strike: toStrike(row as Record<string, unknown>), result } as StrikeOutcome;
    });
  }

  /** Cash-outs struck and waiting for their withdrawal, oldest first. */
  async redeemedWaiting(guildKey?: string): Promise<Array<Cashout & { guildKey: string }>> {
    const rows = guildKey
      ? await this.store.query(
          "SELECT * FROM fund_cashouts WHERE state = 'redeemed' AND guild_key = ? ORDER BY requested_at",
          guildKey,
        )
      : await this.store.query("SELECT * FROM fund_cashouts WHERE state = 'redeemed' ORDER BY requested_at");
    return rows.map((r) => ({ ...toCashout(r), guildKey: String(r.guild_key) }));
  }

  async setCashoutNote(cashoutId: string, note: string | null): Promise<void> {
    await this.store.query('UPDATE fund_cashouts SET note = ? WHERE cashout_id = ?', note, cashoutId);
  }

  /**
   * Writes the withdrawal attempt before anything leaves the process: the cash-out moves to withdrawing and the
   * attempt is `sending`, with its ledger entry, in one transaction. Undefined when the cash-out has moved on.
   */
  /** What the cash-out's completed attempts have taken from sessions so far, in cents. */
  async withdrawnSoFar(cashoutId: string): Promise<number> {
    const [row] = await this.store.query<{ c: number | null }>(
      "SELECT SUM(amount_cents) AS c FROM fund_withdrawals WHERE cashout_id = ? AND state = 'completed'",
      cashoutId,
    );
    return n(row?.c ?? 0);
  }

  /** An attempt for `amountCents` (the whole cash-out when omitted, else one part of what is left). */
  async beginWithdrawal(c: {
    cashoutId: string;
    sessionId: string;
    at: number;
    amountCents?: number;
  }): Promise<WithdrawalAttempt | undefined> {
    return this.store.transaction(async (tx) => {
      const [co] = await tx.query(
        `UPDATE fund_cashouts SET state = 'withdrawing', note = NULL, updated_at = ?
         WHERE cashout_id = ? AND state = 'redeemed' RETURNING *`,
        c.at,
        c.cashoutId,
      );
      if (!co) return undefined;
      const [row] = await tx.query(
        `INSERT INTO fund_withdrawals (attempt_id, cashout_id, guild_key, session_id, amount_cents, state, created_at,
           updated_at) VALUES (?, ?, ?, ?, ?, 'sending', ?, ?) RETURNING *`,
        `fw-${randomUUID()}`,
        c.cashoutId,
        co.guild_key,
        c.sessionId,
        c.amountCents ?? co.cents,
        c.at,
        c.at,
      );
      const attempt = toAttempt(row as Record<string, unknown>);
      await appendInTx(tx, [
        entry(attempt.guildKey, c.at, 'fund_withdrawal', attempt.attemptId, null, attempt.amountCents, {
          cashoutId: c.cashoutId,
          sessionId: c.sessionId,
          from: null,
          to: 'sending',
        }),
      ]);
      return attempt;
    });
  }

  /**
   * Moves an attempt from one of `from` to `to` with its ledger entry; a final failure puts the cash-out back
   * to redeemed (a new attempt may be made: nothing left the session), a completion makes it withdrawn.
   */
  async moveWithdrawal(
    attemptId: string,
    from: readonly WithdrawalState[],
    to: WithdrawalState,
    set: { correlationId?: string; bookmakerStatus?: string; gatewayWithdrawalId?: string; note?: string },
    at: number,
  ): Promise<WithdrawalAttempt | undefined> {
    return this.store.transaction(async (tx) => {
      const [cur] = await tx.query('SELECT * FROM fund_withdrawals WHERE attempt_id = ?', attemptId);
      if (!cur || !from.includes(cur.state as WithdrawalState)) return undefined;
      const [row] = await tx.query(
        `UPDATE fund_withdrawals SET state = ?, correlation_id = COALESCE(?, correlation_id),
           bookmaker_status = COALESCE(?, bookmaker_status), gateway_withdrawal_id = COALESCE(?, gateway_withdrawal_id),
           note = COALESCE(?, note), updated_at = ? WHERE attempt_id = ? AND state = ? RETURNING *`,
        to,
        set.correlationId ?? null,
        set.bookmakerStatus ?? null,
        set.gatewayWithdrawalId ?? null,
        set.note ?? null,
        at,
        attemptId,
        cur.state,
      );
      if (!row) return undefined;
      const a = toAttempt(row);
      if (to === 'completed') {
        // Withdrawn once its parts add up to what is owed; until then back to redeemed for the next part.
        const [sum] = await tx.query<{ c: number | null; owed: number }>(
          `SELECT (SELECT SUM(amount_cents) FROM fund_withdrawals WHERE cashout_id = ? AND state = 'completed') AS c,
             (SELECT cents FROM fund_cashouts WHERE cashout_id = ?) AS owed`,
          a.cashoutId,
          a.cashoutId,
        );
        const whole = n(sum?.c ?? 0) >= n(sum?.owed ?? 0);
        await tx.query(
          `UPDATE fund_cashouts SET state = ?, note = ?, updated_at = ? WHERE cashout_id = ? AND state = 'withdrawing'`,
          whole ? 'withdrawn' : 'redeemed',
          whole ? null : `part withdrawn: $${(n(sum?.c ?? 0) / 100).toFixed(2)} of $${(n(sum?.owed) / 100).toFixed(2)}`,
          at,
          a.cashoutId,
        );
      } else if (to === 'failed' || to === 'not_sent') {
        await tx.query(
          "UPDATE fund_cashouts SET state = 'redeemed', note = ?, updated_at = ? WHERE cashout_id = ? AND state = 'withdrawing'",
          set.note ?? `the withdrawal ${to === 'failed' ? 'failed' : 'was not sent'}; tried again at the next check`,
          at,
          a.cashoutId,
        );
      }
      await appendInTx(tx, [
        entry(a.guildKey, at, 'fund_withdrawal', attemptId, null, a.amountCents, {
          cashoutId: a.cashoutId,
          sessionId: a.sessionId,
          from: cur.state,
          to,
          ...(a.correlationId ? { correlationId: a.correlationId } : {}),
          ...(a.gatewayWithdrawalId ? { withdrawalId: a.gatewayWithdrawalId } : {}),
          ...(a.bookmakerStatus ? { bookmakerStatus: a.bookmakerStatus } : {}),
        }),
      ]);
      return a;
    });
  }

  async openWithdrawals(): Promise<WithdrawalAttempt[]> {
    const rows = await this.store.query(
      "SELECT * FROM fund_withdrawals WHERE state IN ('sending', 'submitted', 'unknown') ORDER BY created_at",
    );
    return rows.map(toAttempt);
  }

  async withdrawalsOf(cashoutId: string): Promise<WithdrawalAttempt[]> {
    const rows = await this.store.query(
      'SELECT * FROM fund_withdrawals WHERE cashout_id = ? ORDER BY created_at',
      cashoutId,
    );
    return rows.map(toAttempt);
  }

  /** Gateway withdrawal ids already matched to an attempt (each pays one cash-out only). */
  /** The desk's withdrawals found at the gateway, by the gateway's id: the cash-out each paid and for whom. */
  async withdrawalsByGatewayId(
    guildKey: string,
  ): Promise<Map<string, { cashoutId: string; memberId: string; fee: boolean; state: WithdrawalState }>> {
    const rows = await this.store.query<{
      gateway_withdrawal_id: string;
      cashout_id: string;
      member_id: string;
      ask: string;
      state: WithdrawalState;
    }>(
      `SELECT w.gateway_withdrawal_id, w.cashout_id, c.member_id, c.ask, w.state FROM fund_withdrawals w
       JOIN fund_cashouts c ON c.cashout_id = w.cashout_id
       WHERE w.guild_key = ? AND w.gateway_withdrawal_id IS NOT NULL`,
      guildKey,
    );
    return new Map(
      rows.map((r) => [
        r.gateway_withdrawal_id,
        {
          cashoutId: r.cashout_id,
          memberId: r.member_id,
          fee: (JSON.parse(r.ask) as CashoutAsk).kind === 'fee',
          state: r.state,
        },
      ]),
    );
  }

  async matchedWithdrawalIds(): Promise<Set<string>> {
    const rows = await this.store.query<{ id: string }>(
      'SELECT gateway_withdrawal_id AS id FROM fund_withdrawals WHERE gateway_withdrawal_id IS NOT NULL',
    );
    return new Set(rows.map((r) => r.id));
  }

  /** The treasurer paid the member: withdrawn → paid, with its ledger entry. */
  async markPaid(cashoutId: string, actor: string, at: number): Promise<Cashout | undefined> {
    return this.store.transaction(async (tx) => {
      const [row] = await tx.query(
        `UPDATE fund_cashouts SET state = 'paid', paid_by = ?, updated_at = ?
         WHERE cashout_id = ? AND state = 'withdrawn' RETURNING *`,
        actor,
        at,
        cashoutId,
      );
      if (!row) return undefined;
      const c = toCashout(row);
      await appendInTx(tx, [
        entry(String(row.guild_key), at, 'fund_paid', cashoutId, actor, c.cents, { memberId: c.memberId }),
      ]);
      return c;
    });
  }
}

function fundOf(r: Record<string, unknown>): FundRow {
  return {
    guildKey: String(r.guild_key),
    openingPriceCents: n(r.opening_price_cents),
    units: n(r.units),
    highWaterPrice: n(r.high_water_price),
    feesAccruedCents: n(r.fees_accrued_cents),
    lastStrikeId: (r.last_strike_id as string | null) ?? null,
  };
}

function isBonusBet(payload: string): boolean {
  try {
    return (JSON.parse(payload) as { useBonusBet?: boolean }).useBonusBet === true;
  } catch {
    return false;
  }
}

function entry(
  guildKey: string,
  at: number,
  kind: LedgerInput['kind'],
  ref: string,
  actor: string | null,
  amountCents: number | null,
  data: Record<string, unknown>,
): LedgerInput {
  return { at, guildKey, kind, ref, actor, amountCents, data };
}
