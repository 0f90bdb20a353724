/**
 * The fund's risk limits at work (decision 1921): what they read (strikes, the fund's bets at risk and settled
 * today), the drawdown stop latched the first time the desk sees it tripped, the approvers' resume, and the check
 * the bet gate makes at Confirm. The rules themselves are pure, in model/risk-limits.ts.
 */

import { type FundAccountRef, fundBetTest } from '../analytics/index.js';
import type { RiskBet } from '../betting/index.js';
import type { LedgerInput } from '../ledger/index.js';
import { BET_STATES } from '../model/bet-states.js';
import { dayIn, dayStart } from '../model/dates.js';
import { isIn } from './model/fund-states.js';
import {
  checkDailyLoss,
  checkEventShare,
  type Drawdown,
  drawdownBetween,
  drawdownOf,
  type LimitName,
  quorumOf,
  type RiskCheck,
  type RiskLimits,
  stopRefusal,
  tripsStop,
} from './model/risk-limits.js';
import type { FundReads } from './reads.js';
import { getRiskState, type RiskBetRow, type RiskState, riskBetRows, updateRiskState } from './risk-limits-repo.js';

export type RiskCtx = Pick<FundReads, 'store' | 'fund' | 'catalog' | 'ledger' | 'now'>;

export interface RiskPicture {
  state: RiskState;
  drawdown: Drawdown;
  /** Net P&L of the fund's bets settled today (server's time zone), whole cents. */
  realisedTodayCents: number;
  /** Stake of the fund's bets placed or in flight. */
  openStakeCents: number;
  /** Open stake of the fund's bets per event. */
  events: Map<string, { name: string; openCents: number }>;
  /** NAV at the last strike; null before the first. */
  navCents: number | null;
  /** Open stake of fund bets claimed before whose a bet was stored at its claim (decision 1950). */
  legacyOpenCents: number;
  /** A drawdown past the limit with no stop latched yet (read only: `riskPicture` latches it). */
  tripped?: { settledSinceStrikeCents: number } | undefined;
  isFund: (bet: {
    bookie: string;
    account: string | null | undefined;
    sessionId: string;
    createdAt: number;
  }) => boolean;
}

const hasLimits = (l: RiskLimits) =>
  l.drawdownBps !== undefined || l.dailyLossCents !== undefined || l.eventShareBps !== undefined;

const entry = (guildKey: string, at: number, actor: string | null, data: Record<string, unknown>): LedgerInput => ({
  at,
  guildKey,
  kind: 'fund_decision',
  ref: `risk:${guildKey}`,
  actor,
  amountCents: null,
  data,
});

/**
 * Everything the limits read, read only: a drawdown past the limit with no stop latched yet shows as `tripped` (the
 * stop it would latch), never written here (issue 44: reading the picture never writes).
 */
export async function readRiskPicture(ctx: RiskCtx, guildId: string, timezone: string): Promise<RiskPicture> {
  const state = await getRiskState(ctx.store, guildId);
  const now = ctx.now();
  const since = dayStart(dayIn(now, timezone), timezone) ?? now - 86_400_000;
  const last = await ctx.fund.lastStrike(guildId);
  // Bets settled since the last strike move NAV per unit before the next strike: the stop reads them too.
  const [strikes, accounts, rows, sessions] = await Promise.all([
    ctx.fund.strikes(guildId, state.markFrom),
    ctx.fund.repo.accounts(guildId),
    riskBetRows(ctx.store, guildId, last ? Math.min(since, last.at.getTime()) : since),
    ctx.catalog.peekSessions().then((s) => s ?? []),
  ]);
  const fundAccounts: FundAccountRef[] = accounts.map((a) => ({
    bookie: a.bookie,
    username: a.username,
    since: a.addedAt,
  }));
  const users = new Map(sessions.map((s) => [s.session_id, s.username ? String(s.username) : undefined]));
  const ofFund = fundBetTest({ accounts: fundAccounts, accountOfSession: (id) => users.get(id) });
  const isFund: RiskPicture['isFund'] = (b) =>
    ofFund({ book: b.bookie, account: b.account ?? null, session: b.sessionId, placedAt: b.createdAt });
  // A record decided at its claim is the fund's by that fact alone (the query read only this fund's).
  const fundRows = rows.filter((r: RiskBetRow) => r.decided || isFund(r));
  const events = new Map<string, { name: string; openCents: number }>();
  let openStakeCents = 0;
  let legacyOpenCents = 0;
  let realisedTodayCents = 0;
  let settledSinceStrikeCents = 0;
  for (const r of fundRows) {
    if (isIn(BET_STATES.settled)(r)) {
      if (r.updatedAt >= since) realisedTodayCents += r.pnlCents ?? 0;
      if (last && r.updatedAt > last.at.getTime()) settledSinceStrikeCents += r.pnlCents ?? 0;
      continue;
    }
    openStakeCents += r.stakeCents;
    if (!r.decided) legacyOpenCents += r.stakeCents;
    const e = events.get(r.epk) ?? { name: r.eventName, openCents: 0 };
    e.openCents += r.stakeCents;
    events.set(r.epk, e);
  }
  const points = strikes.map((s) => ({ strikeId: s.strikeId, at: s.at, price: s.price }));
  const drawdown = drawdownBetween(
    drawdownOf(points, state.markFrom),
    last ? { navCents: last.navCents, units: last.units } : null,
    settledSinceStrikeCents,
    now,
  );
  return {
    state,
    drawdown,
    realisedTodayCents,
    openStakeCents,
    events,
    navCents: last ? last.navCents : null,
    legacyOpenCents,
    isFund,
    ...(state.stop === null && tripsStop(drawdown, state.limits.drawdownBps)
      ? { tripped: { settledSinceStrikeCents } }
      : {}),
  };
}

