import type { Transaction } from '../../gateway/index.js';
import { sendFailure } from '../betting/placement.js';
import type { Logger } from '../config/logger.js';
import { UserFacingError } from '../discord/user-errors.js';
import type { GatewayPort } from '../gateway-port.js';
import {
  type CashoutAsk,
  centsFor,
  dealingKey,
  FEE_MANAGER_UNSET,
  feePeriodKey,
  localParts,
  matchDeposits,
  memberReturn,
  PRICE_SCALE,
  parseSchedule,
  shares,
  UNIT_SCALE,
} from '../model/fund.js';
import { type Cashout, FundRepo, type StrikeInputs, type StrikeRecord, type WithdrawalAttempt } from '../repos/fund.js';
import { type GuildSettings, getSettings } from '../repos/guild-settings.js';
import { Ledger } from '../repos/ledger.js';
import type { Outbox } from '../results/outbox.js';
import { readTransactionsSince } from '../results/transactions.js';
import type { BotStore } from '../store/index.js';
import { type FundStatement, membersView, strikeView } from '../views/fund.js';

/** How long a withdrawal whose answer was lost may take to show in the session's history before it counts as not sent. */
const WITHDRAWAL_SAFE_WINDOW_MS = 5 * 60_000;
/** Cash-outs above this (dollars) need a checker's approval unless the server sets its own tier. */
export const DEFAULT_CASHOUT_TIER = 500;

export interface FundDeps {
  store: BotStore;
  gateway: GatewayPort;
  outbox: Pick<Outbox, 'create' | 'has'>;
  logger: Logger;
  now: () => number;
  callbackUrl: string | undefined;
  /** The safe window for a withdrawal whose 202 was lost (tests shorten it). */
  withdrawalWindowMs?: number;
}

/** The last struck NAV of a server's fund, for stake sizing (BankSource). */
export interface LastStrike {
  navCents: number;
  units: number;
  /** Cents × PRICE_SCALE per unit. */
  price: number;
  at: Date;
}

export type StrikeAttempt = { ok: true; strike: StrikeRecord } | { ok: false; reason: string };

const cents = (dollars: number | null | undefined) => Math.round(Number(dollars ?? 0) * 100);

/** The fee period of a strike at `at`, and of any earlier instant, in the server's time zone. */
function feePeriods(settings: GuildSettings, at: number) {
  const period = settings.fundFeePeriod ?? 'month';
  const feePeriodOf = (t: number) => feePeriodKey(localParts(t, settings.timezone).day, period);
  return { feePeriod: feePeriodOf(at), feePeriodOf };
}

/**
 * The syndicate's bank (docs/fund.md): contributions, strikes on the server's dealing days and on demand,
 * cash-outs redeemed at a strike and paid by withdraw_balance under write-ahead discipline, and statements.
 */
export class FundService {
  readonly repo: FundRepo;
  readonly #d: FundDeps;

  constructor(d: FundDeps) {
    this.#d = d;
    this.repo = new FundRepo(d.store);
  }

  /** NAV, units, price and time of the server's last strike; null before the first. */
  async lastStrike(guildId: string): Promise<LastStrike | null> {
    const s = await this.repo.lastStrike(guildId);
    if (!s) return null;
    return { navCents: s.navAfterCents, units: s.unitsAfter, price: s.price, at: new Date(s.at) };
  }

