import type { Session, Transaction } from '../../gateway/index.js';
import { sendFailure } from '../betting/index.js';
import type { Logger } from '../config/logger.js';
import type { GatewayPort } from '../gateway-port.js';
import { readTransactionsSince } from '../jobs/index.js';
import { dayStart } from '../model/dates.js';
import { balanceCents, gatewayCents } from '../model/gateway-amounts.js';
import { dollarsFromCents, formatCentsDecimal, formatMoney } from '../model/money.js';
import { UserFacingError } from '../model/user-facing-error.js';
import type { Outbox } from '../outbox/index.js';
import { finalStatusOf, storedDelivery, type WebhookDelivery } from '../receiver/index.js';
import { type GuildSettings, getSettings } from '../settings/index.js';
import type { BotStore } from '../store/index.js';
import { FundRepo } from './fund-repo.js';
import {
  type CashoutAsk,
  centsFor,
  dealingKey,
  FEE_MANAGER_UNSET,
  feePeriodKey,
  localParts,
  matchDeposits,
  memberReturn,
  owedByStrike,
  parseSchedule,
  shares,
  UNIT_SCALE,
} from './model/fund.js';
import {
  type AccountRead,
  type BridgeTxn,
  planStrike,
  planWithdrawal,
  type WithdrawSource,
} from './model/fund-plan.js';
import type { FundStatement } from './model/fund-records.js';
import {
  accountName,
  type Cashout,
  type FundAccount,
  type StrikeRecord,
  type WithdrawalAttempt,
} from './model/fund-records.js';
import { isIn, STATES, WITHDRAWAL_FOLLOWED } from './model/fund-states.js';
import { priceReturn } from './model/unit-price.js';
import type { FundPresenter } from './presenter.js';

/** How long a withdrawal whose answer was lost may take to show in the session's history before it counts as not sent. */
const WITHDRAWAL_SAFE_WINDOW_MS = 5 * 60_000;
/** A job's correlation id answers for 30 minutes (the spec's limit); after that only the history can. */
const CORRELATION_LIFETIME_MS = 30 * 60_000;
/** Cash-outs above this ($500, in cents) need a checker's approval unless the server sets its own tier. */
/** A contribution waiting to be issued at a strike; a withdrawal the book has completed; one sent and not yet known. */
const isWaiting = isIn(STATES.contributionWaiting);
const completed = isIn(STATES.withdrawalCompleted);
const submitted = isIn(STATES.withdrawalSubmitted);

export const DEFAULT_CASHOUT_TIER_CENTS = 50_000;
/** The smallest cash-out ($10, in cents) unless the server sets its own; asking for everything is always allowed. */
export const DEFAULT_MIN_CASHOUT_CENTS = 1_000;
/** The largest contribution one command records (cents): a mistyped amount is refused, not recorded. */
export const MAX_CONTRIBUTION_CENTS = 100_000_000;
/** History read before an account joined or an attempt began, to allow for clocks a little apart. */
const CLOCK_MARGIN_MS = 60_000;
const money = formatMoney;

export interface FundDeps {
  store: BotStore;
  gateway: GatewayPort;
  outbox: Pick<Outbox, 'create' | 'has'>;
  /** The words of what the service posts (views/fund-presenter.ts in the composition). */
  present: FundPresenter;
  logger: Logger;
  now: () => number;
  callbackUrl: string | undefined;
  /** The safe window for a withdrawal whose 202 was lost (tests shorten it). */
  withdrawalWindowMs?: number;
  /**
   * Each tipster's attributed P&L of the fund's settled bets, all time (decision 1920, as /fund tipsters period:all):
   * what the tipster share is worked out on (decision 1923). Absent: no tipster has any.
   */
  tipsterPnl?: (guildId: string, fund: FundService) => Promise<ReadonlyMap<string, number>>;
}

/** The last struck NAV of a server's fund, for stake sizing (BankSource). */
export interface LastStrike {
  navCents: number;
  units: number;
  /** A UnitPrice (model/unit-price.ts). */
  price: number;
  at: Date;
}

export type StrikeAttempt = { ok: true; strike: StrikeRecord } | { ok: false; reason: string };

