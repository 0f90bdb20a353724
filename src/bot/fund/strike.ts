/**
 * The strike in three parts (issue 44): `loadSnapshot` reads what the strike deals on, in the strike's transaction;
 * `planDeal` is every dealing rule, pure (which bets are the fund's, what holds the strike, NAV's inputs, the fee,
 * the tipster share, who is issued and redeemed, the rows and the ledger entries); `applyDeal` writes them, in the
 * same transaction. The repository's `FundRepo.strike` runs the three under the fund's lock.
 */
import { appendInTx, type LedgerInput } from '../ledger/index.js';
import { BET_STATES, isFundBet } from '../model/bet-states.js';
import type { Tx } from '../store/index.js';
import {
  type CashoutAsk,
  type FeeTerms,
  type NavInputs,
  navOf,
  type StrikeResult,
  shares,
  strike,
} from './model/fund.js';
import type { Cashout, Contribution, StrikeInputs } from './model/fund-records.js';
import { CASHOUT_MOVES, CONTRIBUTION_MOVES, isIn, STATES, sqlList, WITHDRAWAL_IN_FLIGHT } from './model/fund-states.js';
import { standingsOf } from './model/tipster-share.js';
import { entry, type FundRow, IN_FLIGHT_BETS, isBonusBet, n, OWED, toCashout, toContribution } from './rows.js';

/** A bet the book has taken and not settled. */
const placed = isIn(BET_STATES.placed);

/** What a strike is asked to deal. */
export interface StrikeRequest {
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
  /**
   * Every session of the fund's accounts, with when its account joined: only bets through them placed since then
   * are the fund's (one open as the account joined is in the cash it joined with, or its float).
   */
  fundSessions: ReadonlyArray<{ sessionId: string; since: number; account: string }>;
  /** Bet ids the book has settled and the desk has not read yet: their return is in the cash already. */
  settledUnread?: readonly string[];
  /**
   * The tipster share (decision 1923), when on: its rate and each tipster's attributed P&L of the fund's settled
   * bets (all time, as /fund tipsters period:all). The marks are the last strike's.
   */
  share?: { rateBps: number; pnl: ReadonlyMap<string, number> };
}

/** A bet record the strike reads: placed, or still in flight. */
interface StrikeBet extends Record<string, unknown> {
  state: string;
  stake_cents: number;
  payload: string;
  created_at: number;
  session_id: string;
  bet_id: string | null;
  fund_key: string | null;
  fund_decided: number;
}

/** What a strike deals on, read in its transaction. */
export interface StrikeSnapshot {
  fund: FundRow;
  /** Placed or in-flight records of this server or decided for its fund, before the rule of whose they are. */
  bets: StrikeBet[];
  withdrawalsInFlight: number;
  pendingIn: Contribution[];
  pendingOut: Cashout[];
  owedCents: number;
  /** Cash that left a session for a cash-out not yet paid, whole or in parts (decision 1706). */
  withdrawnUnpaidCents: number;
  previous: { at: number; inputs: StrikeInputs } | undefined;
  members: ReadonlyMap<string, number>;
  /** The float credited to each account by this strike (returns of bets outside the fund). */
  floatCredits: ReadonlyMap<string, number>;
}

/** A cash-out row born struck: a crystallised fee or a tipster's share, withdrawn and paid like a redemption. */
interface OwedCashout {
  cashoutId: string;
  memberId: string;
  kind: 'fee' | 'share';
  cents: number;
}

/** Every row a strike writes and every ledger entry, or why it does not strike. */
export type Deal =
  | { refused: string }
  | {
      result: StrikeResult;
      strikeId: string;
      row: {
        navAfterCents: number;
        unitsAfter: number;
        residualCents: number;
        recorded: StrikeInputs;
      };
      owed: OwedCashout[];
      dealt: boolean;
      entries: LedgerInput[];
    };

