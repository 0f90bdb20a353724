import { randomBytes } from 'node:crypto';
import { APIError, NetworkError, RequestTimeoutError } from '../../gateway/errors.js';
import type { AccountHealth } from '../accounts/index.js';
import type { BotTunables } from '../config/config.js';
import type { Logger } from '../config/logger.js';
import type { GatewayPort } from '../gateway-port.js';
import type { JobRecord, ResultTracker } from '../jobs/index.js';
import { type ShareCap, shareCapText } from '../model/bank-caps.js';
import { dayIn } from '../model/dates.js';
import { formatMoney } from '../model/money.js';
import {
  checkStake,
  decideOnLivePrice,
  type PriceDecision,
  type SlipPayload,
  slipCommand,
  slipKind,
} from '../model/slip-rules.js';
import { UserFacingError } from '../model/user-facing-error.js';
import { bindingShare, exposureCaps, type GuildSettings, getSettings, stakeLimits } from '../settings/index.js';
import type { BotStore } from '../store/index.js';
import type { BetRecord, BetRecordRepo, ClaimOutcome, FundDecision } from './bet-records.js';
import type { BetJobContext, BetResults, StackJobContext } from './bet-results.js';
import { approvalPolicy, approvalsNeeded } from './model/approval-policy.js';
import type { ProposalRepo } from './proposals.js';
import { submitRecord } from './slip-kinds.js';
import type { SlipRecord, SlipRepo } from './slips.js';
import { stackMembers, stackRecordSlipId, stackRequest } from './stack.js';

const RESEND_WAIT_MS = 120_000;

/** The live price of a slip of any kind, read at Confirm. */
export interface LivePrices {
  livePriceFor(p: SlipPayload): Promise<number>;
}

export interface PlacementDeps {
  gateway: GatewayPort;
  store: BotStore;
  slips: SlipRepo;
  records: BetRecordRepo;
  proposals: ProposalRepo;
  tracker: ResultTracker;
  results: BetResults;
  prices: LivePrices;
  tunables: BotTunables;
  callbackUrl: string | undefined;
  logger: Logger;
  now: () => number;
  /** Account health: a place_bet refused before a job is evidence about its session. */
  accounts?: AccountHealth;
}

/** The fund's gate (decision 1950): whose a slip's bet is, and the rooms its claim reserves. */
export interface FundGatePort {
  decide(p: SlipPayload, guildKey: string): Promise<FundDecision>;
}

/** What Confirm did. After a claim, everything shown goes through the outbox, so only the state is returned. */
export type ConfirmResult =
  | { kind: 'recorded'; record: BetRecord }
  | { kind: 'not_owner'; ownerId: string }
  | { kind: 'expired'; slip: SlipPayload }
  | { kind: 'handled'; record: BetRecord | undefined }
  | { kind: 'wrong_message' }
  | { kind: 'needs_approval' }
  | {
      kind: 'closed';
      slip: SlipPayload;
      title: string;
      message: string;
      /** The live price when the price moved: the slip offers to bet again at it. */
      priceMoved?: number;
    };

export type CancelResult =
  | { kind: 'cancelled'; slip: SlipPayload }
  | { kind: 'not_owner'; ownerId: string }
  | { kind: 'handled'; record: BetRecord | undefined };

/** Why a claim found no room: the cap, what it allows, what is already held against it. */
export function overLimitText(
  o: Extract<ClaimOutcome, { kind: 'over_limit' }>,
  p: SlipPayload,
  share?: ShareCap,
): string {
  const limit = formatMoney(o.limitCents);
  const used = formatMoney(o.usedCents);
  const room = formatMoney(Math.max(0, o.limitCents - o.usedCents));
  const what: Record<typeof o.cap, string> = {
    member_day: `today's limit of ${limit} per member (you have ${used} staked)`,
    event: `the syndicate's cap of ${limit} on ${p.eventName} (${used} already rides on it)`,
    market: `the syndicate's cap of ${limit} on ${p.marketLabel} in ${p.eventName} (${used} already rides on it)`,
    session_day: `today's cap of ${limit} through the ${p.bookie} account ${p.sessionId} (${used} staked today)`,
    syndicate_day: `the syndicate's daily cap of ${limit} (${used} staked today)`,
    runner: `the syndicate's cap of ${limit} on ${o.runner ?? 'one runner'} in ${p.eventName}, counting its singles and every multi with a leg on it (${used} already rides on it)`,
  };
  const why = share ? ` The cap is ${shareCapText(share)}.` : '';
  return `Not placed: this bet would take the desk past ${what[o.cap]}. Room left: ${room}.${why} Try a smaller stake, or see /exposure.`;
}

