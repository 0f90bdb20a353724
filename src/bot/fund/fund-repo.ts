import { randomUUID } from 'node:crypto';
import { fundLockKey } from '../betting/index.js';
import { appendInTx, Ledger } from '../ledger/index.js';
import { BET_STATES, EXPOSED, isFundBet } from '../model/bet-states.js';
import { formatMoney } from '../model/money.js';
import type { BotStore, Tx } from '../store/index.js';
import { type CashoutAsk, owedByStrike, type StrikeResult } from './model/fund.js';
import type { FundRowsAndEntries } from './model/fund-checks.js';
import {
  accountName,
  type Cashout,
  type Contribution,
  type FundAccount,
  type StrikeRecord,
  type WithdrawalAttempt,
} from './model/fund-records.js';
import {
  CASHOUT_MOVES,
  CASHOUT_UNDEALT,
  type CashoutMove,
  CONTRIBUTION_MOVES,
  isIn,
  STATES,
  sqlList,
  WITHDRAWAL_FOLLOWED,
  WITHDRAWAL_IN_FLIGHT,
  WITHDRAWAL_MOVES,
  type WithdrawalMove,
  type WithdrawalState,
} from './model/fund-states.js';
import {
  entry,
  type FundRow,
  fundOf,
  isBonusBet,
  n,
  toAccount,
  toAttempt,
  toCashout,
  toContribution,
  toStrike,
} from './rows.js';
import { applyDeal, loadSnapshot, planDeal, type StrikeRequest } from './strike.js';

/**
 * The fund's tables (migration 6): contributions, strikes, cash-outs and the withdraw_balance attempts that pay
 * them. Every move that carries money writes its ledger entry in the same transaction (decision 1640's rule).
 */

/** Bet states whose money the desk cannot place yet: the strike waits for them (decision 1701). */

export type StrikeOutcome =
  | { struck: true; strike: StrikeRecord; result: StrikeResult }
  | { struck: false; reason: string; strike?: StrikeRecord };