export async function loadSnapshot(
  tx: Tx,
  s: StrikeRequest,
  fund: FundRow,
  floatCredits: ReadonlyMap<string, number>,
): Promise<StrikeSnapshot> {
  const bets = await tx.query<StrikeBet>(
    `SELECT state, stake_cents, payload, created_at, session_id, bet_id, fund_key, fund_decided FROM bet_records
     WHERE (guild_key = ? OR (fund_decided = 1 AND fund_key = ?))
       AND state IN ${sqlList([...BET_STATES.placed, ...IN_FLIGHT_BETS])}`,
    s.guildKey,
    s.guildKey,
  );
  const [flying] = await tx.query<{ c: number }>(
    `SELECT COUNT(*) AS c FROM fund_withdrawals WHERE guild_key = ? AND state IN ${sqlList(WITHDRAWAL_IN_FLIGHT)}`,
    s.guildKey,
  );
  const pendingIn = await tx.query(
    `SELECT * FROM fund_contributions WHERE guild_key = ? AND state IN ${sqlList(CONTRIBUTION_MOVES.issue.from)}
     ORDER BY created_at`,
    s.guildKey,
  );
  const pendingOut = await tx.query(
    `SELECT * FROM fund_cashouts WHERE guild_key = ? AND state IN ${sqlList(CASHOUT_MOVES.redeem.from)}
     ORDER BY requested_at`,
    s.guildKey,
  );
  const [owed] = await tx.query<{ c: number | null }>(
    `SELECT SUM(cents) AS c FROM fund_cashouts WHERE guild_key = ? AND state IN ${OWED}`,
    s.guildKey,
  );
  const [withdrawn] = await tx.query<{ c: number | null }>(
    `SELECT SUM(w.amount_cents) AS c FROM fund_withdrawals w JOIN fund_cashouts c ON c.cashout_id = w.cashout_id
     WHERE w.guild_key = ? AND w.state IN ${sqlList(STATES.withdrawalCompleted)} AND c.state IN ${OWED}`,
    s.guildKey,
  );
  const [previous] = fund.lastStrikeId
    ? await tx.query<{ at: number; inputs: string }>(
        'SELECT at, inputs FROM fund_strikes WHERE strike_id = ?',
        fund.lastStrikeId,
      )
    : [];
  const members = await tx.query('SELECT member_id, units FROM fund_members WHERE guild_key = ?', s.guildKey);
  return {
    fund,
    bets,
    withdrawalsInFlight: n(flying?.c ?? 0),
    pendingIn: pendingIn.map(toContribution),
    pendingOut: pendingOut.map(toCashout),
    owedCents: n(owed?.c ?? 0),
    withdrawnUnpaidCents: n(withdrawn?.c ?? 0),
    previous: previous
      ? { at: n(previous.at), inputs: JSON.parse(String(previous.inputs)) as StrikeInputs }
      : undefined,
    members: new Map(members.map((m) => [String(m.member_id), n(m.units)])),
    floatCredits,
  };
}

/** The fund's bets a strike reads: its own placed bets, and any bet in flight on one of its accounts. */
function strikeBets(snap: StrikeSnapshot, s: StrikeRequest): StrikeBet[] {
  const accountOf = new Map(s.fundSessions.map((x) => [x.sessionId, x.account]));
  const joined = new Map(s.fundSessions.map((x) => [x.account, x.since]));
  const unread = new Set(s.settledUnread ?? []);
  return snap.bets.filter((b) => {
    const ofFund = isFundBet(
      {
        fundKey: n(b.fund_decided) === 1 ? b.fund_key : undefined,
        account: accountOf.get(b.session_id),
        placedAt: n(b.created_at),
      },
      { fundKey: s.guildKey, joined },
    );
    // A bet in flight on a fund account holds the strike whoever's it is (its cash is not known).
    return (
      ((!placed(b) && accountOf.has(b.session_id)) || ofFund) && (!placed(b) || !(b.bet_id && unread.has(b.bet_id)))
    );
  });
}

/** Why the strike cannot deal yet: cash moved that is not known. */
function heldBy(bets: readonly StrikeBet[], snap: StrikeSnapshot): string | undefined {
  const inFlight = bets.filter((b) => !placed(b));
  if (inFlight.length > 0) {
    const states = [...new Set(inFlight.map((b) => b.state))].join(', ');
    return `${inFlight.length} bet${inFlight.length === 1 ? ' is' : 's are'} in flight or unresolved (${states}): the cash they moved is not known yet`;
  }
  if (snap.withdrawalsInFlight > 0) return 'a withdrawal is in flight: the cash it moved is not known yet';
  return undefined;
}