const cents = gatewayCents;
/** A percent setting (at most two decimals, checked where it is set) in basis points. */
const bpsOf = (percent: number | undefined) => Math.round((percent ?? 0) * 100);

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

  // What commands and handlers read and write, through the service (they never reach past it to the repository).
  setCashoutMessage(cashoutId: string, channelId: string, messageId: string) {
    return this.repo.setCashoutMessage(cashoutId, channelId, messageId);
  }
  strikes(guildId: string, since: number) {
    return this.repo.strikes(guildId, since);
  }
  cashouts(guildId: string, memberId?: string) {
    return this.repo.cashouts(guildId, memberId);
  }
  cashout(cashoutId: string) {
    return this.repo.cashout(cashoutId);
  }
  contributions(guildId: string, memberId?: string) {
    return this.repo.contributions(guildId, memberId);
  }
  unresolvedWithdrawals(guildId: string) {
    return this.repo.unresolvedWithdrawals(guildId);
  }
  fund(guildId: string) {
    return this.repo.fund(guildId);
  }
  decideCashout(cashoutId: string, approver: string, approve: boolean) {
    return this.repo.decideCashout(cashoutId, approver, approve, this.#d.now());
  }

  /** NAV, units, price and time of the server's last strike; null before the first. */
  async lastStrike(guildId: string): Promise<LastStrike | null> {
    const s = await this.repo.lastStrike(guildId);
    if (!s) return null;
    return { navCents: s.navAfterCents, units: s.unitsAfter, price: s.price, at: new Date(s.at) };
  }

  /** Every session of the desk's key, by account (`bookie/username`): twins of one account share its cash. */
  async #sessionsByAccount(): Promise<Map<string, Session[]>> {
    const out = new Map<string, Session[]>();
    for (const x of await this.#d.gateway.sessions.list()) {
      const key = accountName({ bookie: String(x.bookie), username: String(x.username) });
      out.set(key, [...(out.get(key) ?? []), x]);
    }
    return out;
  }

  /** The session named, or a refusal naming /sessions. */
  async #session(sessionId: string): Promise<Session> {
    const found = (await this.#d.gateway.sessions.list()).find((s) => s.session_id === sessionId);
    if (!found) {
      throw new UserFacingError(
        `No session ${sessionId} on this desk's key. Name a session of the account (see /sessions).`,
      );
    }
    return found;
  }

  /** An account's cash for the fund (balance less bonus) through its first live session that answers. */
  async #cashOf(sessions: readonly Session[]) {
    for (const x of [...sessions].sort((a, b) => Number(b.active) - Number(a.active))) {
      const b = await this.#d.gateway.balances.get({ session_id: x.session_id }).catch(() => undefined);
      if (!b) continue;
      const { balanceCents: total, bonusCents, withdrawableCents } = balanceCents(b);
      return {
        sessionId: x.session_id,
        balanceCents: total,
        bonusCents,
        withdrawableCents,
        retrievedAt: Date.parse(String(b.retrieved_at ?? '')),
      };
    }
    return undefined;
  }

  /** The fund's accounts with what each holds now (for /fund accounts). */
  async accounts(guildId: string) {
    const bySession = await this.#sessionsByAccount();
    const out = [];
    for (const a of await this.repo.accounts(guildId)) {
      const sessions = bySession.get(accountName(a)) ?? [];
      const cash = await this.#cashOf(sessions);
      out.push({
        ...a,
        sessions: sessions.map((x) => x.session_id),
        cashCents: cash ? cash.balanceCents - cash.bonusCents : undefined,
      });
    }
    return out;
  }

  /**
   * Adds the account a session is on to the fund (decision 1800). Cash already in it must be accounted for: the
   * opening bank (a contribution of that cash for a member, matched at once: the balance shows it), or a float the
   * fund does not own (kept out of NAV by amount), or both. An account of another server's fund is refused.
   */
  async addAccount(c: {
    guildId: string;
    sessionId: string;
    actor: string;
    openingMemberId?: string;
    floatCents?: number;
  }): Promise<{ account: FundAccount; openingCents: number; cashCents: number }> {
    const floatCents = c.floatCents ?? 0;
    if (!Number.isSafeInteger(floatCents) || floatCents < 0 || floatCents > MAX_CONTRIBUTION_CENTS) {
      throw new UserFacingError(`A float is between $0.00 and ${money(MAX_CONTRIBUTION_CENTS)}.`);
    }
    const session = await this.#session(c.sessionId);
    const a = { bookie: String(session.bookie), username: String(session.username) };
    const owner = await this.repo.accountOwner(a.bookie, a.username);
    if (owner?.guildKey === c.guildId)
      throw new UserFacingError(`${accountName(a)} is already one of the fund's accounts.`);
    if (owner) {
      throw new UserFacingError(
        `${accountName(a)} belongs to another server's fund: an account is in one fund only, since its cash cannot be split.`,
      );
    }
    const twins = (await this.#sessionsByAccount()).get(accountName(a)) ?? [session];
    const cash = await this.#cashOf(twins);
    if (!cash) throw new UserFacingError(`The balance of ${accountName(a)} could not be read; try again shortly.`);
    const cashCents = cash.balanceCents - cash.bonusCents;
    const unaccounted = cashCents - floatCents;
    if (unaccounted < 0) {
      throw new UserFacingError(
        `${accountName(a)} holds ${money(cashCents)}: a float cannot be more than that. Give float:${formatCentsDecimal(cashCents)} or less.`,
      );
    }
    if (unaccounted > 0 && !c.openingMemberId) {
      throw new UserFacingError(
        `${accountName(a)} already holds ${money(cashCents)} that the fund must account for before it joins. Either it is the opening bank, a member's money bought in at the next strike: \`/fund accounts action:add session:\` (pick ${accountName(a)} from the list) \`opening_member:@member\`; or it is not the fund's (a float kept out of NAV): the same with \`float:${formatCentsDecimal(cashCents)}\`.`,
      );
    }
    // Where the cash bridge starts: the newest move the cash read already holds, on the gateway's own clock.
    const before = await this.#history(cash.sessionId, this.#d.now() - 7 * 86_400_000);
    if (!before) throw new UserFacingError(`The history of ${accountName(a)} could not be read; try again shortly.`);
    const bridgeFrom = Math.max(
      Number.isFinite(cash.retrievedAt) ? cash.retrievedAt : 0,
      ...before.map((t) => Math.max(t.placedAt, t.settledAt ?? 0)),
    );
    const settings = await getSettings(this.#d.store, c.guildId);
    const added = await this.repo.addAccount({
      guildKey: c.guildId,
      ...a,
      floatCents,
      actor: c.actor,
      at: this.#d.now(),
      bridgeFrom,
      cashCents,
      ...(unaccounted > 0 && c.openingMemberId
        ? {
            opening: {
              memberId: c.openingMemberId,
              sessionId: cash.sessionId,
              cents: unaccounted,
              openingPriceCents: settings.fundOpeningPriceCents ?? 100,
            },
          }
        : {}),
    });
    if (!added) throw new UserFacingError(`${accountName(a)} was added to a fund meanwhile; see /fund accounts.`);
    return { account: added.account, openingCents: added.opening?.amountCents ?? 0, cashCents };
  }

  /** Takes an account out of the fund, once it holds none of the fund's money and no request waits on it. */
  async removeAccount(c: { guildId: string; sessionId: string; actor: string }): Promise<string> {
    const session = await this.#session(c.sessionId);
    const a = { bookie: String(session.bookie), username: String(session.username) };
    const mine = (await this.repo.accounts(c.guildId)).find((x) => accountName(x) === accountName(a));
    if (!mine) throw new UserFacingError(`${accountName(a)} is not one of the fund's accounts (see /fund accounts).`);
    const twins = (await this.#sessionsByAccount()).get(accountName(a)) ?? [session];
    const cash = await this.#cashOf(twins);
    if (!cash) throw new UserFacingError(`The balance of ${accountName(a)} could not be read; try again shortly.`);
    const fundCash = cash.balanceCents - cash.bonusCents - mine.floatCents;
    if (fundCash > 0) {
      throw new UserFacingError(
        `${accountName(a)} holds ${money(fundCash)} of the fund's money: cash it out or move it to another of the fund's accounts first.`,
      );
    }
    const sessionIds = new Set(twins.map((x) => x.session_id));
    if ((await this.repo.contributions(c.guildId)).some((x) => isWaiting(x) && sessionIds.has(x.sessionId))) {
      throw new UserFacingError(`A contribution into ${accountName(a)} waits to be dealt: deal or cancel it first.`);
    }
    const out = await this.repo.removeAccount(
      c.guildId,
      { ...a, sessionIds: twins.map((x) => x.session_id) },
      c.actor,
      this.#d.now(),
    );
    if (!out.removed && (out.openBets > 0 || out.withdrawals > 0)) {
      const what = [
        out.openBets > 0 ? `${out.openBets} open fund ${out.openBets === 1 ? 'bet' : 'bets'}` : '',
        out.withdrawals > 0
          ? `${out.withdrawals} ${out.withdrawals === 1 ? 'withdrawal' : 'withdrawals'} in flight`
          : '',
      ]
        .filter(Boolean)
        .join(' and ');
      throw new UserFacingError(
        `${accountName(a)} still has ${what} of the fund's: their money comes back into this account. Remove it once they have settled (see /exposure and /fund withdrawal).`,
      );
    }
    return accountName(a);
  }

  async contribute(c: {
    guildId: string;
    memberId: string;
    amountCents: number;
    sessionId: string;
    reference: string | null;
    actor: string;
  }) {
    if (!Number.isSafeInteger(c.amountCents) || c.amountCents <= 0 || c.amountCents > MAX_CONTRIBUTION_CENTS) {
      throw new UserFacingError(
        `A contribution is between $0.01 and ${money(MAX_CONTRIBUTION_CENTS)} in dollars and cents, e.g. 250 or 99.50.`,
      );
    }
    const session = await this.#session(c.sessionId);
    const a = { bookie: String(session.bookie), username: String(session.username) };
    const owner = await this.repo.accountOwner(a.bookie, a.username);
    if (owner && owner.guildKey !== c.guildId) {
      throw new UserFacingError(
        `${accountName(a)} belongs to another server's fund: a contribution into it is not this fund's.`,
      );
    }
    if (!owner) {
      throw new UserFacingError(
        `${accountName(a)} is not one of the fund's accounts. A treasurer adds it first: \`/fund accounts action:add session:\`, picking ${accountName(a)} from the list.`,
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
      openingPriceCents: settings.fundOpeningPriceCents ?? 100,
      at: this.#d.now(),
    });
  }

  /** A treasurer cancels a contribution or a cash-out not yet dealt, with a reason (ledgered). */
  async cancel(c: { guildId: string; id: string; actor: string; reason: string }) {
    const reason = c.reason.trim();
    if (!reason) throw new UserFacingError('Say why it is cancelled (reason:), for the ledger.');
    const done = await this.repo.cancel(c.guildId, c.id.trim(), c.actor, reason, this.#d.now());
    if (!done) {
      throw new UserFacingError(
        `No contribution or cash-out ${c.id} of this fund waits to be dealt (one already dealt cannot be cancelled; /fund members lists them).`,
      );
    }
    return done;
  }

  /** A treasurer accepts a transaction the cash bridge could not name as the fund's, with a reason (ledgered). */
  async explain(c: { guildId: string; txnId: string; actor: string; reason: string }) {
    const reason = c.reason.trim();
    if (!reason) throw new UserFacingError('Say what the money is (reason:), for the ledger.');
    return this.repo.explain(c.guildId, c.txnId.trim(), c.actor, reason, this.#d.now());
  }

  /**
   * A member's cash-out request, checked on the server whatever Discord sent: positive whole cents or units, no
   * more than they hold at the last strike, at least the minimum (unless all), one ask per member per strike.
   * Above the tier, counting the member's asks since the last strike together, it waits for a checker.
   */
  async requestCashout(c: {
    guildId: string;
    memberId: string;
    ask: CashoutAsk;
  }): Promise<{ cashout: Cashout; needsApproval: boolean }> {
    const ask = c.ask;
    if (owedByStrike(ask)) {
      throw new UserFacingError(
        'A fee or a tipster share is owed by a strike, not asked for: ask for an amount, units or all.',
      );
    }
    if (ask.kind === 'amount' && !(Number.isSafeInteger(ask.cents) && ask.cents > 0)) {
      throw new UserFacingError('An amount is positive dollars and whole cents, e.g. 250 or 99.50.');
    }
    if (ask.kind === 'units' && !(Number.isSafeInteger(ask.units) && ask.units > 0)) {
      throw new UserFacingError('Units are a positive number with at most six decimals.');
    }
    const members = await this.repo.members(c.guildId);
    const holding = members.find((m) => m.memberId === c.memberId)?.units ?? 0;
    const last = await this.repo.lastStrike(c.guildId);
    if (holding <= 0 || !last) {
      throw new UserFacingError('You hold no units in the fund yet (a contribution becomes units at the next strike).');
    }
    const book = { navCents: last.navAfterCents, units: last.unitsAfter };
    const heldCents = centsFor(holding, book);
    const holds = `You hold ${holding / UNIT_SCALE} units, worth ${money(heldCents)} at the last strike`;
    if (ask.kind === 'units' && ask.units > holding) {
      throw new UserFacingError(`${holds}: ask for that many or fewer, or for everything with /fund cashout all:true.`);
    }
    if (ask.kind === 'amount' && ask.cents > heldCents) {
      throw new UserFacingError(`${holds}: ask for that much or less, or for everything with /fund cashout all:true.`);
    }
    const worth = ask.kind === 'amount' ? ask.cents : ask.kind === 'units' ? centsFor(ask.units, book) : heldCents;
    const settings = await getSettings(this.#d.store, c.guildId);
    const minimum = settings.fundMinCashoutCents ?? DEFAULT_MIN_CASHOUT_CENTS;
    if (worth <= 0) throw new UserFacingError(`${holds}: there is nothing to cash out.`);
    if (ask.kind !== 'all' && worth < minimum) {
      throw new UserFacingError(
        `The smallest cash-out is ${money(minimum)} (this one is worth ${money(worth)}); ask for more, or for everything with /fund cashout all:true.`,
      );
    }
    // The tier counts the member's asks since the last strike together: three asks under it are one above it.
    const earlier = await this.repo.asksSince(c.guildId, c.memberId, last.at);
    const earlierCents = earlier.reduce((a, x) => a + this.#worthOf(x.ask, x.cents, holding, book), 0);
    const needsApproval = earlierCents + worth > (settings.fundCashoutTierCents ?? DEFAULT_CASHOUT_TIER_CENTS);
    const cashout = await this.repo.requestCashout({
      guildKey: c.guildId,
      memberId: c.memberId,
      ask,
      needsApproval,
      at: this.#d.now(),
    });
    if (!cashout) {
      const open = (await this.repo.cashouts(c.guildId, c.memberId)).find(isIn(STATES.cashoutUndealt));
      throw new UserFacingError(
        `You already have a cash-out waiting for the next strike${open ? ` (\`${open.cashoutId}\`)` : ''}: one a strike per member. A treasurer can cancel it with /fund cancel if it should change.`,
      );
    }
    return { cashout, needsApproval };
  }

  #worthOf(ask: CashoutAsk, dealt: number | null, holding: number, book: { navCents: number; units: number }): number {
    if (dealt !== null) return dealt;
    if (ask.kind === 'amount') return ask.cents;
    if (ask.kind === 'units') return centsFor(ask.units, book);
    return ask.kind === 'all' ? centsFor(holding, book) : 0;
  }

  /** Strikes NAV now (one fund beat at a time per fund, across processes); refused, with the reason, otherwise. */
  strike(guildId: string, opts: { actor: string | null; dealingKey?: string }): Promise<StrikeAttempt> {
    return this.#beat(guildId, () => this.#strike(guildId, opts));
  }

  /** One beat of a fund at a time, in every process on the store: strikes and withdrawals never overlap. */
  #beat<T>(guildId: string, fn: () => Promise<T>): Promise<T> {
    return this.#d.store.withLock(`fund-beat:${guildId}`, fn);
  }

  /**
   * Strikes NAV: every account read once, its cash bridged since it joined (planStrike), then one transaction deals
   * and writes the ledger; a post goes to the results channel. Refused (nothing written) with the reason otherwise.
   */
  async #strike(guildId: string, opts: { actor: string | null; dealingKey?: string }): Promise<StrikeAttempt> {
    const fund = await this.repo.fund(guildId);
    if (!fund) return { ok: false, reason: 'the fund has no contribution yet' };
    const accounts = await this.repo.accounts(guildId);
    if (accounts.length === 0) {
      return { ok: false, reason: 'the fund has no account yet: a treasurer adds one with /fund accounts action:add' };
    }
    const settings = await getSettings(this.#d.store, guildId);
    const bySession = await this.#sessionsByAccount();
    await this.#matchDeposits(guildId, accounts, bySession).catch((err) =>
      this.#d.logger.warn('fund deposit matching failed', { err }),
    );
    // Every account read at once: a strike waits for its slowest account, not for the sum of them all.
    const reads = await Promise.all(accounts.map((a) => this.#readAccount(a, bySession.get(accountName(a)) ?? [])));
    const plan = planStrike({ accounts: reads, named: await this.repo.named(guildId) });
    if (!plan.ok) return { ok: false, reason: plan.reason };
    const at = this.#d.now();
    const outcome = await this.repo.strike({
      guildKey: guildId,
      dealingKey: opts.dealingKey ?? `demand:${at}`,
      at,
      actor: opts.actor,
      sessions: plan.sessions,
      fundSessions: accounts.flatMap((a, i) =>
        (reads[i]?.sessionIds ?? []).map((id) => ({ sessionId: id, since: a.addedAt, account: accountName(a) })),
      ),
      settledUnread: plan.settledUnread,
      feeRateBps: bpsOf(settings.fundFeePercent),
      ...(settings.fundSharePercent
        ? {
            share: {
              rateBps: bpsOf(settings.fundSharePercent),
              pnl: (await this.#d.tipsterPnl?.(guildId, this)) ?? new Map<string, number>(),
            },
          }
        : {}),
      ...feePeriods(settings, at),
      managerId: settings.fundFeeManagerId ?? FEE_MANAGER_UNSET,
    });
    if (!outcome.struck) return { ok: false, reason: outcome.reason };
    await this.#post(guildId, settings, outcome.strike);
    return { ok: true, strike: outcome.strike };
  }

  /** One account as a strike reads it: its cash through a live session, its history since it joined, the desk's last move on it. */
  async #readAccount(a: FundAccount, twins: readonly Session[]): Promise<AccountRead> {
    const cash = await this.#cashOf(twins);
    const read: AccountRead = {
      account: accountName(a),
      sessionId: cash?.sessionId ?? null,
      sessionIds: twins.map((x) => x.session_id),
      floatCents: a.floatCents,
      bridgeFrom: a.bridgeFrom,
    };
    if (!cash) return read;
    read.balance = {
      balanceCents: cash.balanceCents,
      bonusCents: cash.bonusCents,
      retrievedAt: Number.isFinite(cash.retrievedAt) ? cash.retrievedAt : null,
    };
    const history = await this.#history(cash.sessionId, a.bridgeFrom - CLOCK_MARGIN_MS);
    if (history) read.history = history;
    let moved: number | undefined;
    for (const id of read.sessionIds) {
      const m = await this.repo.lastMoveOn(id);
      if (m !== undefined) moved = Math.max(moved ?? 0, m);
    }
    if (moved !== undefined) read.lastDeskMove = moved;
    return read;
  }

  /** An account's history since an instant, as the bridge reads it; undefined when it cannot be read whole. */
  async #history(sessionId: string, since: number): Promise<BridgeTxn[] | undefined> {
    const read = await readTransactionsSince(this.#d.gateway, sessionId, since, this.#d.now(), {
      callbackUrl: this.#d.callbackUrl,
    }).catch(() => undefined);
    if (!read?.complete) return undefined;
    return read.transactions
      .map((t) => ({
        id: t.id,
        type: String(t.type),
        status: String(t.status),
        cents: cents(t.stake),
        placedAt: Date.parse(String(t.placed_at)),
        settledAt: t.settled_at ? Date.parse(String(t.settled_at)) : null,
        withdrawalStatus: t.type === 'withdrawal' ? withdrawalStatus(t) : undefined,
      }))
      .filter((t) => t.placedAt >= since || (t.settledAt ?? 0) >= since)
      .map(({ withdrawalStatus: ws, ...t }) => (ws ? { ...t, withdrawalStatus: ws } : t));
  }

  /**
   * One beat (the leader runs it): per fund, one at a time across processes, its scheduled strike when due (once
   * per dealing day, whatever crashes), strike posts a crash left unposted, and its cash-outs' withdrawals.
   */
  async tick(guildIds: Iterable<string>): Promise<void> {
    for (const guildId of new Set([...guildIds, ...(await this.repo.guildsWithWithdrawals())])) {
      try {
        await this.#beat(guildId, async () => {
          await this.#scheduled(guildId).catch((err) =>
            this.#d.logger.warn('fund strike check failed', { err, guildId }),
          );
          await this.#withdrawalsOf(guildId);
        });
      } catch (err) {
        this.#d.logger.warn('fund beat failed', { err, guildId });
      }
    }
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
    const r = await this.#strike(guildId, { actor: null, dealingKey: key });
    if (!r.ok && settings.resultsChannelId && r.reason !== 'already struck') {
      const noticeKey = `fund-held:${guildId}:${key}`;
      if (!(await this.#d.outbox.has(`create:${noticeKey}`))) {
        await this.#d.outbox.create(noticeKey, settings.resultsChannelId, this.#d.present.strikeHeld(key, r.reason));
      }
    }
  }

  async #monthly(guildId: string, settings: GuildSettings): Promise<void> {
    if (!settings.resultsChannelId) return;
    const month = localParts(this.#d.now(), settings.timezone).day.slice(0, 7);
    const key = `fund-month:${guildId}:${month}`;
    if (await this.#d.outbox.has(`create:${key}`)) return;
    // "The fund as <month> opens" only for a month the fund was open at its start: not mid-month, on its first days.
    const first = await this.repo.firstStrikeAt(guildId);
    const opens = dayStart(`${month}-01`, settings.timezone);
    if (first === undefined || opens === undefined || first >= opens) return;
    const v = await this.valuation(guildId);
    if (!v.last) return;
    const members = {
      ...v,
      cashouts: await this.repo.cashouts(guildId),
      unresolved: await this.repo.unresolvedWithdrawals(guildId),
    };
    await this.#d.outbox.create(key, settings.resultsChannelId, this.#d.present.monthlyStatement(month, members));
  }

  async #post(guildId: string, settings: GuildSettings, s: StrikeRecord): Promise<void> {
    if (!settings.resultsChannelId) return;
    const key = `fund-strike:${s.strikeId}`;
    if (await this.#d.outbox.has(`create:${key}`)) return;
    // Contributions still waiting for their deposit as of this strike: not dealt, named so the treasurer sees why.
    const unmatched = (await this.repo.contributions(guildId)).filter(
      (c) => isWaiting(c) && !c.depositId && c.createdAt <= s.at,
    );
    await this.#d.outbox.create(key, settings.resultsChannelId, this.#d.present.strike(s, unmatched));
  }

  /** Contributions not yet matched, against the `deposit` transactions of their account (any twin session). */
  async #matchDeposits(guildId: string, accounts: readonly FundAccount[], bySession: Map<string, Session[]>) {
    const waiting = (await this.repo.contributions(guildId)).filter((c) => !c.depositId && isWaiting(c));
    for (const a of accounts) {
      const twins = bySession.get(accountName(a)) ?? [];
      const sessionIds = twins.map((x) => x.session_id);
      const mine = waiting.filter((c) => sessionIds.includes(c.sessionId));
      // The account's history through a live session (a twin machine may be off; they share one history).
      const live = twins.find((x) => x.active) ?? twins[0];
      if (mine.length === 0 || !live) continue;
      const since = Math.min(...mine.map((c) => c.createdAt)) - 86_400_000;
      const read = await readTransactionsSince(this.#d.gateway, live.session_id, since, this.#d.now(), {
        callbackUrl: this.#d.callbackUrl,
      });
      if (read) await matchAccountDeposits(this.repo, guildId, sessionIds, read.transactions);
    }
  }

  /**
   * The cash-outs' withdrawals of every fund (each under its beat's lock): attempts in flight are followed up, struck
   * cash-outs get an attempt on one of the fund's accounts, or wait and say why.
   */
  /** When the fund was first struck (undefined: never). */
  firstStrikeAt(guildId: string): Promise<number | undefined> {
    return this.repo.firstStrikeAt(guildId);
  }

  async withdrawals(): Promise<void> {
    for (const guildId of await this.repo.guildsWithWithdrawals()) {
      await this.#beat(guildId, () => this.#withdrawalsOf(guildId));
    }
  }

  async #withdrawalsOf(guildId: string): Promise<void> {
    for (const a of await this.repo.openWithdrawals(guildId)) {
      try {
        await this.#followUp(a);
      } catch (err) {
        this.#d.logger.warn('fund withdrawal follow-up failed', { err, attempt: a.attemptId });
      }
    }
    for (const c of await this.repo.redeemedWaiting(guildId)) {
      try {
        await this.#withdraw(c);
      } catch (err) {
        this.#d.logger.warn('fund withdrawal failed to start', { err, cashout: c.cashoutId });
      }
    }
  }

  async #withdraw(c: Cashout & { guildKey: string }): Promise<void> {
    // What is still owed: a cash-out paid in parts from several accounts has some already withdrawn.
    const owed = (c.cents ?? 0) - (await this.repo.withdrawnSoFar(c.cashoutId));
    const parts = await this.repo.withdrawalsOf(c.cashoutId);
    // A refused or unsent attempt is tried again after the window, not at every beat.
    const last = parts.at(-1);
    if (last && !completed(last) && this.#d.now() - last.createdAt < this.#window()) return;
    const sources: WithdrawSource[] = [];
    const bySession = await this.#sessionsByAccount();
    for (const a of await this.repo.accounts(c.guildKey)) {
      const twins = (bySession.get(accountName(a)) ?? []).filter((x) => x.active);
      const cash = await this.#cashOf(twins);
      if (!cash) continue;
      // The balance is a cache: a part taken from this account since it was read is not in it yet.
      const ids = new Set(twins.map((x) => x.session_id));
      const since = parts
        .filter((p) => ids.has(p.sessionId) && completed(p) && !(p.createdAt < cash.retrievedAt))
        .reduce((sum, p) => sum + p.amountCents, 0);
      // The float is not the fund's: never withdrawn for a member.
      const fundCash = cash.balanceCents - cash.bonusCents - a.floatCents;
      sources.push({
        account: accountName(a),
        sessionId: cash.sessionId,
        cents: Math.min(cash.withdrawableCents, fundCash) - since,
      });
    }
    const plan = planWithdrawal(owed, sources);
    if ('nothing' in plan) {
      await this.repo.setCashoutNote(c.cashoutId, 'worth less than a cent: nothing to withdraw');
      return;
    }
    if ('wait' in plan) {
      await this.repo.setCashoutNote(c.cashoutId, plan.wait);
      return;
    }
    const attempt = await this.repo.beginWithdrawal({
      cashoutId: c.cashoutId,
      sessionId: plan.from.sessionId,
      at: this.#d.now(),
      amountCents: plan.cents,
    });
    if (!attempt) return;
    let correlationId: string;
    try {
      const handle = await this.#d.gateway.withdrawals.create({
        session_id: plan.from.sessionId,
        amount: dollarsFromCents(plan.cents),
        // Tagged with the attempt: its result webhook ties the job to it even if the 202 is lost (decision 1902).
        ...(this.#d.callbackUrl ? { callback_url: attemptCallback(this.#d.callbackUrl, attempt.attemptId) } : {}),
      });
      correlationId = handle.correlationId;
    } catch (err) {
      const move = sendFailure(err);
      await this.repo.moveWithdrawal(
        attempt.attemptId,
        move === 'markNotSent' ? 'markNotSent' : 'markUnknown',
        { note: (err as Error).message },
        this.#d.now(),
      );
      return;
    }
    await this.repo.moveWithdrawal(attempt.attemptId, 'markSubmitted', { correlationId }, this.#d.now());
  }

  #window(): number {
    return this.#d.withdrawalWindowMs ?? WITHDRAWAL_SAFE_WINDOW_MS;
  }

  /**
   * A withdrawal in flight, resolved only from its own evidence (decision 1804): its job by correlation id, then
   * its own withdrawal_id in the account's history. Never matched by amount. One whose request may have reached
   * the gateway with no job to ask: after the safe window, a history with no withdrawal that no attempt owns says
   * it was never made; otherwise only a treasurer can say whose that withdrawal is, and it waits, unresolved.
   */
  /**
   * A withdrawal job's result webhook (the receiver hands every verified delivery here): the attempt its callback was
   * tagged with, or whose correlation id it carries, is moved by it at once (under the fund's beat). A tagged delivery
   * for an attempt whose 202 was lost (a kill -9, a slow answer cut off) gives it its correlation id: evidence, never
   * an amount. Polling stays the fallback (#followUp reads the stored delivery first, then asks the job).
   */
  async fromWebhook(body: WebhookDelivery, query?: URLSearchParams): Promise<void> {
    const tagged = query?.get(ATTEMPT_TAG) ?? undefined;
    const found = tagged
      ? await this.repo.withdrawal(tagged)
      : await this.repo.withdrawalByCorrelation(body.correlation_id);
    if (!found) return;
    // The evidence at once, without waiting for the beat: whichever process follows the attempt next reads its job.
    if (tagged && !found.correlationId) await this.repo.recordCorrelation(found.attemptId, body.correlation_id);
    const open = (s: WithdrawalAttempt['state']) => WITHDRAWAL_FOLLOWED.includes(s) || s === 'unresolved';
    if (!open(found.state)) return;
    await this.#beat(found.guildKey, async () => {
      const a = await this.repo.withdrawal(found.attemptId);
      if (!a || !open(a.state)) return;
      await this.#applyJob(a, body.correlation_id, jobEntryOf(body));
    });
  }

  /** A job's entry (poll or webhook) applied to its attempt; false when it says nothing final yet. */
  async #applyJob(
    a: WithdrawalAttempt,
    correlationId: string,
    entry: { status: string; result?: unknown } | undefined,
  ): Promise<boolean> {
    const now = this.#d.now();
    if (!entry || entry.status === 'pending') return false;
    if (a.correlationId && a.correlationId !== correlationId) return false;
    if (!a.correlationId || (entry.status === 'completed' && !submitted(a))) {
      // The 202 was lost, but the job's own delivery names this attempt: it is its job.
      const moved = await this.repo.moveWithdrawal(a.attemptId, 'markSubmitted', { correlationId }, now);
      if (!moved) return false;
      a = moved;
    }
    if (entry.status !== 'completed') return false;
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
    if (r.success && r.status === 'pending' && r.withdrawal_id) {
      // The bookmaker holds it: followed by its own id in the account's history.
      if (submitted(a)) await this.repo.moveWithdrawal(a.attemptId, 'markHeld', set, now);
      else await this.repo.moveWithdrawal(a.attemptId, 'markSubmitted', set, now);
    } else if (r.success && r.status !== 'failed' && r.status !== 'pending') {
      await this.repo.moveWithdrawal(a.attemptId, 'markCompleted', set, now);
    } else {
      await this.repo.moveWithdrawal(a.attemptId, 'markFailed', set, now);
    }
    return true;
  }

  /** The job's result as its webhook delivered it (stored by the receiver), if it came. */
  async #delivered(correlationId: string) {
    const body = await storedDelivery(this.#d.store, correlationId, this.#d.logger, this.#d.now()).catch(
      () => undefined,
    );
    return body ? jobEntryOf(body) : undefined;
  }

  async #followUp(a: WithdrawalAttempt): Promise<void> {
    const now = this.#d.now();
    if (a.correlationId && !a.gatewayWithdrawalId) {
      // The webhook first (the same result tracking as bets), the poll as the fallback.
      const entry =
        (await this.#delivered(a.correlationId)) ??
        (await this.#d.gateway.jobs.status([a.correlationId]).catch(() => []))[0];
      if (entry?.status === 'pending') return;
      if (await this.#applyJob(a, a.correlationId, entry)) return;
      // timeout, unknown or no answer: transient; the job is asked again until its correlation id lapses.
      if (submitted(a)) await this.repo.moveWithdrawal(a.attemptId, 'markUnknown', {}, now);
      if (now - a.createdAt < CORRELATION_LIFETIME_MS) return;
    }
    const history = await this.#history(a.sessionId, a.createdAt - CLOCK_MARGIN_MS);
    if (!history) return;
    if (a.gatewayWithdrawalId) {
      const own = history.find((t) => t.type === 'withdrawal' && t.id === a.gatewayWithdrawalId);
      if (!own || own.withdrawalStatus === 'pending') return;
      await this.repo.moveWithdrawal(
        a.attemptId,
        own.withdrawalStatus === 'failed' ? 'markFailed' : 'markCompleted',
        { bookmakerStatus: own.withdrawalStatus ?? 'completed' },
        now,
      );
      return;
    }
    if (now - a.createdAt < this.#window()) return;
    // Other attempts on the account still waiting for their own job answer first: their ids are not known yet.
    if (await this.repo.attemptsAwaitingIds(a.attemptId)) return;
    const owned = await this.repo.ownedWithdrawalIds();
    const explained = (await this.repo.named(a.guildKey)).explained;
    const strangers = history.filter(
      (t) => t.type === 'withdrawal' && !owned.has(t.id) && !explained.has(t.id) && t.withdrawalStatus !== 'failed',
    );
    if (strangers.length === 0) {
      await this.repo.moveWithdrawal(a.attemptId, 'markNeverSent', { note: 'no withdrawal in the history' }, now);
      return;
    }
    const list = strangers.map((t) => `${t.id} (${money(t.cents)})`).join(', ');
    await this.repo.moveWithdrawal(
      a.attemptId,
      'markUnresolved',
      {
        note: `its request may have reached the gateway and the account's history lists withdrawals no attempt owns: ${list}. A treasurer settles it: /fund withdrawal attempt:${a.attemptId} withdrawal_id:<one of them> or none:true`,
      },
      now,
    );
  }

  /**
   * A treasurer settles an unresolved attempt by hand (ledgered): the withdrawal of the account's history that was
   * its own (checked: a withdrawal on that account no attempt owns), or none (never made: the cash-out may try again).
   */
  async settleWithdrawal(c: {
    guildId: string;
    attemptId: string;
    withdrawalId: string | null;
    actor: string;
  }): Promise<WithdrawalAttempt> {
    const a = await this.repo.withdrawal(c.attemptId.trim());
    if (!a || a.guildKey !== c.guildId) {
      throw new UserFacingError(`No withdrawal attempt ${c.attemptId} in this fund (/fund members lists them).`);
    }
    if (!isIn(STATES.withdrawalUnresolved)(a)) {
      throw new UserFacingError(
        `That attempt is ${a.state.replace('_', ' ')}: only an unresolved one is settled by hand.`,
      );
    }
    const now = this.#d.now();
    return this.#beat(c.guildId, async () => {
      if (c.withdrawalId === null) {
        const moved = await this.repo.moveWithdrawal(
          a.attemptId,
          'settleAsNotSent',
          { note: 'settled by hand: never made' },
          now,
          c.actor,
        );
        if (!moved) throw new UserFacingError('That attempt moved meanwhile; look again with /fund members.');
        return moved;
      }
      const id = c.withdrawalId.trim();
      const history = await this.#history(a.sessionId, a.createdAt - CLOCK_MARGIN_MS);
      const found = history?.find((t) => t.type === 'withdrawal' && t.id === id);
      if (!found) {
        throw new UserFacingError(`The account's history since the attempt lists no withdrawal ${id}.`);
      }
      // A withdrawal is the attempt's own only if it moved the attempt's amount (decision 1950): someone else's
      // withdrawal of another size must never settle it, whatever its timing.
      if (Math.abs(found.cents) !== a.amountCents) {
        throw new UserFacingError(
          `Withdrawal ${id} moved ${money(Math.abs(found.cents))}, but this attempt asked for ${money(a.amountCents)}: ` +
            'only a withdrawal of the same amount can be its own. Pick the one of that amount, or none:true if it was never made.',
        );
      }
      if ((await this.repo.ownedWithdrawalIds()).has(id)) {
        throw new UserFacingError(`Withdrawal ${id} is already another attempt's: a withdrawal pays one cash-out.`);
      }
      if (found.withdrawalStatus === 'pending') {
        throw new UserFacingError(`Withdrawal ${id} is still pending at the bookmaker: settle it once it completes.`);
      }
      const moved = await this.repo.moveWithdrawal(
        a.attemptId,
        found.withdrawalStatus === 'failed' ? 'settleAsNotSent' : 'settleAsWithdrawn',
        {
          gatewayWithdrawalId: id,
          bookmakerStatus: found.withdrawalStatus ?? 'completed',
          note: `settled by hand as withdrawal ${id}`,
        },
        now,
        c.actor,
      );
      if (!moved) throw new UserFacingError('That attempt moved meanwhile; look again with /fund members.');
      return moved;
    });
  }

  /** The treasurer paid the member the withdrawn cash. */
  async markPaid(guildId: string, cashoutId: string, actor: string): Promise<Cashout> {
    const c = await this.repo.cashout(cashoutId);
    if (!c || (await this.repo.cashouts(guildId)).every((x) => x.cashoutId !== cashoutId)) {
      throw new UserFacingError(`No cash-out ${cashoutId} in this server's fund. /fund members lists them.`);
    }
    if (isIn(STATES.cashoutPaid)(c)) throw new UserFacingError('That cash-out is already marked paid.');
    if (!isIn(STATES.cashoutWithdrawn)(c)) {
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
    // A performance fee or a tipster share owed to a member is not a cash-out of their units.
    const cashouts = (await this.repo.cashouts(guildId, memberId)).filter((c) => !owedByStrike(c.ask));
    const contributedCents = contributions
      .filter(isIn(STATES.contributionIssued))
      .reduce((a, c) => a + c.amountCents, 0);
    const cashedOutCents = cashouts.reduce((a, c) => a + (c.cents ?? 0), 0);
    const valueCents = mine?.cents ?? 0;
    const issuedUnits = contributions.reduce((a, c) => a + (c.units ?? 0), 0);
    // Per unit: the price now against the average price paid for the units issued.
    const paidPerUnit = issuedUnits > 0 ? (contributedCents * UNIT_SCALE) / issuedUnits : null;
    return {
      units: mine?.units ?? 0,
      valueCents,
      share: last && last.unitsAfter > 0 ? (mine?.units ?? 0) / last.unitsAfter : 0,
      contributedCents,
      cashedOutCents,
      pendingCents: contributions.filter(isWaiting).reduce((a, c) => a + c.amountCents, 0),
      ...memberReturn({ valueCents, contributedCents, cashedOutCents }),
      perUnitReturn: paidPerUnit && last ? priceReturn(last.price, paidPerUnit) : null,
      residualCent: mine?.residualCent ?? false,
      lastStrike: last ?? null,
      openCashouts: cashouts.filter((c) => !isIn(STATES.cashoutClosed)(c)),
    };
  }
}

/**
 * The guild's contributions on a session not yet matched, against that session's `deposit` transactions (as read):
 * each match is stored. The strike and the daily reconciliation both call it. Returns the contributions' matches.
 */
export function matchSessionDeposits(
  repo: FundRepo,
  guildId: string,
  sessionId: string,
  transactions: readonly Transaction[],
): Promise<Array<{ contributionId: string; depositId: string }>> {
  return matchAccountDeposits(repo, guildId, [sessionId], transactions);
}

/** The same, for contributions into any session of one account (its twins share one history). */
export async function matchAccountDeposits(
  repo: FundRepo,
  guildId: string,
  sessionIds: readonly string[],
  transactions: readonly Transaction[],
): Promise<Array<{ contributionId: string; depositId: string }>> {
  const all = await repo.contributions(guildId);
  const waiting = all.filter((c) => !c.depositId && isWaiting(c) && sessionIds.includes(c.sessionId));
  if (waiting.length === 0) return [];
  const used = new Set(all.flatMap((c) => (c.depositId ? [c.depositId] : [])));
  const deposits = transactions
    .filter((t) => t.type === 'deposit')
    .map((t) => ({ id: t.id, cents: cents(t.stake), at: Date.parse(String(t.placed_at)) }));
  const matches = matchDeposits(waiting, deposits, used);
  for (const m of matches) await repo.markDepositMatched(m.contributionId, m.depositId);
  return matches;
}

/** The query parameter a withdrawal's callback_url carries: the attempt it was sent for. */
const ATTEMPT_TAG = 'fund_attempt';

/** The callback URL of one withdrawal attempt (the desk's own, tagged with the attempt's id). */
export function attemptCallback(callbackUrl: string, attemptId: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set(ATTEMPT_TAG, attemptId);
  return url.toString();
}

/** A webhook delivery as a job's entry: its final status and, completed, its result. */
function jobEntryOf(body: WebhookDelivery): { status: string; result?: unknown } | undefined {
  const status = finalStatusOf(body);
  if (status === undefined) return undefined;
  return status === 'completed' ? { status, result: body.result } : { status };
}

/** The bookmaker's state of a withdrawal transaction: its own field where given, else from the status. */
export function withdrawalStatus(t: Transaction): 'pending' | 'completed' | 'failed' {
  const own = (t as { withdrawal_status?: unknown }).withdrawal_status;
  if (own === 'pending' || own === 'completed' || own === 'failed') return own;
  if (t.status === 'pending') return 'pending';
  if (t.status === 'void') return 'failed';
  return 'completed';
}