/** The move a failed place_bet makes: `markNotSent` only when the gateway certainly did not take the bet. */
export function sendFailure(err: unknown): 'markNotSent' | 'markSendUnknown' {
  if (err instanceof UserFacingError) return 'markNotSent';
  if (err instanceof NetworkError || err instanceof RequestTimeoutError) {
    return err.mayHaveReachedServer ? 'markSendUnknown' : 'markNotSent';
  }
  // A 4xx (including 429) is a refusal before any bet was made; a 5xx may come after the bookmaker acted.
  if (err instanceof APIError && err.status !== undefined && err.status >= 400 && err.status < 500) {
    return 'markNotSent';
  }
  return 'markSendUnknown';
}

/**
 * Placing a prepared slip: Confirm's checks (owner, message, expiry, stake, tiers, live price), the claim that
 * writes the bet record with its hold, the send, and the move a failed send makes. Cancel closes a slip instead.
 */
export class Placement {
  #fundGate: FundGatePort | undefined;
  constructor(private readonly d: PlacementDeps) {}

  /** The fund's gate, once the fund is built (the fund reads the bets this places). */
  useFundGate(gate: FundGatePort): void {
    this.#fundGate = gate;
  }

  /** Stores the slip's message; when a claim came first (a quick last approval), it shows the bet's state. */
  async attachMessage(slipId: string, channelId: string, messageId: string): Promise<void> {
    await this.d.slips.setMessage(slipId, channelId, messageId);
    const record = await this.d.records.bySlip(slipId);
    if (record) await this.d.results.show(record);
  }

