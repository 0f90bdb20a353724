/**
 * Whose picks made the fund's money: every settled fund bet credited to its tipster (decision 1920). The tipster is
 * the bet record's member: the member who made the slip, which for an approved proposal is its proposer (the
 * approvers placed it, the pick was theirs) and for /compare's "Bet at best" the member who pressed it. A bet is the
 * fund's when it went through one of the fund's accounts after that account joined, the rule the strike values by.
 * P&L is whole cents per bet, so the tipsters' rows sum to the fund's P&L exactly.
 */

import { isFundBet as wholeBetRule } from '../model/bet-states.js';
import { clvSummary } from './clv-summary.js';
import type { BetFact } from './facts.js';
import { type MultiCount, multiCount } from './multis.js';
import { betPnlCents } from './pnl.js';

/** One of the fund's accounts as attribution reads it: only bets placed since it joined are the fund's. */
export interface FundAccountRef {
  bookie: string;
  username: string;
  since: number;
}

export interface AttributionOptions {
  accounts: readonly FundAccountRef[];
  /** The server whose fund this is: a bet decided at its claim is the fund's when it names this server. */
  fundKey?: string;
  /** The account user name of a session, for bets whose slip did not name it (older slips). */
  accountOfSession?: (sessionId: string) => string | undefined;
  /** Bets settled at or after this instant (epoch ms); absent: from the start. */
  since?: number;
  /** Bets settled before this instant; absent: up to now. */
  until?: number;
}

export interface TipsterRow {
  member: string;
  /** Settled fund bets in the period, voids included. */
  bets: number;
  /** Stake of those bets that were not void, whole cents. */
  stakedCents: number;
  pnlCents: number;
  /** This row's P&L over the fund's; null when the fund's P&L is 0. */
  shareOfFund: number | null;
  /** P&L per dollar staked; null with nothing staked. */
  roi: number | null;
  /** Mean price CLV of the bets with a captured close; null with none. */
  meanClv: number | null;
  /** Share of bets with a close that beat it; null with none. */
  beatCloseRate: number | null;
  withClose: number;
  /** The tipster's same-race multis among the bets, counted in the row as any bet (absent: none). */
  multis?: MultiCount;
}

export interface Attribution {
  /** Most P&L first (ties: member id). */
  rows: TipsterRow[];
  fund: { bets: number; stakedCents: number; pnlCents: number };
  /**
   * Settled bets in the period that are not the fund's: left out, and said so. `beforeJoining` of them went through
   * one of the fund's accounts before it joined (decision 1950): the float's money, not the fund's.
   */
  outside: { bets: number; pnlCents: number; beforeJoining: number };
  /** Fund bets not settled yet (or settled with no known return): not in the P&L until they are. */
  pending: number;
}

/** The account a bet went through, `bookie/username`, when known. */
function accountKey(
  b: Pick<BetFact, 'book' | 'account' | 'session'>,
  accountOfSession: AttributionOptions['accountOfSession'],
): string | undefined {
  const user = b.account ?? accountOfSession?.(b.session);
  return user ? `${b.book}/${user}` : undefined;
}

type AccountOf = Pick<BetFact, 'book' | 'account' | 'session' | 'placedAt' | 'fundKey'>;

/**
 * The test of whether a bet is the fund's, built once for many bets (one map lookup each): the fact stored at its
 * claim (decision 1950); for a record from before that was stored, the rule by dates.
 */
export function fundBetTest(
  opts: Pick<AttributionOptions, 'accounts' | 'accountOfSession' | 'fundKey'>,
): (b: AccountOf) => boolean {
  const fund = {
    ...(opts.fundKey === undefined ? {} : { fundKey: opts.fundKey }),
    joined: new Map(opts.accounts.map((a) => [`${a.bookie}/${a.username}`, a.since])),
  };
  return (b) =>
    wholeBetRule(
      {
        fundKey: b.fundKey,
        // The account is looked up only for a record from before whose a bet was stored.
        account: b.fundKey === undefined ? accountKey(b, opts.accountOfSession) : undefined,
        placedAt: b.placedAt,
      },
      fund,
    );
}

/** Whether a bet is the fund's: through one of its accounts, placed at or after the account joined. */
export function isFundBet(
  b: AccountOf,
  opts: Pick<AttributionOptions, 'accounts' | 'accountOfSession' | 'fundKey'>,
): boolean {
  return fundBetTest(opts)(b);
}

export { betPnlCents };

/** Settled with a known return (a void counts: it settled at 0). */
const isSettled = (b: BetFact): boolean =>
  b.status !== 'open' && (b.status === 'void' || (b.returnCents !== null && Number.isFinite(b.returnCents)));

const settledAt = (b: BetFact): number => b.settledAt ?? b.placedAt;

export function attribution(facts: readonly BetFact[], opts: AttributionOptions): Attribution {
  const inPeriod = (b: BetFact) =>
    (opts.since === undefined || settledAt(b) >= opts.since) && (opts.until === undefined || settledAt(b) < opts.until);
  const ofFund = fundBetTest(opts);
  const byMember = new Map<string, BetFact[]>();
  const outside = { bets: 0, pnlCents: 0, beforeJoining: 0 };
  const fundAccounts = new Set(opts.accounts.map((a) => `${a.bookie}/${a.username}`));
  let pending = 0;
  for (const b of facts) {
    const fund = ofFund(b);
    if (!isSettled(b)) {
      if (fund) pending++;
      continue;
    }
    if (!inPeriod(b)) continue;
    if (!fund) {
      outside.bets++;
      outside.pnlCents += betPnlCents(b);
      const key = accountKey(b, opts.accountOfSession);
      if (key !== undefined && fundAccounts.has(key)) outside.beforeJoining++;
      continue;
    }
    const list = byMember.get(b.member);
    if (list) list.push(b);
    else byMember.set(b.member, [b]);
  }
  const rows: TipsterRow[] = [];
  for (const [member, bets] of byMember) {
    const staked = bets.reduce((s, b) => s + (b.status === 'void' ? 0 : b.stakeCents), 0);
    const pnlCents = bets.reduce((s, b) => s + betPnlCents(b), 0);
    const clv = clvSummary(bets);
    const multis = multiCount(bets);
    rows.push({
      member,
      bets: bets.length,
      stakedCents: staked,
      pnlCents,
      shareOfFund: null,
      roi: staked > 0 ? pnlCents / staked : null,
      meanClv: clv.meanClv,
      beatCloseRate: clv.beatCloseRate,
      withClose: clv.withClose,
      ...(multis ? { multis } : {}),
    });
  }
  const fund = {
    bets: rows.reduce((s, r) => s + r.bets, 0),
    stakedCents: rows.reduce((s, r) => s + r.stakedCents, 0),
    pnlCents: rows.reduce((s, r) => s + r.pnlCents, 0),
  };
  for (const r of rows) r.shareOfFund = fund.pnlCents === 0 ? null : r.pnlCents / fund.pnlCents;
  rows.sort((a, b) => b.pnlCents - a.pnlCents || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
  return { rows, fund, outside, pending };
}