  async contribute(c: {
    guildId: string;
    memberId: string;
    amountCents: number;
    sessionId: string;
    reference: string | null;
    actor: string;
  }) {
    if (!Number.isInteger(c.amountCents) || c.amountCents <= 0) {
      throw new UserFacingError('A contribution is a positive amount in dollars and cents, e.g. 250 or 99.50.');
    }
    const sessions = await this.#d.gateway.sessions.list();
    if (!sessions.some((s) => s.session_id === c.sessionId)) {
      throw new UserFacingError(
        `No session ${c.sessionId} on this desk's key. Name the session the money was deposited into (see /sessions).`,
      );
    }
    const shared = await this.repo.sharedSession(c.guildId, [c.sessionId]);
    if (shared) {
      throw new UserFacingError(
        `Session ${shared} is bet through by another server on this desk. A fund needs sessions of its own (docs/fund.md).`,
      );
    }
    const settings = await getSettings(this.#d.store, c.guildId);
    return this.repo.recordContribution({
      guildKey: c.guildId,
      memberId: c.memberId,
      amountCents: c.amountCents,
      sessionId: c.sessionId,
      reference: c.reference,
      actor: c.actor,
      openingPriceCents: cents(settings.fundOpeningPrice ?? 1),
      at: this.#d.now(),
    });
  }

  /** A member's cash-out request; above the server's tier it waits for a checker's approval. */
  async requestCashout(c: {
    guildId: string;
    memberId: string;
    ask: CashoutAsk;
  }): Promise<{ cashout: Cashout; needsApproval: boolean }> {
    const members = await this.repo.members(c.guildId);
    const holding = members.find((m) => m.memberId === c.memberId)?.units ?? 0;
    if (holding <= 0) {
      throw new UserFacingError('You hold no units in the fund yet (a contribution becomes units at the next strike).');
    }
    if (c.ask.kind === 'units' && c.ask.units > holding) {
      throw new UserFacingError(`You hold ${holding / UNIT_SCALE} units; ask for that many or fewer, or use all.`);
    }
    const last = await this.repo.lastStrike(c.guildId);
    const worth =
      c.ask.kind === 'amount'
        ? c.ask.cents
        : last
          ? centsFor(c.ask.kind === 'units' ? c.ask.units : holding, {
              navCents: last.navAfterCents,
              units: last.unitsAfter,
            })
          : 0;
    const settings = await getSettings(this.#d.store, c.guildId);
    const needsApproval = worth > cents(settings.fundCashoutTier ?? DEFAULT_CASHOUT_TIER);
    const cashout = await this.repo.requestCashout({
      guildKey: c.guildId,
      memberId: c.memberId,
      ask: c.ask,
      needsApproval,
      at: this.#d.now(),
    });
    return { cashout, needsApproval };
  }

  /**
   * Strikes NAV now: every balance read, the gap checks passed, then one transaction deals and writes the
   * ledger; a post goes to the results channel. Refused (nothing written) with the reason otherwise.
   */
  async strike(guildId: string, opts: { actor: string | null; dealingKey?: string }): Promise<StrikeAttempt> {
    const fund = await this.repo.fund(guildId);
    if (!fund) return { ok: false, reason: 'the fund has no contribution yet' };
    const settings = await getSettings(this.#d.store, guildId);
    const sessionIds = await this.repo.sessionsOf(guildId);
    const shared = await this.repo.sharedSession(guildId, sessionIds);
    if (shared)
      return {
        ok: false,
        reason: `session ${shared} is bet through by another server too; a fund needs sessions of its own`,
      };
    const gap = await this.#unexplainedGap(guildId, sessionIds);
    if (gap) return { ok: false, reason: gap };
    const sessions: StrikeInputs['sessions'] = [];
    for (const sessionId of sessionIds) {
      const b = await this.#d.gateway.balances.get({ session_id: sessionId }).catch(() => undefined);
      if (!b) return { ok: false, reason: `the balance of session ${sessionId} could not be read` };
      // The gateway's balance is a cache refreshed on the session's heartbeat: one read before the desk's last
      // placement, settlement or withdrawal on the session would miss that move.
      const readAt = Date.parse(String(b.retrieved_at ?? ''));
      const moved = await this.repo.lastMoveOn(sessionId);
      if (Number.isFinite(readAt) && moved !== undefined && readAt < moved) {
        return {
          ok: false,
          reason: `the balance of session ${sessionId} was refreshed at ${new Date(readAt).toISOString()}, before the desk's last move on it; the next heartbeat brings it up to date`,
        };
      }
      sessions.push({
        sessionId,
        balanceCents: cents(b.balance),
        bonusCents: cents(b.bonus_balance),
        retrievedAt: b.retrieved_at ?? null,
      });
    }
    await this.#matchDeposits(guildId).catch((err) => this.#d.logger.warn('fund deposit matching failed', { err }));
    const at = this.#d.now();
    const outcome = await this.repo.strike({
      guildKey: guildId,
      dealingKey: opts.dealingKey ?? `demand:${at}`,
      at,
      actor: opts.actor,
      sessions,
      feeRateBps: Math.round((settings.fundFeePercent ?? 0) * 100),
      ...feePeriods(settings, at),
      managerId: settings.fundFeeManagerId ?? FEE_MANAGER_UNSET,
    });
    if (!outcome.struck) return { ok: false, reason: outcome.reason };
    await this.#post(guildId, settings, outcome.strike);
    return { ok: true, strike: outcome.strike };
  }

  /**
   * One beat (the leader runs it): each server's scheduled strike when due (once per dealing day, whatever
   * crashes), strike posts a crash left unposted, and the cash-outs' withdrawals.
   */
  async tick(guildIds: Iterable<string>): Promise<void> {
    for (const guildId of guildIds) {
      try {
        await this.#scheduled(guildId);
      } catch (err) {
        this.#d.logger.warn('fund strike check failed', { err, guildId });
      }
    }
    await this.withdrawals();
  }

  async #scheduled(guildId: string): Promise<void> {
    const fund = await this.repo.fund(guildId);
    if (!fund) return;
    const settings = await getSettings(this.#d.store, guildId);
    const last = await this.repo.lastStrike(guildId);
    // A crash between a strike's commit and its post: the post is made now (the outbox key makes it once).
    if (last) await this.#post(guildId, settings, last);
    await this.#monthly(guildId, settings);
    if (!settings.fundSchedule) return;
    const schedule = parseSchedule(settings.fundSchedule);
    if ('error' in schedule) return;
    const key = dealingKey(schedule, localParts(this.#d.now(), settings.timezone));
    if (key === undefined || (await this.repo.hasStrike(guildId, key))) return;
    const r = await this.strike(guildId, { actor: null, dealingKey: key });
    if (!r.ok && settings.resultsChannelId && r.reason !== 'already struck') {
      const noticeKey = `fund-held:${guildId}:${key}`;
      if (!(await this.#d.outbox.has(`create:${noticeKey}`))) {
        await this.#d.outbox.create(noticeKey, settings.resultsChannelId, {
          content: `The fund's strike for ${key} is not struck yet: ${r.reason}. It is tried again at the next check.`,
          embeds: [],
          components: [],
        });
      }
    }
  }

  /** Once a month (the first check of a month in the server's zone): every member's units and value at the last strike. */
  async #monthly(guildId: string, settings: GuildSettings): Promise<void> {
    if (!settings.resultsChannelId) return;
    const month = localParts(this.#d.now(), settings.timezone).day.slice(0, 7);
    const key = `fund-month:${guildId}:${month}`;
    if (await this.#d.outbox.has(`create:${key}`)) return;
    const v = await this.valuation(guildId);
    if (!v.last) return;
    const view = membersView({ ...v, cashouts: await this.repo.cashouts(guildId) });
    await this.#d.outbox.create(key, settings.resultsChannelId, {
      ...view,
      content: `Monthly statement of the fund (${month} opens; values at the last strike).`,
    });
  }

  async #post(guildId: string, settings: GuildSettings, s: StrikeRecord): Promise<void> {
    if (!settings.resultsChannelId) return;
    const key = `fund-strike:${s.strikeId}`;
    if (await this.#d.outbox.has(`create:${key}`)) return;
    const unmatched = (await this.repo.contributions(guildId)).filter((c) => c.strikeId === s.strikeId && !c.depositId);
    await this.#d.outbox.create(key, settings.resultsChannelId, strikeView(s, unmatched));
  }

  /**
   * The latest balance check of each session (the daily reconciliation's) against what the fund explains: a
   * deposit matched to a contribution or a withdrawal matched to a cash-out is explained; anything else is a gap.
   */
  async #unexplainedGap(guildId: string, sessionIds: string[]): Promise<string | undefined> {
    const ledger = new Ledger(this.#d.store);
    const deposits = new Set(
      (await this.repo.contributions(guildId)).flatMap((c) => (c.depositId ? [c.depositId] : [])),
    );
    const withdrawals = await this.repo.matchedWithdrawalIds();
    for (const sessionId of sessionIds) {
      const check = await ledger.latest('balance_check', sessionId);
      const implied = check?.data.impliedCents;
      if (!check || typeof implied !== 'number') continue;
      const listed = (check.data.listed ?? []) as Array<{ id: string; cents: number; what: string }>;
      const rest = (check.amountCents ?? 0) - implied - listed.reduce((a, m) => a + m.cents, 0);
      const unexplained = listed.filter((m) => !deposits.has(m.id) && !withdrawals.has(m.id));
      if (rest !== 0 || unexplained.length > 0) {
        return `the last reconciliation of session ${sessionId} names a gap nothing explains (${
          unexplained.map((m) => m.what).join('; ') || `${(rest / 100).toFixed(2)} dollars`
        }); a treasurer records the missing contribution or a correction first`;
      }
    }
    return undefined;
  }

  /** Contributions not yet matched against the `deposit` transactions of their session (matchDeposits). */
  async #matchDeposits(guildId: string): Promise<void> {
    const waiting = (await this.repo.contributions(guildId)).filter((c) => !c.depositId);
    for (const sessionId of new Set(waiting.map((c) => c.sessionId))) {
      const since = Math.min(...waiting.filter((c) => c.sessionId === sessionId).map((c) => c.createdAt)) - 86_400_000;
      const read = await readTransactionsSince(this.#d.gateway, sessionId, since, this.#d.now(), {
        callbackUrl: this.#d.callbackUrl,
      });
      if (read) await matchSessionDeposits(this.repo, guildId, sessionId, read.transactions);
    }
  }

  /**
   * The cash-outs' withdrawals: attempts in flight are followed up (their job read, or the session's history when
   * the answer was lost); struck cash-outs get an attempt on a session with the withdrawable cash, or wait and say why.
   */
  async withdrawals(): Promise<void> {
    for (const a of await this.repo.openWithdrawals()) {
      try {
        await this.#followUp(a);
      } catch (err) {
        this.#d.logger.warn('fund withdrawal follow-up failed', { err, attempt: a.attemptId });
      }
    }
    for (const c of await this.repo.redeemedWaiting()) {
      try {
        await this.#withdraw(c);
      } catch (err) {
        this.#d.logger.warn('fund withdrawal failed to start', { err, cashout: c.cashoutId });
      }
    }
  }

  async #withdraw(c: Cashout & { guildKey: string }): Promise<void> {
    // What is still owed: a cash-out paid in parts from several sessions has some already withdrawn.
    const amount = (c.cents ?? 0) - (await this.repo.withdrawnSoFar(c.cashoutId));
    // A refused or unsent attempt is tried again after the window, not at every beat.
    const last = (await this.repo.withdrawalsOf(c.cashoutId)).at(-1);
    const refused = last && last.state !== 'completed';
    if (refused && this.#d.now() - last.createdAt < (this.#d.withdrawalWindowMs ?? WITHDRAWAL_SAFE_WINDOW_MS)) return;
    if (amount <= 0) {
      // Nothing to withdraw (a redemption worth less than a cent): owed nothing, paid nothing.
      await this.repo.setCashoutNote(c.cashoutId, 'worth less than a cent: nothing to withdraw');
      return;
    }
    const parts = await this.repo.withdrawalsOf(c.cashoutId);
    const withdrawable: Array<{ sessionId: string; cents: number }> = [];
    for (const sessionId of await this.repo.sessionsOf(c.guildKey)) {
      const b = await this.#d.gateway.balances.get({ session_id: sessionId }).catch(() => undefined);
      if (!b) continue;
      // The balance is a cache: a part taken from this session since it was read is not in it yet.
      const readAt = Date.parse(String(b.retrieved_at ?? ''));
      const since = parts
        .filter((p) => p.sessionId === sessionId && p.state === 'completed' && !(p.createdAt < readAt))
        .reduce((a, p) => a + p.amountCents, 0);
      withdrawable.push({
        sessionId,
        cents: cents(b.withdrawable_balance ?? b.balance - (b.bonus_balance ?? 0)) - since,
      });
    }
    const best = withdrawable.sort((a, b) => b.cents - a.cents)[0];
    const total = withdrawable.reduce((a, w) => a + Math.max(0, w.cents), 0);
    // One session when one holds it all; otherwise the largest part from the session holding most, the rest from
    // the next at a later beat, but only when the sessions together hold it (decision 1706).
    if (!best || best.cents <= 0 || total < amount) {
      await this.repo.setCashoutNote(
        c.cashoutId,
        `waits: the fund's sessions hold $${(total / 100).toFixed(2)} withdrawable, short of $${(amount / 100).toFixed(2)} (bets still open hold the rest)`,
      );
      return;
    }
    const part = Math.min(amount, best.cents);
    const attempt = await this.repo.beginWithdrawal({
      cashoutId: c.cashoutId,
      sessionId: best.sessionId,
      at: this.#d.now(),
      amountCents: part,
    });
    if (!attempt) return;
    let correlationId: string;
    try {
      const handle = await this.#d.gateway.withdrawals.create({ session_id: best.sessionId, amount: part / 100 });
      correlationId = handle.correlationId;
    } catch (err) {
      const move = sendFailure(err);
      await this.repo.moveWithdrawal(
        attempt.attemptId,
        ['sending'],
        move === 'markNotSent' ? 'not_sent' : 'unknown',
        { note: (err as Error).message },
        this.#d.now(),
      );
      return;
    }
    await this.repo.moveWithdrawal(
      attempt.attemptId,
      ['sending', 'unknown'],
      'submitted',
      { correlationId },
      this.#d.now(),
    );
  }

  /** A withdrawal in flight: its job's result, else the session's history; never sent again. */
  async #followUp(a: WithdrawalAttempt): Promise<void> {
    const now = this.#d.now();
    if (a.state === 'submitted' && a.correlationId && a.bookmakerStatus !== 'pending') {
      const [entry] = await this.#d.gateway.jobs.status([a.correlationId]);
      if (!entry || entry.status === 'pending') return;
      if (entry.status === 'completed') {
        const r = (entry.result ?? {}) as {
          success?: boolean;
          status?: string;
          withdrawal_id?: string | null;
          message?: string;
        };
        const set = {
          bookmakerStatus: r.status ?? (r.success ? 'completed' : 'failed'),
          ...(r.withdrawal_id ? { gatewayWithdrawalId: r.withdrawal_id } : {}),
          ...(r.message ? { note: r.message } : {}),
        };
        if (r.success && r.status !== 'failed' && r.status !== 'pending') {
          await this.repo.moveWithdrawal(a.attemptId, ['submitted'], 'completed', set, now);
        } else if (r.status === 'pending') {
          // The bookmaker holds it: followed in the session's history until it completes or fails.
          await this.repo.moveWithdrawal(a.attemptId, ['submitted'], 'submitted', set, now);
        } else {
          await this.repo.moveWithdrawal(a.attemptId, ['submitted'], 'failed', set, now);
        }
        return;
      }
      // timeout or unknown: transient; the history decides.
      await this.repo.moveWithdrawal(a.attemptId, ['submitted'], 'unknown', {}, now);
      return;
    }
    // sending (a crash or a lost answer), unknown, or held pending by the bookmaker: the session's history.
    const read = await readTransactionsSince(this.#d.gateway, a.sessionId, a.createdAt - 60_000, now, {
      callbackUrl: this.#d.callbackUrl,
    });
    if (!read) return;
    const taken = await this.repo.matchedWithdrawalIds();
    const found = read.transactions.find(
      (t) =>
        t.type === 'withdrawal' &&
        (a.gatewayWithdrawalId ? t.id === a.gatewayWithdrawalId : !taken.has(t.id)) &&
        cents(t.stake) === a.amountCents &&
        Date.parse(String(t.placed_at)) >= a.createdAt - 60_000,
    );
    if (found) {
      const status = withdrawalStatus(found);
      if (status === 'pending') return;
      await this.repo.moveWithdrawal(
        a.attemptId,
        ['sending', 'submitted', 'unknown'],
        status === 'failed' ? 'failed' : 'completed',
        { gatewayWithdrawalId: found.id, bookmakerStatus: status },
        now,
      );
      return;
    }
    if (now - a.createdAt >= (this.#d.withdrawalWindowMs ?? WITHDRAWAL_SAFE_WINDOW_MS) && !a.gatewayWithdrawalId) {
      await this.repo.moveWithdrawal(a.attemptId, ['sending', 'unknown'], 'not_sent', {}, now);
    }
  }