  /**
   * Confirm: check the live price (nothing is held yet, so a failure leaves the slip confirmable), then claim
   * the slip and write the bet record `sending` with the day's hold in one statement, then place. From the
   * claim on, the record says what happened and every message about it goes through the outbox.
   */
  async confirm(
    slipId: string,
    userId: string,
    where: { channelId: string; messageId: string | null },
    opts: { approved?: boolean; gate?: { guildId: string; settings: GuildSettings } } = {},
  ): Promise<ConfirmResult> {
    const slip = await this.d.slips.get(slipId);
    if (!slip) return { kind: 'handled', record: await this.d.records.bySlip(slipId) };
    const refused = await this.#mayConfirm(slip, userId, where, opts.approved === true);
    if (refused) return refused;
    const p = slip.payload;
    // The gate's reading when it read this slip's server (one read per Confirm), else the store's.
    const settings =
      opts.gate !== undefined && opts.gate.guildId === slip.guildId
        ? opts.gate.settings
        : await getSettings(this.d.store, slip.guildId);
    // Share caps are worked out from the bank the slip was made with: a bank change moves them from the next slip.
    const limits = stakeLimits(settings, this.d.tunables, p.capBankCents);
    // A stack's per-bet limit holds for each of its multis; its day, caps and tiers count their sum.
    const perBet = (p.stack ? p.stack.map((m) => m.stakeCents) : [p.stakeCents])
      .map((cents) => checkStake(cents, limits))
      .find((r) => !r.ok);
    if (perBet && !perBet.ok) return this.#closeBeforeSending(slipId, p, perBet.message);
    // The tiers are read again too: a slip made under t1 that an admin's lower t1 now puts above it is refused.
    const tier = opts.approved === true ? undefined : tierRefusal(settings, p);
    if (tier) return this.#closeBeforeSending(slipId, p, tier);
    const price = await this.#checkLivePrice(p);
    if (!price.decision.ok) return this.#closeBeforeSending(slipId, p, price.decision.message, price.live);
    const fund = await this.#fundGate?.decide(p, slip.guildId ?? 'dm');
    if (fund && !fund.ok) return this.#closeBeforeSending(slipId, p, fund.message);
    const claimed = {
      slipId,
      userId,
      guildKey: slip.guildId ?? 'dm',
      day: dayIn(this.d.now(), settings.timezone),
      dayLimitCents: limits.perDayCents,
      caps: exposureCaps(settings, p.capBankCents),
      ...(fund?.ok ? { fund: fund.claim } : {}),
      now: this.d.now(),
    };
    if (slipKind(p) === 'stack') {
      const members = stackMembers(p, slipId).map((payload, i) => ({
        placementId: randomBytes(12).toString('base64url'),
        slipId: stackRecordSlipId(slipId, i + 1),
        payload,
        stakeCents: payload.stakeCents,
      }));
      const claim = await this.d.records.claimStack({ ...claimed, members });
      if (claim.kind !== 'claimed') return this.#notClaimed(slipId, p, settings, claim, fund);
      return { kind: 'recorded', record: await this.#sendStack(claim.records, p) };
    }
    const claim = await this.d.records.claim({
      ...claimed,
      placementId: randomBytes(12).toString('base64url'),
      stakeCents: p.stakeCents,
    });
    if (claim.kind !== 'claimed') return this.#notClaimed(slipId, p, settings, claim, fund);
    return { kind: 'recorded', record: await this.#send(claim.record, price.decision.floor, price.live) };
  }

  /** What a claim that wrote no record means for the member: handled by another click, or refused by a cap. */
  async #notClaimed(
    slipId: string,
    p: SlipPayload,
    settings: GuildSettings,
    claim: Exclude<ClaimOutcome, { kind: 'claimed' }>,
    fund: FundDecision | undefined,
  ): Promise<ConfirmResult> {
    if (claim.kind === 'handled') return { kind: 'handled', record: claim.record };
    if (claim.kind === 'other') return { kind: 'handled', record: undefined };
    if (claim.kind === 'over_limit') {
      const share = bindingShare(settings, this.d.tunables, p.capBankCents, claim.cap);
      return this.#closeBeforeSending(slipId, p, overLimitText(claim, p, share));
    }
    if (claim.kind === 'fund_over' && fund?.ok) {
      return this.#closeBeforeSending(slipId, p, fund.overText(claim.cap, claim.usedCents, p.stakeCents));
    }
    return this.#closeBeforeSending(
      slipId,
      p,
      'Not placed: the account joined or left a fund while this bet was being confirmed. Make the slip again.',
    );
  }

