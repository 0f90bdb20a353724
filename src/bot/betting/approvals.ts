import { randomBytes } from 'node:crypto';
import type { BotTunables } from '../config/config.js';
import type { Logger } from '../config/logger.js';
import type { Ledger, LedgerKind } from '../ledger/index.js';
import { dayIn } from '../model/dates.js';
import { formatOdds } from '../model/odds.js';
import { decideOnLivePrice, type SlipPayload, slipCommand, slipKind } from '../model/slip-rules.js';
import { UserFacingError } from '../model/user-facing-error.js';
import type { Outbox } from '../outbox/index.js';
import { bindingShare, exposureCaps, type GuildSettings, getSettings, stakeLimits } from '../settings/index.js';
import type { BotStore } from '../store/index.js';
import type { BetRecordRepo } from './bet-records.js';
import { approvalPolicy } from './model/approval-policy.js';
import { RANK } from './model/edit-rank.js';
import { PROPOSAL_STATES } from './model/proposal-states.js';
import type { RiskCheck } from './model/risk-check.js';
import { type ConfirmResult, type LivePrices, overLimitText, type Placement } from './placement.js';
import type { BetPresenter } from './presenter.js';
import type { Proposal, ProposalRepo } from './proposals.js';
import { boundSelection } from './slip-kinds.js';
import type { SlipRecord, SlipRepo } from './slips.js';

/** A proposal still waiting for approvals. */
const isOpen = (p: { state: string }) => (PROPOSAL_STATES.open as readonly string[]).includes(p.state);

export interface ApprovalDeps {
  store: BotStore;
  placement: Placement;
  prices: LivePrices;
  records: BetRecordRepo;
  slips: SlipRepo;
  proposals: ProposalRepo;
  ledger: Ledger;
  outbox: Outbox;
  present: Pick<BetPresenter, 'proposal' | 'proposalClosed' | 'reminder'>;
  tunables: BotTunables;
  logger: Logger;
  now: () => number;
  /**
   * The fund's risk limits (decision 1921) for a bet about to be placed: the last approval places without passing
   * the gate's Confirm check, so it asks here. Absent: no limits (tests, a desk with no fund).
   */
  riskCheck?: RiskCheck;
}

/** Who clicked: their id, their roles in the guild, and whether they have Manage Server. */
export interface Member {
  id: string;
  roles: string[];
  manager: boolean;
}

export type ApproveResult =
  | { kind: 'approved'; left: number }
  | { kind: 'placed' }
  | { kind: 'not_placed'; message: string }
  | { kind: 'lapsed'; from: number; to: number }
  | { kind: 'self' }
  | { kind: 'duplicate'; left: number }
  | { kind: 'not_approver'; roleId: string | undefined }
  | { kind: 'expired' }
  | { kind: 'closed'; state: Proposal['state'] }
  | { kind: 'gone' };

export type RejectResult =
  | { kind: 'rejected' }
  | { kind: 'not_approver'; roleId: string | undefined }
  | { kind: 'closed'; state: Proposal['state'] }
  | { kind: 'gone' };

/** Progress edits of a proposal rank below the bet's own stages (submitted is 10), later rounds higher. */
const progressRank = (p: Proposal, approvals: number) => Math.min(RANK.submitted - 1, 1 + p.round * 3 + approvals);

/**
 * Maker-checker: a slip above the server's first tier becomes a proposal that holds its stake against the caps,
 * approvers approve the exact bet at the price shown (checked live again at each approval), and the last
 * approval places it through the same Confirm as any slip. Every step writes a ledger entry.
 */
export class Approvals {
  readonly #ledger: Ledger;
  constructor(private readonly d: ApprovalDeps) {
    this.#ledger = d.ledger;
  }

