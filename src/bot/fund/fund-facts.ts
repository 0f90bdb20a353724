/**
 * What fund attribution reads (the one adapter between the desk and attribution.ts): the server's bets, the fund's
 * accounts with when each joined, and the user name behind each session for slips that did not record theirs.
 */

import type { BetFact } from '../analytics/index.js';
import { analyticsSource, attribution, type FundAccountRef } from '../analytics/index.js';
import type { FundReads } from './reads.js';

export interface FundFacts {
  facts: BetFact[];
  accounts: FundAccountRef[];
  fundKey: string;
  accountOfSession: (sessionId: string) => string | undefined;
}

export async function fundFacts(
  ctx: Pick<FundReads, 'store' | 'catalog' | 'fund'>,
  guildId: string,
): Promise<FundFacts> {
  const [facts, accounts, sessions] = await Promise.all([
    analyticsSource(ctx).facts({ guild: guildId }),
    ctx.fund.repo.accounts(guildId),
    ctx.catalog.peekSessions().then((s) => s ?? ctx.catalog.loadSessions().catch(() => [])),
  ]);
  const users = new Map(sessions.map((s) => [s.session_id, s.username ? String(s.username) : undefined]));
  return {
    facts,
    accounts: accounts.map((a) => ({ bookie: a.bookie, username: a.username, since: a.addedAt })),
    fundKey: guildId,
    accountOfSession: (id) => users.get(id),
  };
}

/**
 * Each tipster's P&L of the fund's settled bets since the fund began (as /fund tipsters period:all): what the tipster
 * share is worked out on (decision 1923).
 */
export function tipsterPnl(f: FundFacts): Map<string, number> {
  const a = attribution(f.facts, { accounts: f.accounts, fundKey: f.fundKey, accountOfSession: f.accountOfSession });
  return new Map(a.rows.map((r) => [r.member, r.pnlCents]));
}

/** The periods /fund tipsters and /fund report read: rolling windows ending now. */
export const FUND_PERIODS = { week: 7, month: 30, quarter: 91, year: 365 } as const;
export type FundPeriod = keyof typeof FUND_PERIODS | 'all';

/** The instant a period starts (undefined: all time) and how to name it. */
export function periodOf(period: FundPeriod, now: number): { since: number | undefined; label: string } {
  if (period === 'all') return { since: undefined, label: 'since the fund began' };
  const days = FUND_PERIODS[period];
  return { since: now - days * 86_400_000, label: `last ${days} days` };
}