  /** The treasurer paid the member the withdrawn cash. */
  async markPaid(guildId: string, cashoutId: string, actor: string): Promise<Cashout> {
    const c = await this.repo.cashout(cashoutId);
    if (!c || (await this.repo.cashouts(guildId)).every((x) => x.cashoutId !== cashoutId)) {
      throw new UserFacingError(`No cash-out ${cashoutId} in this server's fund. /fund members lists them.`);
    }
    if (c.state === 'paid') throw new UserFacingError('That cash-out is already marked paid.');
    if (c.state !== 'withdrawn') {
      throw new UserFacingError(
        `That cash-out is ${c.state.replace('_', ' ')}: it can be marked paid once its withdrawal has completed.`,
      );
    }
    const paid = await this.repo.markPaid(cashoutId, actor, this.#d.now());
    if (!paid) throw new UserFacingError('That cash-out moved meanwhile; look again with /fund members.');
    return paid;
  }

  /** Every member's units and value at the last strike, summing to its NAV, with the residual cents shown. */
  async valuation(guildId: string) {
    const last = await this.repo.lastStrike(guildId);
    const members = (await this.repo.members(guildId)).filter((m) => m.units > 0);
    const book = { navCents: last?.navAfterCents ?? 0, units: last?.unitsAfter ?? 0 };
    return { last, ...shares(members, book) };
  }

  async statement(guildId: string, memberId: string): Promise<FundStatement> {
    const { last, shares: all } = await this.valuation(guildId);
    const mine = all.find((s) => s.memberId === memberId);
    const contributions = await this.repo.contributions(guildId, memberId);
    // A performance fee owed to a manager who is also a member is not a cash-out of their units.
    const cashouts = (await this.repo.cashouts(guildId, memberId)).filter((c) => c.ask.kind !== 'fee');
    const contributedCents = contributions.filter((c) => c.state === 'issued').reduce((a, c) => a + c.amountCents, 0);
    const cashedOutCents = cashouts.reduce((a, c) => a + (c.cents ?? 0), 0);
    const valueCents = mine?.cents ?? 0;
    const issuedUnits = contributions.reduce((a, c) => a + (c.units ?? 0), 0);
    // Per unit: the price now against the average price paid for the units issued.
    const paidPerUnit = issuedUnits > 0 ? (contributedCents * UNIT_SCALE) / issuedUnits : null;
    const priceNow = last ? last.price / PRICE_SCALE : null;
    return {
      units: mine?.units ?? 0,
      valueCents,
      share: last && last.unitsAfter > 0 ? (mine?.units ?? 0) / last.unitsAfter : 0,
      contributedCents,
      cashedOutCents,
      pendingCents: contributions.filter((c) => c.state === 'pending').reduce((a, c) => a + c.amountCents, 0),
      ...memberReturn({ valueCents, contributedCents, cashedOutCents }),
      perUnitReturn: paidPerUnit && priceNow !== null ? priceNow / paidPerUnit - 1 : null,
      residualCent: mine?.residualCent ?? false,
      lastStrike: last ?? null,
      openCashouts: cashouts.filter((c) => !['paid', 'rejected'].includes(c.state)),
    };
  }
}

/**
 * The guild's contributions on a session not yet matched, against that session's `deposit` transactions (as read):
 * each match is stored. The strike and the daily reconciliation both call it. Returns the contributions' matches.
 */
export async function matchSessionDeposits(
  repo: FundRepo,
  guildId: string,
  sessionId: string,
  transactions: readonly Transaction[],
): Promise<Array<{ contributionId: string; depositId: string }>> {
  const all = await repo.contributions(guildId);
  const waiting = all.filter((c) => !c.depositId && c.sessionId === sessionId);
  if (waiting.length === 0) return [];
  const used = new Set(all.flatMap((c) => (c.depositId ? [c.depositId] : [])));
  const deposits = transactions
    .filter((t) => t.type === 'deposit')
    .map((t) => ({ id: t.id, cents: cents(t.stake), at: Date.parse(String(t.placed_at)) }));
  const matches = matchDeposits(waiting, deposits, used);
  for (const m of matches) await repo.markDepositMatched(m.contributionId, m.depositId);
  return matches;
}

/** The bookmaker's state of a withdrawal transaction: its own field where given, else from the status. */
export function withdrawalStatus(t: Transaction): 'pending' | 'completed' | 'failed' {
  const own = (t as { withdrawal_status?: unknown }).withdrawal_status;
  if (own === 'pending' || own === 'completed' || own === 'failed') return own;
  if (t.status === 'pending') return 'pending';
  if (t.status === 'void') return 'failed';
  return 'completed';
}