  /** Turns a stored slip into an open proposal, or refuses it (the slip is closed) when a cap has no room. */
  async propose(slip: SlipRecord<SlipPayload>, needed: number, settings: GuildSettings): Promise<Proposal> {
    const p = slip.payload;
    const now = this.d.now();
    const limits = stakeLimits(settings, this.d.tunables, p.capBankCents);
    const outcome = await this.d.proposals.create(
      {
        proposalId: randomBytes(9).toString('base64url'),
        slipId: slip.slipId,
        guildKey: slip.guildId ?? 'dm',
        guildId: slip.guildId,
        channelId: slip.channelId,
        messageId: null,
        proposerId: slip.userId,
        sessionId: p.sessionId,
        bookie: p.bookie,
        epk: p.epk,
        marketKey: p.marketKey,
        marketRef: boundSelection(p),
        day: dayIn(now, settings.timezone),
        stakeCents: p.stakeCents,
        shownOdds: p.shownOdds,
        needed,
        remindAt: now + Math.floor((slip.expiresAt - now) / 2),
        expiresAt: slip.expiresAt,
        createdAt: now,
      },
      { dayLimitCents: limits.perDayCents, caps: exposureCaps(settings, p.capBankCents) },
    );
    if (outcome.kind === 'over_limit') {
      await this.d.slips.close(slip.slipId);
      const share = bindingShare(settings, this.d.tunables, p.capBankCents, outcome.cap);
      throw new UserFacingError(overLimitText(outcome, p, share).replace('Not placed', 'Not proposed'));
    }
    await this.#record(outcome.proposal, 'proposal', slip.userId, {
      needed,
      shownOdds: p.shownOdds,
      selection: p.selectionLabel,
      betKind: slipKind(p),
    });
    return outcome.proposal;
  }

  /**
   * Stores the proposal's message. An approval or a lapse that came first (a quick approver, a late follow-up
   * answer) could not redraw a message the desk did not know yet, so the message is drawn again from the
   * current round.
   */
  async attachMessage(proposalId: string, channelId: string, messageId: string): Promise<void> {
    await this.d.proposals.setMessage(proposalId, channelId, messageId);
    const p = await this.d.proposals.get(proposalId);
    if (!p || !isOpen(p) || !p.messageId) return;
    const approvals = await this.d.proposals.approvals(p.proposalId, p.round);
    if (approvals.length === 0 && p.round === 1) return;
    const slip = await this.d.slips.get(p.slipId);
    if (!slip) return;
    const settings = await getSettings(this.d.store, p.guildId);
    await this.#show(p, { ...slip.payload, shownOdds: p.shownOdds }, settings, approvals);
  }

  view(
    proposal: Proposal,
    slip: SlipPayload,
    approvals: Awaited<ReturnType<ProposalRepo['approvals']>>,
    settings: GuildSettings,
  ) {
    return this.d.present.proposal({
      proposal,
      slip,
      approvals,
      approverRoleId: approvalPolicy(settings).approverRoleId,
    });
  }

  async approve(proposalId: string, member: Member): Promise<ApproveResult> {
    const p = await this.d.proposals.get(proposalId);
    if (!p) return { kind: 'gone' };
    if (!isOpen(p)) return { kind: 'closed', state: p.state };
    if (p.expiresAt <= this.d.now()) {
      await this.#expire(p);
      return { kind: 'expired' };
    }
    const settings = await getSettings(this.d.store, p.guildId);
    const policy = approvalPolicy(settings);
    // The proposer hears the true reason first, whatever their roles: they proposed it.
    if (member.id === p.proposerId) return { kind: 'self' };
    if (!mayApprove(member, policy.approverRoleId)) return { kind: 'not_approver', roleId: policy.approverRoleId };
    const before = await this.d.proposals.approvals(p.proposalId, p.round);
    const slip = await this.d.slips.get(p.slipId);
    if (!slip) return { kind: 'closed', state: p.state };
    if (!boundTo(p, slip.payload)) {
      throw new UserFacingError(
        'This slip no longer matches the bet that was proposed, so it cannot be approved. The proposer can Reject it and propose again.',
      );
    }
    if (before.some((a) => a.approverId === member.id)) {
      // Fully approved but still open: the placement failed before sending (a price check), so an approver's
      // click tries it again; otherwise a second click by one member counts once.
      if (before.length >= p.needed) return this.#place(p, slip.payload, member);
      return { kind: 'duplicate', left: Math.max(0, p.needed - before.length) };
    }
    // The live price of the bound bet, by its kind (a sports selection, a racing runner, a promo card).
    const live = await this.d.prices.livePriceFor({ ...slip.payload, shownOdds: p.shownOdds });
    const decision = decideOnLivePrice(
      { ...slip.payload, shownOdds: p.shownOdds },
      live,
      this.d.tunables.priceTolerance,
    );
    if (!decision.ok) {
      const note = `The price moved from ${formatOdds(p.shownOdds)} to ${formatOdds(live)}, beyond the ${Math.round(this.d.tunables.priceTolerance * 100)} % tolerance: approvals so far lapsed. Approve again at ${formatOdds(live)} if it still stands.`;
      const lapsed = await this.d.proposals.lapse(p.proposalId, p.round, live, note, this.d.now());
      if (!lapsed) return { kind: 'closed', state: (await this.d.proposals.get(proposalId))?.state ?? 'closed' };
      // Confirm checks the live price against the slip's shown price: the slip follows the new round.
      await this.d.slips.setPayload(p.slipId, { ...slip.payload, shownOdds: live });
      await this.#record(lapsed, 'lapse', member.id, { from: p.shownOdds, to: live, round: lapsed.round });
      await this.#show(lapsed, { ...slip.payload, shownOdds: live }, settings);
      return { kind: 'lapsed', from: p.shownOdds, to: live };
    }
    const written = await this.d.proposals.approve(p.proposalId, p.round, member.id, p.shownOdds, this.d.now());
    if (!written) {
      const now = await this.d.proposals.get(proposalId);
      if (now && isOpen(now) && now.round === p.round) {
        const approvals = await this.d.proposals.approvals(p.proposalId, p.round);
        return { kind: 'duplicate', left: Math.max(0, p.needed - approvals.length) };
      }
      return { kind: 'closed', state: now?.state ?? 'closed' };
    }
    await this.#record(p, 'approval', member.id, { round: p.round, odds: p.shownOdds, live });
    const approvals = await this.d.proposals.approvals(p.proposalId, p.round);
    if (approvals.length < p.needed) {
      // Read again after the write: the message may have been stored since `p` was read (attachMessage stores
      // it, then reads the approvals), so one of the two always sees the other and draws the approval.
      const messageId = p.messageId ?? (await this.d.proposals.get(p.proposalId))?.messageId ?? null;
      await this.#show({ ...p, messageId }, slip.payload, settings, approvals);
      return { kind: 'approved', left: p.needed - approvals.length };
    }
    return this.#place(p, slip.payload, member);
  }

  /** The last approval: one caller moves the proposal on and places through the normal Confirm. */
  async #place(p: Proposal, slip: SlipPayload, member: Member): Promise<ApproveResult> {
    if (this.d.riskCheck && p.guildId) {
      const { timezone } = await getSettings(this.d.store, p.guildId);
      const risk = await this.d.riskCheck(p.guildId, timezone, {
        bookie: slip.bookie,
        account: slip.account,
        sessionId: slip.sessionId,
        epk: slip.epk,
        eventName: slip.eventName,
        stakeCents: p.stakeCents,
      });
      if (!risk.ok) {
        throw new UserFacingError(
          `${risk.message} The proposal keeps its approvals: press Approve again once the limit allows it.`,
        );
      }
    }
    const placing = await this.d.proposals.move(p.proposalId, 'startPlacing', this.d.now(), { round: p.round });
    if (!placing) return { kind: 'approved', left: 0 };
    // The receipt says who approved: the slip carries them into the bet's record.
    const approvedBy = (await this.d.proposals.approvals(p.proposalId, p.round)).map((a) => a.approverId);
    await this.d.slips.setPayload(p.slipId, { ...slip, approvedBy });
    let result: ConfirmResult;
    try {
      // The message id is not needed: the proposal names the slip (its message may not be stored yet).
      result = await this.d.placement.confirm(
        p.slipId,
        p.proposerId,
        { channelId: p.channelId, messageId: p.messageId },
        { approved: true },
      );
    } catch (err) {
      // Nothing was claimed (Confirm throws only before its claim): the proposal stays approved and open.
      await this.d.proposals.move(p.proposalId, 'backToOpen', this.d.now());
      const why =
        err instanceof UserFacingError ? err.message.split(' Nothing was placed')[0] : 'The placement failed.';
      throw new UserFacingError(
        `${why} Nothing was placed; the proposal keeps its approvals: press Approve to try again.`,
      );
    }
    if (result.kind === 'recorded' || result.kind === 'handled') {
      await this.d.proposals.move(p.proposalId, 'markPlaced', this.d.now());
      return { kind: 'placed' };
    }
    const message =
      result.kind === 'closed'
        ? result.message
        : result.kind === 'expired'
          ? 'The slip expired before the last approval.'
          : 'The bet could not be placed.';
    const closed = await this.d.proposals.move(p.proposalId, 'close', this.d.now(), { note: message });
    if (closed) {
      await this.#record(closed, 'release', member.id, { reason: message });
      await this.#final(closed, slip, 'Bet not placed', message);
    }
    return { kind: 'not_placed', message };
  }

  async reject(proposalId: string, member: Member): Promise<RejectResult> {
    const p = await this.d.proposals.get(proposalId);
    if (!p) return { kind: 'gone' };
    const settings = await getSettings(this.d.store, p.guildId);
    const policy = approvalPolicy(settings);
    // The proposer may withdraw their own proposal; anyone else must be an approver.
    if (member.id !== p.proposerId && !mayApprove(member, policy.approverRoleId)) {
      return { kind: 'not_approver', roleId: policy.approverRoleId };
    }
    const moved = await this.d.proposals.move(p.proposalId, 'reject', this.d.now());
    if (!moved) return { kind: 'closed', state: (await this.d.proposals.get(proposalId))?.state ?? p.state };
    const slip = await this.d.slips.get(p.slipId);
    await this.d.slips.close(p.slipId);
    await this.#record(moved, 'rejection', member.id, { withdrawn: member.id === p.proposerId });
    if (slip) {
      const who = member.id === p.proposerId ? `Withdrawn by <@${member.id}>` : `Rejected by <@${member.id}>`;
      await this.#final(
        moved,
        slip.payload,
        'Bet proposal rejected',
        `${who}. Nothing was placed and the hold is released.`,
      );
    }
    return { kind: 'rejected' };
  }

  /**
   * Expires proposals past their time and reminds approvers at half-time (each exactly once); ends placements
   * abandoned for longer than a job lease.
   */
  async tick(): Promise<void> {
    await this.recoverPlacing(this.d.tunables.jobLeaseMs);
    const now = this.d.now();
    for (const p of await this.d.proposals.expireDue(now)) await this.#afterExpiry(p);
    for (const p of await this.d.proposals.remindDue(now)) {
      const slip = await this.d.slips.get(p.slipId);
      if (!slip) continue;
      const settings = await getSettings(this.d.store, p.guildId);
      await this.d.outbox.create(
        `remind:${p.proposalId}`,
        p.channelId,
        this.d.present.reminder(p, slip.payload, approvalPolicy(settings).approverRoleId),
      );
    }
  }

  /**
   * The way out of `placing` (decision 1631): a proposal left there longer than `graceMs` (its process died or
   * threw between the last approval and the claim) ends `placed` when its bet was claimed, otherwise `closed` with
   * its hold released. Closing the slip first (serialized with the claim) makes the two exclusive.
   */
  async recoverPlacing(graceMs: number): Promise<number> {
    const now = this.d.now();
    const stale = await this.d.proposals.placingSince(now - graceMs);
    for (const p of stale) {
      const slip = await this.d.slips.get(p.slipId);
      await this.d.slips.close(p.slipId);
      if (await this.d.records.bySlip(p.slipId)) {
        await this.d.proposals.move(p.proposalId, 'markPlaced', now);
        continue;
      }
      const message =
        'The placement was interrupted before the bet was sent. Nothing was placed and the hold is released.';
      const closed = await this.d.proposals.move(p.proposalId, 'close', now, { note: message });
      if (!closed) continue;
      this.d.logger.warn('released a proposal left placing', { proposalId: p.proposalId });
      await this.#record(closed, 'release', null, { reason: message });
      if (slip) {
        await this.#final(
          closed,
          slip.payload,
          'Bet not placed',
          `${message} Propose it again with ${slipCommand(slip.payload)}.`,
        );
      }
    }
    return stale.length;
  }

  async #expire(p: Proposal): Promise<void> {
    const moved = await this.d.proposals.move(p.proposalId, 'expire', this.d.now());
    if (moved) await this.#afterExpiry(moved);
  }

  async #afterExpiry(p: Proposal): Promise<void> {
    const slip = await this.d.slips.get(p.slipId);
    await this.d.slips.close(p.slipId);
    await this.#record(p, 'expiry', null, { reason: 'not approved in time' });
    if (slip) {
      await this.#final(
        p,
        slip.payload,
        'Bet proposal expired',
        `Not approved in time, so nothing was placed and the hold is released. Propose it again with ${slipCommand(slip.payload)}.`,
      );
    }
  }

  async #show(
    p: Proposal,
    slip: SlipPayload,
    settings: GuildSettings,
    approvals?: Awaited<ReturnType<ProposalRepo['approvals']>>,
  ): Promise<void> {
    if (!p.messageId) return;
    const list = approvals ?? (await this.d.proposals.approvals(p.proposalId, p.round));
    await this.d.outbox.edit(
      p.channelId,
      p.messageId,
      this.view(p, slip, list, settings),
      progressRank(p, list.length),
    );
  }

  async #final(p: Proposal, slip: SlipPayload, title: string, reason: string): Promise<void> {
    if (!p.messageId) return;
    await this.d.outbox.edit(
      p.channelId,
      p.messageId,
      this.d.present.proposalClosed(p, slip, title, reason),
      RANK.final,
    );
  }

  async #record(p: Proposal, kind: LedgerKind, actor: string | null, extra: Record<string, unknown>): Promise<void> {
    await this.#ledger.append({
      at: this.d.now(),
      guildKey: p.guildKey,
      kind,
      ref: p.proposalId,
      actor,
      amountCents: p.stakeCents,
      data: {
        slipId: p.slipId,
        proposerId: p.proposerId,
        sessionId: p.sessionId,
        bookie: p.bookie,
        epk: p.epk,
        market: p.marketKey,
        marketRef: p.marketRef,
        stakeCents: p.stakeCents,
        shownOdds: p.shownOdds,
        needed: p.needed,
        ...extra,
      },
    });
  }
}

/** Whether the slip is still the exact bet the proposal recorded (book, session, event, selection, stake). */
export function boundTo(p: Proposal, slip: SlipPayload): boolean {
  return (
    slip.bookie === p.bookie &&
    slip.sessionId === p.sessionId &&
    slip.epk === p.epk &&
    slip.marketKey === p.marketKey &&
    boundSelection(slip) === p.marketRef &&
    slip.stakeCents === p.stakeCents
  );
}

export function mayApprove(member: Member, approverRoleId: string | undefined): boolean {
  return approverRoleId ? member.roles.includes(approverRoleId) || member.manager : member.manager;
}