/** Every dealing rule of a strike, pure: from what it read to what it writes. */
export function planDeal(snap: StrikeSnapshot, s: StrikeRequest, strikeId: string): Deal {
  const bets = strikeBets(snap, s);
  const held = heldBy(bets, snap);
  if (held) return { refused: held };
  const open = bets.filter(placed);
  const oldestOpen = open.reduce((a, b) => Math.min(a, n(b.created_at)), Number.POSITIVE_INFINITY);
  // Dealt only once its deposit is matched (decision 1803) and every bet open when the request was made has
  // settled (decision 1701). Money not yet arrived is not in the cash, so it is not taken off NAV either.
  const arrived = snap.pendingIn.filter((c) => c.depositId !== null);
  const eligibleIn = arrived.filter((c) => c.createdAt < oldestOpen);
  const eligibleOut = snap.pendingOut.filter((c) => c.requestedAt < oldestOpen);
  const { fund, previous } = snap;
  const inputs = navInputsOf(snap, s, open, arrived);
  // The first strike of a new fee period crystallises the accrual (decision 1704).
  const previousPeriod = previous ? (previous.inputs.feePeriod ?? s.feePeriodOf(previous.at)) : s.feePeriod;
  // A fund struck before fees had periods charged its fee for good at each strike: that total is owed now.
  const legacyOwed = previous && previous.inputs.feePeriod === undefined ? fund.feesAccruedCents : 0;
  inputs.owedRedemptionsCents += legacyOwed;
  const fee: FeeTerms = { rateBps: s.feeRateBps, highWaterPrice: fund.highWaterPrice };
  const result = strike({
    nav: navOf(inputs),
    units: fund.units,
    holdings: new Map(snap.members),
    contributions: eligibleIn.map((c) => ({ id: c.contributionId, memberId: c.memberId, cents: c.amountCents })),
    cashouts: eligibleOut.map((c) => ({ id: c.cashoutId, memberId: c.memberId, ask: c.ask })),
    fee,
    openingPriceCents: fund.openingPriceCents,
    crystallise: fund.units > 0 && previousPeriod !== s.feePeriod,
    ...(s.share && s.share.rateBps > 0
      ? { share: { rateBps: s.share.rateBps, tipsters: standingsOf(s.share.pnl, previous?.inputs.share) } }
      : {}),
  });
  // Before the first units, money nobody contributed is for the treasurer to account for, not a strike to record.
  if (result.held && fund.units === 0) return { refused: result.held };
  const dealt = !result.held;
  const unitsAfter = dealt ? result.unitsAfter : fund.units;
  const navAfterCents = dealt ? result.navAfterCents : result.navCents;
  const holders = [...result.holdings].filter(([, u]) => u > 0).map(([memberId, units]) => ({ memberId, units }));
  const residualCents = shares(holders, { navCents: navAfterCents, units: unitsAfter }).residualCents;
  const recorded = recordedInputs(s, snap, result, {
    inputs,
    legacyOwed,
    openBets: open.length,
    deferred: {
      contributions: dealt ? arrived.length - eligibleIn.length : 0,
      cashouts: dealt ? snap.pendingOut.length - eligibleOut.length : 0,
    },
  });
  const row = { navAfterCents, unitsAfter, residualCents, recorded };
  const owed = owedCashouts(strikeId, s, result, recorded, legacyOwed, previous?.inputs);
  const entries = strikeEntries(s, strikeId, snap, result, row, owed, legacyOwed, dealt);
  return { result, strikeId, row, owed, dealt, entries };
}

/** NAV's inputs: the sessions (floats raised by this strike's credits), open stake, and money owed or on its way. */
function navInputsOf(
  snap: StrikeSnapshot,
  s: StrikeRequest,
  placed: readonly StrikeBet[],
  arrived: readonly Contribution[],
): NavInputs {
  return {
    sessions: s.sessions.map((x) => ({
      ...x,
      floatCents: (x.floatCents ?? 0) + (snap.floatCredits.get(x.account ?? '') ?? 0),
    })),
    // A bonus bet's stake came from a token, not cash: it costs the fund nothing (decision 1700).
    openStakeCents: placed.reduce((a, b) => a + (isBonusBet(b.payload) ? 0 : n(b.stake_cents)), 0),
    withdrawnUnpaidCents: snap.withdrawnUnpaidCents,
    owedRedemptionsCents: snap.owedCents,
    pendingContributionsCents: arrived.reduce((a, c) => a + c.amountCents, 0),
  };
}