/**
 * Everything the limits read, with a stop latched (and ledgered, in one transaction: decision 1951) if the drawdown
 * tripped it: what a decision on a bet or a vote reads.
 */
export async function riskPicture(ctx: RiskCtx, guildId: string, timezone: string): Promise<RiskPicture> {
  const picture = await readRiskPicture(ctx, guildId, timezone);
  if (!picture.tripped) return picture;
  return { ...picture, state: await latchStop(ctx, guildId, picture), tripped: undefined };
}

/** Latches the drawdown stop a picture found tripped, with its ledger entry; a stop latched meanwhile is kept. */
async function latchStop(ctx: RiskCtx, guildId: string, picture: RiskPicture): Promise<RiskState> {
  const { state, drawdown } = picture;
  const settledSinceStrikeCents = picture.tripped?.settledSinceStrikeCents ?? 0;
  const now = ctx.now();
  const tripped = await updateRiskState(ctx.store, guildId, (s) => {
    if (s.stop !== null || s.markFrom !== state.markFrom || drawdown.last === null) return undefined;
    const stop = {
      at: now,
      strikeId: drawdown.last.strikeId,
      drawdownBps: drawdown.drawdownBps,
      votes: [],
      quorum: quorumOf(null, s.limits),
    };
    // The stop and its entry in one transaction (decision 1951).
    const entries = () => [
      entry(guildId, now, null, {
        risk: 'drawdown_stop',
        strikeId: stop.strikeId,
        drawdownBps: stop.drawdownBps,
        limitBps: s.limits.drawdownBps,
        markPrice: drawdown.mark?.price,
        price: drawdown.last?.price,
        // The fund's bets settled since that strike, counted in the price (0: the strike's own price).
        settledSinceStrikeCents,
      }),
    ];
    return { next: { ...s, stop }, result: stop, entries };
  });
  return tripped.state;
}

export type { RiskBet } from '../betting/index.js';

/** The gate's check at Confirm: only bets through the fund's accounts, only when a limit is set. */
export async function checkFundRisk(ctx: RiskCtx, guildId: string, timezone: string, bet: RiskBet): Promise<RiskCheck> {
  const quick = await getRiskState(ctx.store, guildId);
  if (!hasLimits(quick.limits) && quick.stop === null) return { ok: true };
  const p = await riskPicture(ctx, guildId, timezone);
  if (!p.isFund({ ...bet, createdAt: ctx.now() })) return { ok: true };
  if (p.state.stop) return stopRefusal(p.state.stop, p.state.limits);
  const daily = checkDailyLoss({
    limitCents: p.state.limits.dailyLossCents,
    realisedTodayCents: p.realisedTodayCents,
    openStakeCents: p.openStakeCents,
    stakeCents: bet.stakeCents,
  });
  if (!daily.ok) return daily;
  return checkEventShare({
    shareBps: p.state.limits.eventShareBps,
    navCents: p.navCents,
    eventOpenCents: p.events.get(bet.epk)?.openCents ?? 0,
    stakeCents: bet.stakeCents,
    eventName: bet.eventName,
  });
}