export type { FundRow } from './rows.js';
export { IN_FLIGHT_BETS } from './rows.js';

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
    /** Already matched: the opening bank found in an account as it joined the fund (decision 1801). */
    depositId?: string;
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
           state, deposit_id, recorded_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        id,
        c.guildKey,
        c.memberId,
        c.amountCents,
        c.sessionId,
        c.reference,
        CONTRIBUTION_MOVES.record.to,
        c.depositId ?? null,
        c.actor,
        c.at,
        c.at,
      );
      await appendInTx(tx, [
        entry(c.guildKey, c.at, 'fund_contribution', id, c.actor, c.amountCents, {
          memberId: c.memberId,
          sessionId: c.sessionId,
          reference: c.reference,
          ...(c.depositId ? { depositId: c.depositId } : {}),
        }),
      ]);
      return toContribution(row as Record<string, unknown>);
    });
  }

  /**
   * A member's ask, written with its ledger entry. `undealtLimit`: refused (undefined) when the member already has
   * an ask not yet dealt (one cash-out per member per strike); checked in the same transaction as the write.
   */
  async requestCashout(c: {
    guildKey: string;
    memberId: string;
    ask: CashoutAsk;
    needsApproval: boolean;
    at: number;
  }): Promise<Cashout | undefined> {
    const move = c.needsApproval ? CASHOUT_MOVES.askAboveTier : CASHOUT_MOVES.askBelowTier;
    return this.store.transaction(async (tx) => {
      await tx.lock(`fund:${c.guildKey}`);
      const open = await tx.query(
        `SELECT cashout_id FROM fund_cashouts WHERE guild_key = ? AND member_id = ? AND state IN ${sqlList(CASHOUT_UNDEALT)}`,
        c.guildKey,
        c.memberId,
      );
      if (open.length > 0) return undefined;
      const [row] = await tx.query(
        `INSERT INTO fund_cashouts (cashout_id, guild_key, member_id, ask, state, requested_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        `fo-${randomUUID()}`,
        c.guildKey,
        c.memberId,
        JSON.stringify(c.ask),
        move.to,
        c.at,
        c.at,
      );
      const cashout = toCashout(row as Record<string, unknown>);
      await appendInTx(tx, [
        entry(c.guildKey, c.at, move.ledger, cashout.cashoutId, c.memberId, null, {
          from: null,
          to: move.to,
          ask: c.ask,
        }),
      ]);
      return cashout;
    });
  }

  /** Asks of a member since an instant (the dealing period), any state: the approval tier counts them together. */
  async asksSince(guildKey: string, memberId: string, since: number): Promise<Cashout[]> {
    const rows = await this.store.query(
      `SELECT * FROM fund_cashouts WHERE guild_key = ? AND member_id = ? AND requested_at >= ?
       AND state NOT IN ${sqlList([...STATES.cashoutRejected, ...STATES.cashoutCancelled])} ORDER BY requested_at`,
      guildKey,
      memberId,
      since,
    );
    return rows.map(toCashout);
  }

  /** Applies one named move of a cash-out with its ledger entry, in the caller's transaction. */
  async #moveCashout(
    tx: Parameters<Parameters<BotStore['transaction']>[0]>[0],
    cashoutId: string,
    move: CashoutMove,
    at: number,
    actor: string | null,
    set: { approvedBy?: string; note?: string | null; paidBy?: string } = {},
    data: Record<string, unknown> = {},
  ): Promise<Cashout | undefined> {
    const t = CASHOUT_MOVES[move];
    const [row] = await tx.query(
      `UPDATE fund_cashouts SET state = ?, approved_by = COALESCE(?, approved_by), paid_by = COALESCE(?, paid_by),
         note = ${set.note === undefined ? 'note' : '?'}, updated_at = ?
       WHERE cashout_id = ? AND state IN ${sqlList(t.from)} RETURNING *`,
      ...[
        t.to,
        set.approvedBy ?? null,
        set.paidBy ?? null,
        ...(set.note === undefined ? [] : [set.note]),
        at,
        cashoutId,
      ],
    );
    if (!row) return undefined;
    const c = toCashout(row);
    if (t.ledger !== 'fund_withdrawal') {
      await appendInTx(tx, [
        entry(String(row.guild_key), at, t.ledger, cashoutId, actor, c.cents, {
          memberId: c.memberId,
          move,
          to: t.to,
          ...data,
        }),
      ]);
    }
    return c;
  }

  /** The checker's answer on a cash-out above the tier (ledgered); the member who asked cannot approve their own. */
  async decideCashout(
    cashoutId: string,
    approver: string,
    approve: boolean,
    at: number,
  ): Promise<{ ok: true; cashout: Cashout } | { ok: false; why: 'own' | 'not_waiting' }> {
    const [current] = await this.store.query('SELECT * FROM fund_cashouts WHERE cashout_id = ?', cashoutId);
    if (!current || !isIn(STATES.cashoutAwaitingApproval)({ state: String(current.state) }))
      return { ok: false, why: 'not_waiting' };
    if (current.member_id === approver) return { ok: false, why: 'own' };
    const c = await this.store.transaction((tx) =>
      this.#moveCashout(tx, cashoutId, approve ? 'approve' : 'reject', at, approver, { approvedBy: approver }),
    );
    return c ? { ok: true, cashout: c } : { ok: false, why: 'not_waiting' };
  }

  /** A treasurer cancels a contribution or a cash-out not yet dealt, with a reason (ledgered). */
  async cancel(
    guildKey: string,
    id: string,
    actor: string,
    reason: string,
    at: number,
  ): Promise<{ kind: 'contribution'; contribution: Contribution } | { kind: 'cashout'; cashout: Cashout } | undefined> {
    return this.store.transaction(async (tx) => {
      await tx.lock(`fund:${guildKey}`);
      if (id.startsWith('fc-')) {
        const t = CONTRIBUTION_MOVES.cancel;
        const [row] = await tx.query(
          // Its deposit, if one was matched, is no longer explained by it: the cash bridge asks about it again. The
          // opening bank is not cancelled here: it is the account's cash as it joined, not a deposit.
          `UPDATE fund_contributions SET state = ?, note = ?, deposit_id = NULL, updated_at = ?
           WHERE contribution_id = ? AND guild_key = ? AND state IN ${sqlList(t.from)}
           AND (deposit_id IS NULL OR deposit_id NOT LIKE 'opening:%') RETURNING *`,
          t.to,
          `cancelled: ${reason}`,
          at,
          id,
          guildKey,
        );
        if (!row) return undefined;
        const c = toContribution(row);
        await appendInTx(tx, [
          entry(guildKey, at, t.ledger, id, actor, c.amountCents, { memberId: c.memberId, reason, to: t.to }),
        ]);
        return { kind: 'contribution' as const, contribution: c };
      }
      const [own] = await tx.query(
        'SELECT 1 AS x FROM fund_cashouts WHERE cashout_id = ? AND guild_key = ?',
        id,
        guildKey,
      );
      if (!own) return undefined;
      const c = await this.#moveCashout(tx, id, 'cancel', at, actor, { note: `cancelled: ${reason}` }, { reason });
      return c ? { kind: 'cashout' as const, cashout: c } : undefined;
    });
  }

  /** The fund's accounts, oldest first. */
  async accounts(guildKey: string): Promise<FundAccount[]> {
    const rows = await this.store.query(
      'SELECT * FROM fund_accounts WHERE guild_key = ? ORDER BY added_at, bookie, username',
      guildKey,
    );
    return rows.map(toAccount);
  }

  /** The fund an account belongs to, if any. */
  async accountOwner(bookie: string, username: string): Promise<FundAccount | undefined> {
    const [r] = await this.store.query(
      'SELECT * FROM fund_accounts WHERE bookie = ? AND username = ?',
      bookie,
      username,
    );
    return r ? toAccount(r) : undefined;
  }

  /**
   * Adds an account to a fund (ledgered), with the opening bank found in it recorded in the same transaction as a
   * contribution already matched. Undefined when the account belongs to a fund already (the primary key decides,
   * so two servers adding it at once cannot both win).
   */
  async addAccount(a: {
    guildKey: string;
    bookie: string;
    username: string;
    floatCents: number;
    actor: string;
    at: number;
    bridgeFrom: number;
    cashCents: number;
    opening?: { memberId: string; sessionId: string; cents: number; openingPriceCents: number };
  }): Promise<{ account: FundAccount; opening?: Contribution } | undefined> {
    return this.store.transaction(async (tx) => {
      const [row] = await tx.query(
        `INSERT INTO fund_accounts (bookie, username, guild_key, float_cents, added_by, added_at, bridge_from)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (bookie, username) DO NOTHING RETURNING *`,
        a.bookie,
        a.username,
        a.guildKey,
        a.floatCents,
        a.actor,
        a.at,
        a.bridgeFrom,
      );
      if (!row) return undefined;
      const account = toAccount(row);
      await appendInTx(tx, [
        entry(a.guildKey, a.at, 'fund_account', accountName(a), a.actor, a.cashCents, {
          action: 'add',
          floatCents: a.floatCents,
          openingCents: a.opening?.cents ?? 0,
        }),
      ]);
      if (!a.opening) return { account };
      await tx.query(
        `INSERT INTO funds (guild_key, opening_price_cents, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (guild_key) DO NOTHING`,
        a.guildKey,
        a.opening.openingPriceCents,
        a.at,
        a.at,
      );
      const id = `fc-${randomUUID()}`;
      const [c] = await tx.query(
        `INSERT INTO fund_contributions (contribution_id, guild_key, member_id, amount_cents, session_id, reference,
           state, deposit_id, recorded_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        id,
        a.guildKey,
        a.opening.memberId,
        a.opening.cents,
        a.opening.sessionId,
        `opening bank of ${accountName(a)}`,
        CONTRIBUTION_MOVES.record.to,
        `opening:${accountName(a)}:${a.at}`,
        a.actor,
        a.at,
        a.at,
      );
      await appendInTx(tx, [
        entry(a.guildKey, a.at, 'fund_contribution', id, a.actor, a.opening.cents, {
          memberId: a.opening.memberId,
          sessionId: a.opening.sessionId,
          reference: 'opening bank',
          account: accountName(a),
        }),
      ]);
      return { account, opening: toContribution(c as Record<string, unknown>) };
    });
  }

  /**
   * Removes an account from the fund (ledgered), only while nothing of the fund's is in it but cash the service has
   * checked: no open fund bet through it and no withdrawal in flight from it. Serialized with every claim through the
   * account (decision 1950), so no fund bet can be claimed on it between the check and the removal. Returns what is
   * still there when it refuses.
   */
  async removeAccount(
    guildKey: string,
    a: { bookie: string; username: string; sessionIds: readonly string[] },
    actor: string,
    at: number,
  ): Promise<{ removed: boolean; openBets: number; withdrawals: number }> {
    const { bookie, username } = a;
    const account = accountName(a);
    return this.store.serialize(fundLockKey(guildKey), () =>
      this.store.transaction(async (tx) => {
        const sessions = a.sessionIds.length > 0 ? a.sessionIds : [''];
        const marks = sessions.map(() => '?').join(', ');
        const [since] = await tx.query<{ added_at: number }>(
          'SELECT added_at FROM fund_accounts WHERE guild_key = ? AND bookie = ? AND username = ?',
          guildKey,
          bookie,
          username,
        );
        if (!since) return { removed: false, openBets: 0, withdrawals: 0 };
        const [bets] = await tx.query<{ c: number }>(
          `SELECT COUNT(*) AS c FROM bet_records WHERE state IN ${sqlList(EXPOSED)}
           AND ((fund_decided = 1 AND fund_key = ? AND fund_account = ?)
             OR (fund_decided = 0 AND guild_key = ? AND created_at >= ? AND session_id IN (${marks})))`,
          guildKey,
          account,
          guildKey,
          n(since.added_at),
          ...sessions,
        );
        const [flying] = await tx.query<{ c: number }>(
          `SELECT COUNT(*) AS c FROM fund_withdrawals WHERE guild_key = ? AND state IN ${sqlList(WITHDRAWAL_IN_FLIGHT)}
           AND session_id IN (${marks})`,
          guildKey,
          ...sessions,
        );
        const openBets = n(bets?.c);
        const withdrawals = n(flying?.c);
        if (openBets > 0 || withdrawals > 0) return { removed: false, openBets, withdrawals };
        const gone = await tx.query(
          'DELETE FROM fund_accounts WHERE guild_key = ? AND bookie = ? AND username = ? RETURNING bookie',
          guildKey,
          bookie,
          username,
        );
        if (gone.length === 0) return { removed: false, openBets, withdrawals };
        await appendInTx(tx, [entry(guildKey, at, 'fund_account', account, actor, null, { action: 'remove' })]);
        return { removed: true, openBets, withdrawals };
      }),
    );
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

  /** When the fund was first struck (undefined: never): reports of periods before it have nothing to say. */
  async firstStrikeAt(guildKey: string): Promise<number | undefined> {
    const [row] = await this.store.query<{ at: number | null }>(
      'SELECT MIN(at) AS at FROM fund_strikes WHERE guild_key = ?',
      guildKey,
    );
    return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
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

  /**
   * One strike, in one transaction: the fee, the price, every eligible contribution issued and cash-out
   * redeemed, members' units, the strike row and every ledger entry, or none of it. `dealingKey` is unique per
   * fund, so a scheduled strike runs once whatever crashes or processes race it.
   */
  async strike(s: StrikeRequest): Promise<StrikeOutcome> {
    return this.store.transaction(async (tx) => {
      await tx.lock(`fund:${s.guildKey}`);
      const [done] = await tx.query(
        'SELECT * FROM fund_strikes WHERE guild_key = ? AND dealing_key = ?',
        s.guildKey,
        s.dealingKey,
      );
      if (done) return { struck: false, reason: 'already struck', strike: toStrike(done) };
      const [fundRow] = await tx.query('SELECT * FROM funds WHERE guild_key = ?', s.guildKey);
      if (!fundRow) return { struck: false, reason: 'the fund has no contribution yet' };
      const credited = await creditFloats(tx, s, new Set(s.settledUnread ?? []));
      if (credited.waiting > 0) {
        return {
          struck: false,
          reason: `${credited.waiting} bet${credited.waiting === 1 ? '' : 's'} outside the fund through its accounts settled at the book and not read by the desk yet: their return is the float's, not the fund's`,
        };
      }
      const snapshot = await loadSnapshot(tx, s, fundOf(fundRow), credited.byAccount);
      const deal = planDeal(snapshot, s, `fs-${randomUUID()}`);
      if ('refused' in deal) return { struck: false, reason: deal.refused };
      const row = await applyDeal(tx, s, deal);
      return { struck: true, strike: toStrike(row), result: deal.result };
    });
  }

  /** Cash-outs struck and waiting for their withdrawal, oldest first. */
  async redeemedWaiting(guildKey: string): Promise<Array<Cashout & { guildKey: string }>> {
    const rows = await this.store.query(
      `SELECT * FROM fund_cashouts WHERE state IN ${sqlList(STATES.cashoutRedeemed)} AND guild_key = ? ORDER BY requested_at`,
      guildKey,
    );
    return rows.map((r) => ({ ...toCashout(r), guildKey: String(r.guild_key) }));
  }

  async setCashoutNote(cashoutId: string, note: string | null): Promise<void> {
    await this.store.query('UPDATE fund_cashouts SET note = ? WHERE cashout_id = ?', note, cashoutId);
  }

  /** What the cash-out's completed attempts have taken from sessions so far, in cents. */
  async withdrawnSoFar(cashoutId: string): Promise<number> {
    const [row] = await this.store.query<{ c: number | null }>(
      `SELECT SUM(amount_cents) AS c FROM fund_withdrawals WHERE cashout_id = ? AND state IN ${sqlList(STATES.withdrawalCompleted)}`,
      cashoutId,
    );
    return n(row?.c ?? 0);
  }

  /**
   * Writes the withdrawal attempt before anything leaves the process: the cash-out moves to withdrawing and the
   * attempt is `sending`, with its ledger entry, in one transaction. Undefined when the cash-out has moved on.
   */
  async beginWithdrawal(c: {
    cashoutId: string;
    sessionId: string;
    at: number;
    amountCents: number;
  }): Promise<WithdrawalAttempt | undefined> {
    const start = CASHOUT_MOVES.startWithdrawal;
    return this.store.transaction(async (tx) => {
      const [co] = await tx.query(
        `UPDATE fund_cashouts SET state = ?, note = NULL, updated_at = ?
         WHERE cashout_id = ? AND state IN ${sqlList(start.from)} RETURNING *`,
        start.to,
        c.at,
        c.cashoutId,
      );
      if (!co) return undefined;
      const [row] = await tx.query(
        `INSERT INTO fund_withdrawals (attempt_id, cashout_id, guild_key, session_id, amount_cents, state, created_at,
           updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        `fw-${randomUUID()}`,
        c.cashoutId,
        co.guild_key,
        c.sessionId,
        c.amountCents,
        WITHDRAWAL_MOVES.begin.to,
        c.at,
        c.at,
      );
      const attempt = toAttempt(row as Record<string, unknown>);
      await appendInTx(tx, [
        entry(attempt.guildKey, c.at, WITHDRAWAL_MOVES.begin.ledger, attempt.attemptId, null, attempt.amountCents, {
          cashoutId: c.cashoutId,
          sessionId: c.sessionId,
          move: 'begin',
          from: null,
          to: WITHDRAWAL_MOVES.begin.to,
        }),
      ]);
      return attempt;
    });
  }

  /**
   * One named move of an attempt (WITHDRAWAL_MOVES) with its ledger entry; its cash-out follows in the same
   * transaction: a completion makes it withdrawn once the parts add up (else back to redeemed for the next part),
   * a failure or an attempt never sent puts it back to redeemed. `actor`: a treasurer settling one by hand.
   */
  async moveWithdrawal(
    attemptId: string,
    move: WithdrawalMove,
    set: { correlationId?: string; bookmakerStatus?: string; gatewayWithdrawalId?: string; note?: string },
    at: number,
    actor: string | null = null,
  ): Promise<WithdrawalAttempt | undefined> {
    const t = WITHDRAWAL_MOVES[move];
    return this.store.transaction(async (tx) => {
      const [cur] = await tx.query('SELECT * FROM fund_withdrawals WHERE attempt_id = ?', attemptId);
      if (!cur || !(t.from as readonly string[]).includes(String(cur.state))) return undefined;
      const [row] = await tx.query(
        `UPDATE fund_withdrawals SET state = ?, correlation_id = COALESCE(?, correlation_id),
           bookmaker_status = COALESCE(?, bookmaker_status), gateway_withdrawal_id = COALESCE(?, gateway_withdrawal_id),
           note = COALESCE(?, note), updated_at = ? WHERE attempt_id = ? AND state = ? RETURNING *`,
        t.to,
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
      if (t.to === 'completed') {
        const [sum] = await tx.query<{ c: number | null; owed: number }>(
          `SELECT (SELECT SUM(amount_cents) FROM fund_withdrawals WHERE cashout_id = ? AND state IN ${sqlList(STATES.withdrawalCompleted)}) AS c,
             (SELECT cents FROM fund_cashouts WHERE cashout_id = ?) AS owed`,
          a.cashoutId,
          a.cashoutId,
        );
        const whole = n(sum?.c ?? 0) >= n(sum?.owed ?? 0);
        await this.#moveCashout(tx, a.cashoutId, whole ? 'withdrawnWhole' : 'backToRedeemed', at, actor, {
          note: whole ? null : `part withdrawn: ${formatMoney(n(sum?.c ?? 0))} of ${formatMoney(n(sum?.owed))}`,
        });
      } else if (t.to === 'failed' || t.to === 'not_sent') {
        await this.#moveCashout(tx, a.cashoutId, 'backToRedeemed', at, actor, {
          note:
            set.note ??
            `the withdrawal ${t.to === 'failed' ? 'failed' : 'was not sent'}; tried again at the next check`,
        });
      }
      await appendInTx(tx, [
        entry(a.guildKey, at, t.ledger, attemptId, actor, a.amountCents, {
          cashoutId: a.cashoutId,
          sessionId: a.sessionId,
          move,
          from: cur.state,
          to: t.to,
          ...(a.correlationId ? { correlationId: a.correlationId } : {}),
          ...(a.gatewayWithdrawalId ? { withdrawalId: a.gatewayWithdrawalId } : {}),
          ...(a.bookmakerStatus ? { bookmakerStatus: a.bookmakerStatus } : {}),
          ...(set.note && actor ? { note: set.note } : {}),
        }),
      ]);
      return a;
    });
  }

  /** An attempt by id. */
  async withdrawal(attemptId: string): Promise<WithdrawalAttempt | undefined> {
    const [r] = await this.store.query('SELECT * FROM fund_withdrawals WHERE attempt_id = ?', attemptId);
    return r ? toAttempt(r) : undefined;
  }

  /**
   * Records an attempt's job (its correlation id) when only its tagged result webhook named it (the 202 was lost):
   * evidence, written at once whatever the attempt's state; its state moves later, through its table.
   */
  async recordCorrelation(attemptId: string, correlationId: string): Promise<void> {
    await this.store.query(
      'UPDATE fund_withdrawals SET correlation_id = ? WHERE attempt_id = ? AND correlation_id IS NULL',
      correlationId,
      attemptId,
    );
  }

  /** The attempt whose job has this correlation id. */
  async withdrawalByCorrelation(correlationId: string): Promise<WithdrawalAttempt | undefined> {
    const [r] = await this.store.query('SELECT * FROM fund_withdrawals WHERE correlation_id = ?', correlationId);
    return r ? toAttempt(r) : undefined;
  }

  /** Attempts waiting for a treasurer (the evidence could not say whose a withdrawal was). */
  async unresolvedWithdrawals(guildKey: string): Promise<WithdrawalAttempt[]> {
    const rows = await this.store.query(
      `SELECT * FROM fund_withdrawals WHERE guild_key = ? AND state IN ${sqlList(STATES.withdrawalUnresolved)} ORDER BY created_at`,
      guildKey,
    );
    return rows.map(toAttempt);
  }

  /** Attempts the beat follows up, of one fund; those with their own job first (their evidence names ids). */
  async openWithdrawals(guildKey: string): Promise<WithdrawalAttempt[]> {
    const rows = await this.store.query(
      `SELECT * FROM fund_withdrawals WHERE guild_key = ? AND state IN ${sqlList(WITHDRAWAL_FOLLOWED)} ORDER BY created_at`,
      guildKey,
    );
    return rows.map(toAttempt).sort((a, b) => Number(b.correlationId !== null) - Number(a.correlationId !== null));
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
  ): Promise<
    Map<string, { cashoutId: string; memberId: string; fee: boolean; share: boolean; state: WithdrawalState }>
  > {
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
          fee: owedByStrike(JSON.parse(r.ask) as CashoutAsk),
          share: (JSON.parse(r.ask) as CashoutAsk).kind === 'share',
          state: r.state,
        },
      ]),
    );
  }

  /** What the cash bridge can name for a fund: its bets, matched deposits, own withdrawals, accepted moves. */
  async named(guildKey: string): Promise<{
    bets: Map<string, { open: boolean }>;
    deposits: Set<string>;
    withdrawals: Set<string>;
    explained: Set<string>;
  }> {
    const bets = await this.store.query<{ bet_id: string; state: string }>(
      'SELECT bet_id, state FROM bet_records WHERE guild_key = ? AND bet_id IS NOT NULL',
      guildKey,
    );
    const deposits = await this.store.query<{ id: string }>(
      'SELECT deposit_id AS id FROM fund_contributions WHERE guild_key = ? AND deposit_id IS NOT NULL',
      guildKey,
    );
    const withdrawals = await this.store.query<{ id: string }>(
      'SELECT gateway_withdrawal_id AS id FROM fund_withdrawals WHERE guild_key = ? AND gateway_withdrawal_id IS NOT NULL',
      guildKey,
    );
    const explained = await this.store.query<{ id: string }>(
      'SELECT txn_id AS id FROM fund_explained WHERE guild_key = ?',
      guildKey,
    );
    return {
      bets: new Map(bets.map((b) => [String(b.bet_id), { open: isIn(BET_STATES.placed)(b as { state: string }) }])),
      deposits: new Set(deposits.map((r) => String(r.id))),
      withdrawals: new Set(withdrawals.map((r) => String(r.id))),
      explained: new Set(explained.map((r) => String(r.id))),
    };
  }

  /** A treasurer accepts a transaction of a fund account as the fund's (ledgered); false when already accepted. */
  async explain(guildKey: string, txnId: string, actor: string, reason: string, at: number): Promise<boolean> {
    return this.store.transaction(async (tx) => {
      const rows = await tx.query(
        `INSERT INTO fund_explained (txn_id, guild_key, account, cents, reason, actor, at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (guild_key, txn_id) DO NOTHING RETURNING txn_id`,
        txnId,
        guildKey,
        '',
        0,
        reason,
        actor,
        at,
      );
      if (rows.length === 0) return false;
      await appendInTx(tx, [entry(guildKey, at, 'fund_decision', txnId, actor, null, { explained: true, reason })]);
      return true;
    });
  }

  /** Funds with withdrawal work: attempts to follow or struck cash-outs waiting for theirs. */
  async guildsWithWithdrawals(): Promise<string[]> {
    const rows = await this.store.query<{ g: string }>(
      `SELECT DISTINCT guild_key AS g FROM fund_withdrawals WHERE state IN ${sqlList(WITHDRAWAL_FOLLOWED)}
       UNION SELECT DISTINCT guild_key AS g FROM fund_cashouts WHERE state IN ${sqlList(STATES.cashoutRedeemed)}`,
    );
    return rows.map((r) => String(r.g));
  }

  /** Whether another attempt still waits for its own job to name its withdrawal (its evidence comes first). */
  async attemptsAwaitingIds(exceptAttemptId: string): Promise<boolean> {
    const rows = await this.store.query(
      `SELECT 1 AS x FROM fund_withdrawals WHERE attempt_id <> ? AND correlation_id IS NOT NULL
       AND gateway_withdrawal_id IS NULL AND state IN ${sqlList(STATES.withdrawalAwaitingId)} LIMIT 1`,
      exceptAttemptId,
    );
    return rows.length > 0;
  }

  /** Every gateway withdrawal id an attempt owns, in any fund (a withdrawal pays one cash-out only). */
  async ownedWithdrawalIds(): Promise<Set<string>> {
    return this.matchedWithdrawalIds();
  }

  /** The fund's rows and every ledger entry about them, for the daily reconciliation's check (fundEntryMismatches). */
  async rowsAndEntries(guildKey: string): Promise<FundRowsAndEntries> {
    const contributions = await this.store.query<{ contribution_id: string; state: string; units: number | null }>(
      'SELECT contribution_id, state, units FROM fund_contributions WHERE guild_key = ?',
      guildKey,
    );
    const cashouts = await this.store.query<{
      cashout_id: string;
      units: number | null;
      strike_id: string | null;
      ask: string;
    }>('SELECT cashout_id, units, strike_id, ask FROM fund_cashouts WHERE guild_key = ?', guildKey);
    const attempts = await this.store.query<{
      attempt_id: string;
      state: string;
      amount_cents: number;
      gateway_withdrawal_id: string | null;
    }>(
      'SELECT attempt_id, state, amount_cents, gateway_withdrawal_id FROM fund_withdrawals WHERE guild_key = ?',
      guildKey,
    );
    const refs = [
      ...contributions.map((c) => c.contribution_id),
      ...cashouts.map((c) => c.cashout_id),
      ...attempts.map((a) => a.attempt_id),
    ];
    const entries = (await new Ledger(this.store).forRefs(refs)).filter((e) => e.guildKey === guildKey);
    return {
      outstanding: (await this.fund(guildKey))?.units ?? 0,
      contributions: contributions.map((c) => ({
        id: c.contribution_id,
        state: c.state,
        units: c.units === null ? null : n(c.units),
      })),
      cashouts: cashouts.map((c) => ({
        id: c.cashout_id,
        units: c.units === null ? null : n(c.units),
        struck: c.strike_id !== null,
        fee: owedByStrike(JSON.parse(String(c.ask)) as CashoutAsk),
      })),
      attempts: attempts.map((a) => ({
        id: a.attempt_id,
        state: a.state,
        amountCents: n(a.amount_cents),
        gatewayWithdrawalId: a.gateway_withdrawal_id,
      })),
      entries: entries.map((e) => ({ kind: e.kind, ref: e.ref, amountCents: e.amountCents, data: e.data })),
    };
  }

  /** Units issued, redeemed, held by members and outstanding (the daily reconciliation checks they agree). */
  async unitsCheck(guildKey: string): Promise<{ issued: number; redeemed: number; held: number; outstanding: number }> {
    const [r] = await this.store.query<{
      issued: number | null;
      redeemed: number | null;
      held: number | null;
      outstanding: number | null;
    }>(
      `SELECT
         (SELECT SUM(units) FROM fund_contributions WHERE guild_key = ? AND state IN ${sqlList(STATES.contributionIssued)}) AS issued,
         (SELECT SUM(units) FROM fund_cashouts WHERE guild_key = ? AND strike_id IS NOT NULL AND state IN ${sqlList(['redeemed', 'withdrawing', 'withdrawn', 'paid'])}) AS redeemed,
         (SELECT SUM(units) FROM fund_members WHERE guild_key = ?) AS held,
         (SELECT units FROM funds WHERE guild_key = ?) AS outstanding`,
      guildKey,
      guildKey,
      guildKey,
      guildKey,
    );
    return {
      issued: n(r?.issued ?? 0),
      redeemed: n(r?.redeemed ?? 0),
      held: n(r?.held ?? 0),
      outstanding: n(r?.outstanding ?? 0),
    };
  }

  async matchedWithdrawalIds(): Promise<Set<string>> {
    const rows = await this.store.query<{ id: string }>(
      'SELECT gateway_withdrawal_id AS id FROM fund_withdrawals WHERE gateway_withdrawal_id IS NOT NULL',
    );
    return new Set(rows.map((r) => r.id));
  }

  /** The treasurer paid the member: withdrawn → paid, with its ledger entry. */
  async markPaid(cashoutId: string, actor: string, at: number): Promise<Cashout | undefined> {
    return this.store.transaction((tx) => this.#moveCashout(tx, cashoutId, 'markPaid', at, actor, { paidBy: actor }));
  }
}

/**
 * Whether a bet record is the fund's (decision 1950): the fact stored at its claim; for a record claimed before that
 * was stored, the rule by dates (through one of the fund's sessions, placed at or after its account joined).
 */
export function isFundBetRow(
  b: { fund_key: string | null; fund_decided: number; session_id: string; created_at: number },
  guildKey: string,
  ofFund: ReadonlyMap<string, number>,
): boolean {
  // Sessions stand in for accounts here: `ofFund` is session → when its account joined.
  return isFundBet(
    { fundKey: n(b.fund_decided) === 1 ? b.fund_key : undefined, account: b.session_id, placedAt: n(b.created_at) },
    { fundKey: guildKey, joined: ofFund },
  );
}

/**
 * The return of every bet outside the fund that settled into one of its accounts since the account joined (placed
 * before it joined, or on older records the rule by dates): the float's, not NAV's. Each credited once (its row in
 * fund_float_credits), the account's float raised and ledgered in the strike's transaction. `waiting`: such bets the
 * book has settled and the desk has not read (their return is in the cash, its size not known yet).
 */
async function creditFloats(
  tx: Tx,
  s: {
    guildKey: string;
    at: number;
    fundSessions: ReadonlyArray<{ sessionId: string; since: number; account: string }>;
  },
  unread: ReadonlySet<string>,
): Promise<{ byAccount: Map<string, number>; waiting: number }> {
  const byAccount = new Map<string, number>();
  const accountOf = new Map(s.fundSessions.map((x) => [x.sessionId, x]));
  const ids = [...accountOf.keys()];
  if (ids.length === 0) return { byAccount, waiting: 0 };
  const rows = await tx.query<Record<string, unknown>>(
    `SELECT b.placement_id, b.session_id, b.state, b.stake_cents, b.pnl_cents, b.payload, b.bet_id, b.fund_key,
       b.fund_decided, b.created_at, b.updated_at
     FROM bet_records b LEFT JOIN fund_float_credits c ON c.placement_id = b.placement_id
     WHERE c.placement_id IS NULL AND b.state IN ${sqlList([...BET_STATES.settled, ...BET_STATES.placed])}
       AND b.session_id IN (${ids.map(() => '?').join(', ')})`,
    ...ids,
  );
  let waiting = 0;
  for (const r of rows) {
    const at = accountOf.get(String(r.session_id));
    if (!at) continue;
    const row = {
      fund_key: (r.fund_key as string | null) ?? null,
      fund_decided: n(r.fund_decided),
      session_id: String(r.session_id),
      created_at: n(r.created_at),
    };
    if (isFundBetRow(row, s.guildKey, new Map([[row.session_id, at.since]]))) continue;
    if (isIn(BET_STATES.placed)(r as { state: string })) {
      if (r.bet_id && unread.has(String(r.bet_id))) waiting += 1;
      continue;
    }
    // Settled before the account joined: its return was in the cash the account joined with.
    if (n(r.updated_at) < at.since) continue;
    const stake = isBonusBet(String(r.payload)) ? 0 : n(r.stake_cents);
    const cents = Math.max(0, stake + (r.pnl_cents === null ? 0 : n(r.pnl_cents)));
    await tx.query(
      'INSERT INTO fund_float_credits (placement_id, guild_key, account, cents, at) VALUES (?, ?, ?, ?, ?)',
      r.placement_id,
      s.guildKey,
      at.account,
      cents,
      s.at,
    );
    if (cents === 0) continue;
    const [bookie, ...user] = at.account.split('/');
    await tx.query(
      'UPDATE fund_accounts SET float_cents = float_cents + ? WHERE bookie = ? AND username = ? AND guild_key = ?',
      cents,
      bookie,
      user.join('/'),
      s.guildKey,
    );
    await appendInTx(tx, [
      entry(s.guildKey, s.at, 'fund_decision', String(r.placement_id), null, cents, {
        float: 'bet_outside_fund',
        account: at.account,
        returnCents: cents,
      }),
    ]);
    byAccount.set(at.account, (byAccount.get(at.account) ?? 0) + cents);
  }
  return { byAccount, waiting };
}

/** The names (`bookie/username`) of a server's fund accounts, read only: what the bank behind stake sizing asks. */
export async function fundAccountNames(store: BotStore, guildKey: string): Promise<string[]> {
  return (await new FundRepo(store).accounts(guildKey)).map(accountName);
}
