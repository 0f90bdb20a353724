import { describe, expect, it } from 'vitest';
import type { FundAccountRef } from '../../../../src/bot/analytics/attribution.js';
import type { BetFact } from '../../../../src/bot/analytics/facts.js';
import {
  type FundReport,
  fundReport,
  postWeeklyFundReports,
  type WeeklyDeps,
  weekOf,
} from '../../../../src/bot/fund/fund-report.js';
import { fundReportView } from '../../../../src/bot/fund/views/report.js';
import type { MessageView } from '../../../../src/bot/model/limits.js';
import { limitViolations } from '../../../../src/bot/model/limits.js';
import { bet } from './facts.js';

const MON = Date.UTC(2026, 10, 16); // Monday 16 November 2026
const DAY = 86_400_000;
const ACCOUNTS: FundAccountRef[] = [{ bookie: 'bookie_a', username: 'alpha_a', since: 0 }];
const P = 1_000_000;
const fund = (over: Partial<BetFact>) => bet({ book: 'bookie_a', account: 'alpha_a', placedAt: MON, ...over });

function sample(): FundReport {
  return fundReport({
    facts: [
      fund({ member: 'ann', league: 'nba', stakeCents: 1000, status: 'won', returnCents: 1900, settledAt: MON + DAY }),
      fund({ member: 'bob', league: 'epl', stakeCents: 500, status: 'lost', returnCents: 0, settledAt: MON + 2 * DAY }),
      fund({ member: 'bob', league: 'nba', stakeCents: 700, status: 'lost', returnCents: 0, settledAt: MON - 1 }),
      bet({ member: 'cat', book: 'bookie_b', account: 'x', status: 'won', returnCents: 5000, settledAt: MON + DAY }),
    ],
    opts: { accounts: ACCOUNTS },
    since: MON,
    until: MON + 7 * DAY,
    label: 'week of 2026-11-16',
    strikes: [
      { at: MON - DAY, price: 100 * P, navAfterCents: 10_000 },
      { at: MON + 3 * DAY, price: 104 * P, navAfterCents: 10_400 },
    ],
    limits: ['Daily loss limit $500.00: $0.00 used'],
    minBets: 30,
  });
}

describe('the fund report of a period', () => {
  it('NAV from the last strike before the period to the last within it; P&L by tipster, league and book', () => {
    const r = sample();
    expect(r.nav?.from.navAfterCents).toBe(10_000);
    expect(r.nav?.to.navAfterCents).toBe(10_400);
    expect(r.tipsters.fund.pnlCents).toBe(400);
    expect(r.tipsters.rows.map((x) => [x.member, x.pnlCents])).toEqual([
      ['ann', 900],
      ['bob', -500],
    ]);
    expect(r.tipsters.outside).toEqual({ bets: 1, pnlCents: 4000, beforeJoining: 0 });
    expect(r.byLeague).toEqual([
      { key: 'nba', bets: 1, pnlCents: 900 },
      { key: 'epl', bets: 1, pnlCents: -500 },
    ]);
    expect(r.byBook).toEqual([{ key: 'bookie_a', bets: 2, pnlCents: 400 }]);
    expect(r.skill.verdict.kind).toBe('too-few');
    expect(r.curve.map((p) => p.profitCents)).toEqual([900, 400]);
  });

  it('its view names each part and fits Discord', () => {
    const view = fundReportView(sample(), { chart: true });
    expect(limitViolations(view)).toEqual([]);
    const e = view.embeds[0];
    const byName = Object.fromEntries((e?.fields ?? []).map((f) => [f.name, f.value]));
    expect(byName.NAV).toContain('$100.00 → **$104.00** (+$4.00); a unit $1.000000 → $1.040000 (+4.00%)');
    expect(byName['P&L by tipster']).toContain('<@ann>: **$9.00**');
    expect(byName['P&L by tipster']).toContain('Fund: **$4.00** over 2 bets');
    // Leagues by name, as everywhere members read them, never by code (issue 45: "darts").
    expect(byName['By league']).toBe('NBA: **$9.00** (1 bet)\nEPL: **-$5.00** (1 bet)');
    expect(byName.CLV).toContain('too few bets to tell');
    expect(byName.Limits).toBe('Daily loss limit $500.00: $0.00 used');
    expect(e?.image?.url).toBe('attachment://fund-report.png');
    expect(e?.footer?.text).toContain("not the fund's");
  });
});

describe('the weekly beat', () => {
  it('weeks start on Monday in the server time zone', () => {
    expect(weekOf(MON + 3 * DAY, 'UTC')).toEqual({ key: '2026-11-16', start: MON });
    // Sunday 23:30 in UTC is already Monday in Sydney.
    expect(weekOf(MON + 7 * DAY - 30 * 60_000, 'Australia/Sydney').key).toBe('2026-11-23');
  });

  it("posts last week's report once per fund with a results channel, under the week's key", async () => {
    const posted: Array<{ key: string; channel: string; view: MessageView }> = [];
    const loads: Array<{ guild: string; since: number; until: number; label: string }> = [];
    const d = {
      now: () => MON + 7 * DAY + 3_600_000,
      fund: {
        fund: async (g: string) => (g === 'no-fund' ? undefined : { guildKey: g }),
        // 'new' was first struck after last week ended: nothing to report of that week.
        firstStrikeAt: async (g: string) => (g === 'new' ? MON + 7 * DAY + 60_000 : g === 'no-fund' ? undefined : MON),
      },
      outbox: {
        create: async (key: string, channel: string, view: MessageView) => void posted.push({ key, channel, view }),
        has: async (key: string) => posted.some((p) => `create:${p.key}` === key),
      },
      settingsOf: async (g: string) =>
        g === 'quiet' ? { timezone: 'UTC' } : { timezone: 'UTC', resultsChannelId: `r-${g}` },
      render: () => ({ embeds: [{ title: 'report' }], components: [] }),
      minBets: 30,
      load: async (_ctx: unknown, guild: string, p: { since: number; until: number; label: string }) => {
        loads.push({ guild, since: p.since, until: p.until, label: p.label });
        return sample();
      },
    } as unknown as WeeklyDeps;
    await postWeeklyFundReports(d, ['g1', 'quiet', 'no-fund', 'new']);
    await postWeeklyFundReports(d, ['g1']);
    expect(posted.map((p) => [p.key, p.channel])).toEqual([['fund-week:g1:2026-11-16', 'r-g1']]);
    expect(loads).toEqual([{ guild: 'g1', since: MON, until: MON + 7 * DAY, label: 'week of 2026-11-16' }]);
  });
});