const FIELD: Record<Exclude<LimitName, never>, keyof RiskLimits> = {
  drawdown: 'drawdownBps',
  daily_loss: 'dailyLossCents',
  event_share: 'eventShareBps',
  quorum: 'resumeQuorum',
};

/** Sets or clears limits (a treasurer's command), ledgered with the values before and after. */
export async function setLimits(
  ctx: RiskCtx,
  guildId: string,
  actor: string,
  changes: Partial<Record<LimitName, number | undefined>>,
): Promise<RiskLimits> {
  const at = ctx.now();
  const { state } = await updateRiskState(ctx.store, guildId, (s) => {
    const limits: RiskLimits = { ...s.limits };
    for (const [name, value] of Object.entries(changes) as Array<[LimitName, number | undefined]>) {
      if (value === undefined) delete limits[FIELD[name]];
      else limits[FIELD[name]] = value;
    }
    const entries = (next: RiskState): LedgerInput[] => [
      {
        at,
        guildKey: guildId,
        kind: 'limit_change',
        ref: `risk:${guildId}`,
        actor,
        amountCents: null,
        data: { risk: 'limits', before: s.limits, after: next.limits },
      },
    ];
    return { next: { ...s, limits }, result: s.limits, entries };
  });
  return state.limits;
}

export type ResumeOutcome =
  | { kind: 'not_stopped' }
  | { kind: 'duplicate'; votes: number; quorum: number }
  | { kind: 'voted'; votes: number; quorum: number }
  | { kind: 'resumed'; voters: string[] };

/**
 * One approver's vote to resume after a drawdown stop; the vote that reaches the quorum lifts the stop and restarts
 * the high-water mark from the next strike. Each vote and the resume are ledger entries.
 */
export async function voteResume(ctx: RiskCtx, guildId: string, approver: string): Promise<ResumeOutcome> {
  const now = ctx.now();
  // A vote and the resume it completes are written with their entries; a duplicate or no stop writes nothing.
  const { result } = await updateRiskState<ResumeOutcome>(ctx.store, guildId, (s) => {
    if (!s.stop) return undefined;
    const quorum = quorumOf(s.stop, s.limits);
    if (s.stop.votes.includes(approver)) return undefined;
    const votes = [...s.stop.votes, approver];
    const vote = entry(guildId, now, approver, { risk: 'resume_vote' });
    if (votes.length >= quorum) {
      const resumed = entry(guildId, now, approver, { risk: 'resumed', voters: votes });
      return {
        next: { ...s, stop: null, markFrom: now },
        result: { kind: 'resumed', voters: votes },
        entries: () => [vote, resumed],
      };
    }
    return {
      next: { ...s, stop: { ...s.stop, votes } },
      result: { kind: 'voted', votes: votes.length, quorum },
      entries: () => [vote],
    };
  });
  const state = result === undefined ? await getRiskState(ctx.store, guildId) : undefined;
  const outcome: ResumeOutcome =
    result ??
    (state?.stop
      ? { kind: 'duplicate', votes: state.stop.votes.length, quorum: quorumOf(state.stop, state.limits) }
      : { kind: 'not_stopped' });
  return outcome;
}

/**
 * What /exposure, /fund limits and the weekly report show of the limits (`epk`: the event asked about). It only
 * reads: a drawdown past the limit with no stop latched yet shows as tripped, and the next decision (a Confirm, an
 * approval) latches it with its ledger entry.
 */
export async function riskLines(ctx: RiskCtx, guildId: string, timezone: string, epk?: string) {
  const p = await readRiskPicture(ctx, guildId, timezone);
  let top: { name: string; openCents: number } | undefined;
  if (epk !== undefined) top = p.events.get(epk);
  else for (const e of p.events.values()) if (!top || e.openCents > top.openCents) top = e;
  return {
    limits: p.state.limits,
    drawdown: p.drawdown,
    stop: p.state.stop,
    tripped: p.tripped !== undefined,
    realisedTodayCents: p.realisedTodayCents,
    openStakeCents: p.openStakeCents,
    navCents: p.navCents,
    ...(top ? { topEvent: top } : {}),
  };
}