  /**
   * stacked_srm for a stack's records, all in `sending` (decision 2010): one call; a failure moves every record as a
   * single's failed send moves its one; the 202 is stored as one `stack` job before every record moves to submitted.
   */
  async #sendStack(records: BetRecord[], p: SlipPayload): Promise<BetRecord> {
    const [head] = records;
    if (!head) throw new Error('a stack without records');
    let handle: Awaited<ReturnType<GatewayPort['bets']['placeStackedSrm']>>;
    try {
      const body = stackRequest(
        p,
        records.map((r) => r.stakeCents),
        this.d.callbackUrl,
      );
      handle = await this.d.gateway.bets.placeStackedSrm(body);
    } catch (err) {
      const move = sendFailure(err);
      const reason = this.d.logger.redact(String((err as Error)?.message ?? err)).slice(0, 300);
      this.d.logger.warn('stacked_srm failed', { placementId: head.placementId, move, err });
      for (const r of records) await this.d.records[move](r.placementId, { note: reason }, this.d.now());
      await this.d.results.show(head);
      return (await this.d.records.get(head.placementId)) ?? head;
    }
    const timeoutAt = Date.parse(String(handle.envelope.timeout_at ?? ''));
    const context: StackJobContext = {
      placementIds: records.map((r) => r.placementId),
      slip: p,
      guildId: head.guildId,
      userId: head.userId,
      day: head.day,
    };
    await this.d.tracker.record({
      correlationId: handle.correlationId,
      kind: 'stack',
      guildId: head.guildId,
      channelId: head.channelId,
      messageId: head.messageId,
      userId: head.userId,
      sessionId: p.sessionId,
      envelope: handle.envelope as unknown as Record<string, unknown>,
      context,
    });
    for (const r of records) {
      await this.d.records.markSubmitted(
        r.placementId,
        {
          correlationId: handle.correlationId,
          timeoutAt: Number.isFinite(timeoutAt) ? timeoutAt : null,
          odds: r.payload.shownOdds,
        },
        this.d.now(),
      );
    }
    await this.d.results.show(head);
    this.d.tracker.track(handle.envelope);
    return (await this.d.records.get(head.placementId)) ?? head;
  }

  /**
   * Confirm's first step: whether this click may go on. A proposal's slip is placed only by its last approval; the
   * click must come from the slip's own message and owner; an expired slip closes. Undefined: go on.
   */
  async #mayConfirm(
    slip: SlipRecord<SlipPayload>,
    userId: string,
    where: { channelId: string; messageId: string | null },
    approved: boolean,
  ): Promise<ConfirmResult | undefined> {
    if (!approved && (await this.#isProposal(slip.slipId))) return { kind: 'needs_approval' };
    // A proposal's approvals place it, from its record: its message id may not be stored yet (decision 1631).
    if (
      !approved &&
      slip.messageId !== null &&
      (slip.messageId !== where.messageId || slip.channelId !== where.channelId)
    ) {
      return { kind: 'wrong_message' };
    }
    if (slip.userId !== userId) return { kind: 'not_owner', ownerId: slip.userId };
    // A crash between posting the slip and storing its message id: the owner's click names the message.
    if (slip.messageId === null && where.messageId !== null) {
      await this.d.slips.adoptMessage(slip.slipId, where.channelId, where.messageId);
    }
    if (slip.expiresAt > this.d.now()) return undefined;
    const closed = await this.d.slips.close(slip.slipId);
    return closed
      ? { kind: 'expired', slip: slip.payload }
      : { kind: 'handled', record: await this.d.records.bySlip(slip.slipId) };
  }

  /** Confirm's price step: the live price and whether the slip still stands at it (nothing is held yet). */
  async #checkLivePrice(p: SlipPayload): Promise<{ live: number; decision: PriceDecision }> {
    let live: number;
    try {
      live = await this.d.prices.livePriceFor(p);
    } catch (err) {
      const why = err instanceof UserFacingError ? err.message : 'The price check failed.';
      throw new UserFacingError(`${why} Nothing was placed and the slip is still open: press Confirm to try again.`);
    }
    return { live, decision: decideOnLivePrice(p, live, this.d.tunables.priceTolerance) };
  }

  async #isProposal(slipId: string): Promise<boolean> {
    return (await this.d.proposals.bySlip(slipId)) !== undefined;
  }

  /** place_bet for a record in `sending`; every way it can end moves the record and queues its message. */
  async #send(
    record: BetRecord,
    floor: number,
    live: number,
    onHandle?: (handle: Awaited<ReturnType<typeof submitRecord>>) => void,
  ): Promise<BetRecord> {
    const p = record.payload;
    let handle: Awaited<ReturnType<typeof submitRecord>>;
    try {
      handle = await submitRecord(this.d.gateway, record, floor, this.d.callbackUrl);
      onHandle?.(handle);
    } catch (err) {
      const move = sendFailure(err);
      const reason = this.d.logger.redact(String((err as Error)?.message ?? err)).slice(0, 300);
      this.d.logger.warn('place_bet failed', { placementId: record.placementId, move, err });
      const moved = await this.d.records[move](record.placementId, { note: reason }, this.d.now());
      if (moved) await this.d.results.show(moved);
      await this.d.accounts
        ?.sendFailed(record, reason)
        .catch((e) =>
          this.d.logger.warn('recording account evidence failed', { placementId: record.placementId, err: e }),
        );
      return moved ?? (await this.d.records.get(record.placementId)) ?? record;
    }
    // The 202 is stored before anything else happens to it: the job row, then the record's move.
    const timeoutAt = Date.parse(String(handle.envelope.timeout_at ?? ''));
    const context: BetJobContext = {
      placementId: record.placementId,
      slip: p,
      guildId: record.guildId,
      userId: record.userId,
      day: record.day,
      odds: live,
    };
    await this.d.tracker.record({
      correlationId: handle.correlationId,
      kind: 'bet',
      guildId: record.guildId,
      channelId: record.channelId,
      messageId: record.messageId,
      userId: record.userId,
      sessionId: p.sessionId,
      envelope: handle.envelope as unknown as Record<string, unknown>,
      context,
    });
    const moved = await this.d.records.markSubmitted(
      record.placementId,
      { correlationId: handle.correlationId, timeoutAt: Number.isFinite(timeoutAt) ? timeoutAt : null, odds: live },
      this.d.now(),
    );
    if (moved) {
      // The record as committed: its receipt is drawn from it, with no read of the store (decision 2137).
      this.d.tracker.shows(handle.correlationId, moved);
      await this.d.results.show(moved);
    }
    this.d.tracker.track(handle.envelope);
    return moved ?? (await this.d.records.get(record.placementId)) ?? record;
  }

  /** A refusal before anything was held or sent: the slip closes (its row goes), nothing was placed. */
  async #closeBeforeSending(
    slipId: string,
    slip: SlipPayload,
    message: string,
    priceMoved?: number,
  ): Promise<ConfirmResult> {
    const closed = await this.d.slips.close(slipId);
    if (!closed) return { kind: 'handled', record: await this.d.records.bySlip(slipId) };
    return {
      kind: 'closed',
      slip,
      title: 'Bet not placed',
      message,
      ...(priceMoved === undefined ? {} : { priceMoved }),
    };
  }

  /** Cancel by the owner: closes the slip unless a Confirm claimed it first (one statement decides). */
  async cancel(slipId: string, userId: string): Promise<CancelResult> {
    const slip = await this.d.slips.get(slipId);
    if (!slip) return { kind: 'handled', record: await this.d.records.bySlip(slipId) };
    if (slip.userId !== userId) return { kind: 'not_owner', ownerId: slip.userId };
    const closed = await this.d.slips.close(slipId);
    if (!closed) return { kind: 'handled', record: await this.d.records.bySlip(slipId) };
    return { kind: 'cancelled', slip: slip.payload };
  }
  /**
   * Sends a promo record again with its stored idempotency key: the gateway answers with the first job when it
   * had taken the bet, so this never places twice (reconciliation of promo records, which have no price to match).
   */
  async resendPromo(record: BetRecord): Promise<BetRecord> {
    if (slipKind(record.payload) !== 'promo') return record;
    const odds = record.odds ?? record.payload.shownOdds;
    return this.#send(record, odds, odds, (handle) => {
      // The same key may return a job this desk stored and resolved before (a timeout): its stored outcome runs
      // no handler again, so the resend reads the job's outcome itself (every move is guarded, twice is harmless).
      const job = {
        correlationId: handle.correlationId,
        context: { placementId: record.placementId, odds },
      } as JobRecord<BetJobContext>;
      void handle
        .wait({ signal: AbortSignal.timeout(RESEND_WAIT_MS) })
        .then((outcome) => this.d.results.apply(job, outcome))
        .catch((err) => this.d.logger.warn('a resent promo gave no outcome yet', { err }));
    });
  }
}

/**
 * Confirm's tier check (decision 1634): a slip whose stake is now above the server's first tier is refused, not
 * turned into a proposal, because approvers must see a proposal message of its own. The text says how to propose it.
 */
export function tierRefusal(settings: GuildSettings, p: SlipPayload): string | undefined {
  const policy = approvalPolicy(settings);
  const cents = p.stakeCents;
  const needed = approvalsNeeded(policy, cents);
  if (needed === 0) return undefined;
  return `This stake now needs ${needed === 1 ? 'one approval' : 'two approvals'}: the approval tier was lowered to ${formatMoney(policy.t1Cents)} after this slip was made. Nothing was placed. Run ${slipCommand(p)} again with the same stake to propose it for approval.`;
}