/** What the strike row and its ledger entry record of how it was struck. */
function recordedInputs(
  s: StrikeRequest,
  snap: StrikeSnapshot,
  result: StrikeResult,
  o: { inputs: NavInputs; legacyOwed: number; openBets: number; deferred: StrikeInputs['deferred'] },
): StrikeInputs {
  const dealt = !result.held;
  const share = result.share;
  return {
    ...o.inputs,
    feesAccruedCents: snap.fund.feesAccruedCents,
    feePeriod: s.feePeriod,
    fee: feeOwed(result, o.legacyOwed),
    ...(share
      ? {
          share: {
            rateBps: share.rateBps,
            fundGainCents: share.fundGainCents,
            gainsCents: share.gainsCents,
            capped: share.capped,
            accruedCents: share.accruedCents,
            crystallisedCents: share.crystallisedCents,
            accruedAfterCents: share.accruedAfterCents,
            tipsters: share.lines,
          },
        }
      : {}),
    sessions: s.sessions,
    openBets: o.openBets,
    // Left for later because bets open when they were asked are not all settled (decision 1701); contributions
    // whose deposit has not arrived are listed apart (the post names them), and a held strike says why itself.
    deferred: o.deferred,
    ...(dealt && result.issued.length + result.redeemed.length > 0
      ? {
          dealt: {
            issued: result.issued.map((d) => ({ memberId: d.memberId, cents: d.cents, units: d.units })),
            redeemed: result.redeemed.map((d) => ({ memberId: d.memberId, cents: d.cents, units: d.units })),
          },
        }
      : {}),
    ...(result.held ? { held: result.held } : {}),
  };
}

function feeOwed(result: StrikeResult, legacyOwed: number): NonNullable<StrikeInputs['fee']> {
  return {
    accruedCents: result.feeCents,
    crystallisedCents: result.crystallisedCents,
    accruedAfterCents: result.accruedAfterCents,
    highWaterPrice: result.highWaterPrice,
    ...(legacyOwed > 0 ? { chargedBeforeCents: legacyOwed } : {}),
  };
}

/** The fee crystallised now and each tipster's crystallised share, owed as cash-outs already struck. */
function owedCashouts(
  strikeId: string,
  s: StrikeRequest,
  result: StrikeResult,
  recorded: StrikeInputs,
  legacyOwed: number,
  previous: StrikeInputs | undefined,
): OwedCashout[] {
  const owed: OwedCashout[] = [];
  const feeNow = result.crystallisedCents + legacyOwed;
  if ((result.feeCents > 0 || recorded.feesAccruedCents > 0) && feeNow > 0) {
    owed.push({ cashoutId: `fee-${strikeId}`, memberId: s.managerId, kind: 'fee', cents: feeNow });
  }
  const share = recorded.share;
  const shareBefore = previous?.share?.accruedAfterCents ?? 0;
  if (share && (share.accruedCents > 0 || shareBefore > 0) && share.crystallisedCents > 0) {
    for (const l of share.tipsters.filter((t) => t.accruedCents > 0)) {
      owed.push({
        cashoutId: `share-${strikeId}-${l.memberId}`,
        memberId: l.memberId,
        kind: 'share',
        cents: l.accruedCents,
      });
    }
  }
  return owed;
}

