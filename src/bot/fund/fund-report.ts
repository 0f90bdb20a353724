/**
 * The fund's report for a period (decision 1922): NAV's change between strikes, P&L by tipster, league and book,
 * CLV with its interval, and the risk limits used. Pure; the weekly beat at the end posts it through the outbox.
 */

import { tz } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { startOfISOWeek } from 'date-fns/startOfISOWeek';
import type { BetFact } from '../analytics/index.js';
import {
  type Attribution,
  type AttributionOptions,
  attribution,
  betPnlCents,
  type CurvePoint,
  fundBetTest,
  type MultiCount,
  multiCount,
  profitCurve,
  type Skill,
  skillOf,
} from '../analytics/index.js';
import type { MessageView } from '../model/limits.js';
import { fundFacts } from './fund-facts.js';
import { riskLines } from './fund-risk.js';
import { limitLines } from './model/risk-limits.js';
import type { FundReads } from './reads.js';

export interface StrikePoint {
  at: number;
  /** A UnitPrice (model/unit-price.ts). */
  price: number;
  navAfterCents: number;
}

export interface GroupPnl {
  key: string;
  bets: number;
  pnlCents: number;
}

export interface FundReport {
  since: number;
  until: number;
  label: string;
  /** NAV and price at the last strike before the period and the last within it; null without both. */
  nav: { from: StrikePoint; to: StrikePoint } | null;
  tipsters: Attribution;
  byLeague: GroupPnl[];
  byBook: GroupPnl[];
  skill: Skill;
  limits: string[];
  /** The fund's settled bets of the period, for the chart. */
  curve: CurvePoint[];
  /** The same-race multis among the fund's settled bets of the period (absent: none). */
  multis?: MultiCount;
}

function groupPnl(bets: readonly BetFact[], keyOf: (b: BetFact) => string): GroupPnl[] {
  const out = new Map<string, GroupPnl>();
  for (const b of bets) {
    const key = keyOf(b);
    const g = out.get(key) ?? { key, bets: 0, pnlCents: 0 };
    g.bets++;
    g.pnlCents += betPnlCents(b);
    out.set(key, g);
  }
  return [...out.values()].sort((a, b) => b.pnlCents - a.pnlCents || (a.key < b.key ? -1 : 1));
}

export function fundReport(input: {
  facts: readonly BetFact[];
  opts: Pick<AttributionOptions, 'accounts' | 'accountOfSession'>;
  since: number;
  until: number;
  label: string;
  strikes: readonly StrikePoint[];
  limits: string[];
  minBets: number;
}): FundReport {
  const { since, until } = input;
  const tipsters = attribution(input.facts, { ...input.opts, since, until });
  const ofFund = fundBetTest(input.opts);
  const at = (b: BetFact) => b.settledAt ?? b.placedAt;
  const settled = input.facts.filter(
    (b) =>
      b.status !== 'open' &&
      ofFund(b) &&
      at(b) >= since &&
      at(b) < until &&
      (b.status === 'void' || b.returnCents !== null),
  );
  const before = input.strikes.filter((s) => s.at < since).at(-1);
  const within = input.strikes.filter((s) => s.at >= since && s.at < until);
  const from = before ?? within[0];
  const to = within.at(-1);
  const multis = multiCount(settled);
  return {
    since,
    until,
    label: input.label,
    nav: from && to && from !== to ? { from, to } : null,
    tipsters,
    byLeague: groupPnl(settled, (b) => b.league ?? b.sport),
    byBook: groupPnl(settled, (b) => b.book),
    skill: skillOf(settled, input.minBets),
    limits: input.limits,
    curve: profitCurve(settled),
    ...(multis ? { multis } : {}),
  };
}

/** The ISO week (its Monday, YYYY-MM-DD) an instant falls in, in a time zone, and when that week began. */
export function weekOf(at: number, zone: string): { key: string; start: number } {
  const start = startOfISOWeek(at, { in: tz(zone) });
  return { key: format(start, 'yyyy-MM-dd', { in: tz(zone) }), start: start.getTime() };
}

export type ReportCtx = Pick<FundReads, 'store' | 'fund' | 'catalog' | 'ledger' | 'now'>;

/** The report of the fund's bets settled in [since, until), with what it reads. */
export async function loadFundReport(
  ctx: ReportCtx,
  guildId: string,
  p: { since: number; until: number; label: string; timezone: string; minBets: number },
): Promise<FundReport> {
  const { facts, ...opts } = await fundFacts(ctx, guildId);
  const strikes = (await ctx.fund.strikes(guildId, 0)).filter((s) => s.unitsAfter > 0);
  return fundReport({
    facts,
    opts,
    since: p.since,
    until: p.until,
    label: p.label,
    strikes: strikes.map((s) => ({ at: s.at, price: s.price, navAfterCents: s.navAfterCents })),
    limits: limitLines(await riskLines(ctx, guildId, p.timezone)),
    minBets: p.minBets,
  });
}

/** What the weekly beat needs beyond the report's reads: the settings, the outbox and the view. */
export interface WeeklyDeps extends ReportCtx {
  outbox: {
    create(key: string, channelId: string, view: MessageView): Promise<void>;
    has(key: string): Promise<boolean>;
  };
  settingsOf(guildId: string): Promise<{ timezone: string; resultsChannelId?: string | undefined }>;
  render(report: FundReport): MessageView;
  minBets: number;
  /** How a report is read (tests give their own); default loadFundReport. */
  load?: typeof loadFundReport;
}

/**
 * Once a week per fund with a results channel: last week's report (Monday to Monday in the server's time zone),
 * posted through the outbox under the week's key, so every process may run the beat and it is posted once.
 */
export async function postWeeklyFundReports(d: WeeklyDeps, guildIds: Iterable<string>): Promise<void> {
  for (const guildId of guildIds) {
    const settings = await d.settingsOf(guildId);
    if (!settings.resultsChannelId || !(await d.fund.fund(guildId))) continue;
    const thisWeek = weekOf(d.now(), settings.timezone);
    const lastWeek = weekOf(thisWeek.start - 1, settings.timezone);
    const key = `fund-week:${guildId}:${lastWeek.key}`;
    if (await d.outbox.has(`create:${key}`)) continue;
    // No report of a week the fund was not yet open in (first struck after it ended).
    const first = await d.fund.firstStrikeAt(guildId);
    if (first === undefined || first >= thisWeek.start) continue;
    const report = await (d.load ?? loadFundReport)(d, guildId, {
      since: lastWeek.start,
      until: thisWeek.start,
      label: `week of ${lastWeek.key}`,
      timezone: settings.timezone,
      minBets: d.minBets,
    });
    await d.outbox.create(key, settings.resultsChannelId, d.render(report));
  }
}