/** The strike's ledger entries: the strike, its fee and tipster share accruals, each issue and redemption. */
function strikeEntries(
  s: StrikeRequest,
  strikeId: string,
  snap: StrikeSnapshot,
  result: StrikeResult,
  row: { navAfterCents: number; unitsAfter: number; residualCents: number; recorded: StrikeInputs },
  owed: readonly OwedCashout[],
  legacyOwed: number,
  dealt: boolean,
): LedgerInput[] {
  const at = (kind: LedgerInput['kind'], ref: string, actor: string | null, cents: number | null, data: object) =>
    entry(s.guildKey, s.at, kind, ref, actor, cents, data as Record<string, unknown>);
  const entries = [
    at('fund_strike', strikeId, s.actor, result.navCents, {
      dealingKey: s.dealingKey,
      price: result.price,
      unitsBefore: result.unitsBefore,
      navAfterCents: row.navAfterCents,
      unitsAfter: row.unitsAfter,
      residualCents: row.residualCents,
      inputs: row.recorded,
    }),
  ];
  if (result.feeCents > 0 || snap.fund.feesAccruedCents > 0) {
    const feeCashoutId = owed.find((o) => o.kind === 'fee')?.cashoutId ?? null;
    entries.push(at('fund_fee', strikeId, null, result.feeCents, { ...feeOwed(result, legacyOwed), feeCashoutId }));
  }
  const share = row.recorded.share;
  const shareBefore = snap.previous?.inputs.share?.accruedAfterCents ?? 0;
  if (share && (share.accruedCents > 0 || shareBefore > 0)) {
    const shareCashoutIds = owed.filter((o) => o.kind === 'share').map((o) => o.cashoutId);
    entries.push(
      at('fund_share', strikeId, null, share.accruedCents, {
        ...share,
        accruedBeforeCents: shareBefore,
        shareCashoutIds,
      }),
    );
  }
  if (!dealt) return entries;
  for (const d of result.issued) {
    entries.push(at('fund_issue', d.id, d.memberId, d.cents, { strikeId, units: d.units }));
  }
  for (const d of result.redeemed) {
    entries.push(at('fund_redemption', d.id, d.memberId, d.cents, { strikeId, units: d.units }));
  }
  return entries;
}

/** Writes a planned deal: the strike row, the owed cash-outs, issues, redemptions, holdings, the fund, the ledger. */
export async function applyDeal(
  tx: Tx,
  s: StrikeRequest,
  deal: Extract<Deal, { result: StrikeResult }>,
): Promise<Record<string, unknown>> {
  const { result, strikeId, row } = deal;
  const [inserted] = await tx.query(
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
    row.navAfterCents,
    row.unitsAfter,
    row.residualCents,
    JSON.stringify(row.recorded),
    s.actor,
  );
  for (const o of deal.owed) {
    await tx.query(
      `INSERT INTO fund_cashouts (cashout_id, guild_key, member_id, ask, state, strike_id, units, cents,
         requested_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
      o.cashoutId,
      s.guildKey,
      o.memberId,
      JSON.stringify({ kind: o.kind } satisfies CashoutAsk),
      CASHOUT_MOVES.redeem.to,
      strikeId,
      o.cents,
      s.at,
      s.at,
    );
  }
  if (deal.dealt) await applyDealing(tx, s, strikeId, result);
  await tx.query(
    `UPDATE funds SET units = ?, high_water_price = ?, fees_accrued_cents = ?, last_strike_id = ?, updated_at = ?
     WHERE guild_key = ?`,
    row.unitsAfter,
    result.highWaterPrice,
    result.accruedAfterCents,
    strikeId,
    s.at,
    s.guildKey,
  );
  await appendInTx(tx, deal.entries);
  return inserted as Record<string, unknown>;
}

/** Contributions issued, cash-outs redeemed (each by its named move) and the members' holdings after. */
async function applyDealing(tx: Tx, s: StrikeRequest, strikeId: string, result: StrikeResult): Promise<void> {
  for (const d of result.issued) {
    await tx.query(
      `UPDATE fund_contributions SET state = ?, strike_id = ?, units = ?, updated_at = ?
       WHERE contribution_id = ? AND state IN ${sqlList(CONTRIBUTION_MOVES.issue.from)}`,
      CONTRIBUTION_MOVES.issue.to,
      strikeId,
      d.units,
      s.at,
      d.id,
    );
  }
  for (const d of result.redeemed) {
    await tx.query(
      `UPDATE fund_cashouts SET state = ?, strike_id = ?, units = ?, cents = ?, updated_at = ?
       WHERE cashout_id = ? AND state IN ${sqlList(CASHOUT_MOVES.redeem.from)}`,
      CASHOUT_MOVES.redeem.to,
      strikeId,
      d.units,
      d.cents,
      s.at,
      d.id,
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
