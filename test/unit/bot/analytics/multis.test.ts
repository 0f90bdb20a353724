import { describe, expect, it } from 'vitest';
import { attribution } from '../../../../src/bot/analytics/attribution.js';
import { evAgainstClose, priceClv } from '../../../../src/bot/analytics/clv.js';
import { clvSummary } from '../../../../src/bot/analytics/clv-summary.js';
import type { BetFact } from '../../../../src/bot/analytics/facts.js';
import { leaderboard } from '../../../../src/bot/analytics/leaderboard.js';
import { multiPart } from '../../../../src/bot/analytics/multis.js';
import { report } from '../../../../src/bot/analytics/report.js';
import { skillOf } from '../../../../src/bot/analytics/skill.js';
import { factOf } from '../../../../src/bot/analytics/source.js';
import { leaderboardView, statsView } from '../../../../src/bot/analytics/views/stats.js';
import { fundReport } from '../../../../src/bot/fund/fund-report.js';
import { fundReportView } from '../../../../src/bot/fund/views/report.js';
import { tipstersView } from '../../../../src/bot/fund/views/tipsters.js';
import type { BetRecord } from '../../../../src/bot/model/bet-states.js';
import type { SlipPayload } from '../../../../src/bot/model/slip-rules.js';
import { bet } from './facts.js';

const T = Date.UTC(2026, 10, 16, 3);
const fair = (probability: number) => ({ kind: 'fair' as const, probability, books: ['bookie_a'], method: 'x' });

/** A settled 3-leg multi's record: taken at 12.00 when its fair chance was 8 %, 10 % at the race's close. */
function multiRecord(over: Partial<BetRecord> = {}): BetRecord {
  const legs = [
    { runner: 'Alpha', position: 'win' as const, winPrice: 3 },
    { runner: 'Bravo', position: 'top3' as const, winPrice: 5 },
    { runner: 'Charlie', position: 'top4' as const, winPrice: 9 },
  ];
  const payload = {
    kind: 'multi',
    multi: { track: 'Flemington', raceNum: 3, raceType: '(R)', date: '2026-11-16', legs, probability: 0.08 },
    epk: 'racing:Flemington/3/(R)/2026-11-16',
    sport: 'racing',
    shownOdds: 1.01,
    marketKey: 'srm',
  } as unknown as SlipPayload;
  return {
    placementId: 'p1',
    slipId: 's1',
    guildKey: 'g',
    guildId: 'g',
    channelId: 'c',
    messageId: 'm',
    userId: 'ann',
    sessionId: 'sess',
    bookie: 'bookie_a',
    day: '2026-11-16',
    stakeCents: 1_000,
    payload,
    state: 'settled',
    correlationId: null,
    timeoutAt: null,
    betId: 'B1',
    odds: 12,
    note: null,
    settledStatus: 'won',
    pnlCents: 11_000,
    misses: 0,
    closeOdds: 10,
    closeMarket: fair(0.1),
    createdAt: T,
    updatedAt: T + 3_600_000,
    ...over,
  };
}

describe("a multi's bet record as analytics reads it", () => {
  it('is marked with its legs, its P&L the book’s cents, its close the fair chance at the race’s close', () => {
    const [f] = factOf(multiRecord());
    expect(f?.multiLegs).toBe(3);
    expect(f?.returnCents).toBe(12_000);
    // The book's margin held from placement (12 × 0.08 = 0.96) to the close: 0.96 / 0.10 = 9.60.
    expect(f?.closeOdds).toBeCloseTo(9.6, 12);
    // So its CLV is how far its fair chance moved: 0.10 / 0.08 − 1 = +25 %.
    expect(priceClv(f?.oddsTaken as number, f?.closeOdds as number)).toBeCloseTo(0.25, 12);
    // And its EV is against the fair close itself: 12 × 0.10 − 1 = +20 %.
    const ev = evAgainstClose(f?.oddsTaken as number, f?.closeOdds as number, f?.closeMarket ?? null);
    expect(ev.ok && ev.ev).toBeCloseTo(0.2, 12);
  });

  it('without a fair chance at placement, reads its close as the fair price itself (CLV is its EV)', () => {
    const r = multiRecord();
    const payload = { ...r.payload, multi: { ...r.payload.multi, probability: undefined } } as SlipPayload;
    const [f] = factOf({ ...r, payload });
    expect(f?.closeOdds).toBeCloseTo(10, 12);
  });

  it('a single is no multi', () => {
    const r = multiRecord();
    const [f] = factOf({ ...r, payload: { ...r.payload, kind: 'racing', multi: undefined } as SlipPayload });
    expect(f?.multiLegs).toBeUndefined();
  });
});

/** Ann's two multis (won $12.00 on $1.00, lost $3.00) and a single (lost $5.00); Bob's single (won $4.50 on $5.00). */
function sample(): BetFact[] {
  const multi = (over: Partial<BetFact>) => bet({ sport: 'racing', closeMarket: fair(0.1), ...over });
  return [
    multi({ member: 'ann', multiLegs: 2, stakeCents: 100, oddsTaken: 13, status: 'won', returnCents: 1_300 }),
    multi({ member: 'ann', multiLegs: 3, stakeCents: 300, oddsTaken: 9, status: 'lost', returnCents: 0, closeOdds: 8 }),
    bet({ member: 'ann', stakeCents: 500, status: 'lost', returnCents: 0 }),
    bet({ member: 'bob', stakeCents: 500, status: 'won', returnCents: 950, closeOdds: 1.8 }),
  ].map((b, i) => ({ ...b, closeOdds: b.closeOdds ?? (i === 0 ? 10 : null), settledAt: T + i }));
}

describe('multis in the reports, each marked as multis and counted in the totals to the cent', () => {
  it('/stats: the multis’ part, with their legs, money and CLV, inside the totals', () => {
    const facts = sample();
    const m = multiPart(facts);
    expect(m).toMatchObject({
      bets: 2,
      byLegs: [
        { legs: 2, bets: 1 },
        { legs: 3, bets: 1 },
      ],
    });
    expect(m?.pnl.profitCents).toBe(1_200 - 300);
    const r = report(facts);
    expect(r.pnl.profitCents).toBe(1_200 - 300 - 500 + 450);
    // A multi's fair close has EV: none of the multis is "EV left out".
    expect(clvSummary(facts.slice(0, 2)).noEv).toBe(0);
    const view = statsView({
      scope: 'Everyone',
      report: r,
      byBook: [],
      skill: skillOf(facts),
      chart: false,
      multis: m,
    });
    const field = view.embeds[0]?.fields?.find((f) => f.name.startsWith('Same-race multis'));
    expect(field?.value.split('\n')).toEqual([
      '2 multis · 1 of 2 legs, 1 of 3 legs',
      '1 won · 1 lost · 0 void · 0 open · profit $9.00 on $4.00 staked',
      // CLV (13 / 10 − 1 + 9 / 8 − 1) / 2; EV (13 × 0.1 − 1 + 9 × 0.1 − 1) / 2.
      "CLV against the race's close +21.25% (2 multis with a close) · EV at the fair close +10.00%",
    ]);
    // No multis, no such field.
    const singles = statsView({ scope: 'x', report: r, byBook: [], skill: skillOf(facts), chart: false });
    expect(singles.embeds[0]?.fields?.some((f) => f.name.startsWith('Same-race multis'))).toBe(false);
  });

  it('/leaderboard: a member’s row says how many of the bets were multis', () => {
    const board = leaderboard(sample(), 2);
    expect(board.ranked.map((r) => [r.member, r.multis?.bets])).toEqual([['ann', 2]]);
    const text = leaderboardView(board, 'Last 90 days').embeds[0]?.description ?? '';
    expect(text).toContain('profit $4.00 · 2 multis · 1 of 2 legs, 1 of 3 legs among them');
  });

  it('/fund tipsters: the multis in a tipster’s line, with their P&L, and the lines still add up to the fund', () => {
    const a = attribution(sample(), { accounts: [], fundKey: 'g' });
    const withFund = attribution(
      sample().map((b) => ({ ...b, fundKey: 'g' })),
      { accounts: [], fundKey: 'g' },
    );
    expect(a.rows).toEqual([]);
    expect(withFund.rows.map((r) => [r.member, r.pnlCents, r.multis])).toEqual([
      ['bob', 450, undefined],
      [
        'ann',
        400,
        {
          bets: 2,
          byLegs: [
            { legs: 2, bets: 1 },
            { legs: 3, bets: 1 },
          ],
          pnlCents: 900,
        },
      ],
    ]);
    expect(withFund.fund.pnlCents).toBe(850);
    const text = tipstersView(withFund, 'last 30 days').embeds[0]?.description ?? '';
    expect(text).toContain('of them 2 multis · 1 of 2 legs, 1 of 3 legs: $9.00');
    expect(text).toContain('**Fund: $8.50**');
  });

  it('the weekly report: a line for the fund’s multis of the week, in the totals above it', () => {
    const facts = sample().map((b) => ({ ...b, fundKey: 'g' }));
    const r = fundReport({
      facts,
      opts: { accounts: [] },
      since: T - 1,
      until: T + 10,
      label: 'week of 2026-11-16',
      strikes: [],
      limits: [],
      minBets: 30,
    });
    expect(r.multis).toEqual({
      bets: 2,
      byLegs: [
        { legs: 2, bets: 1 },
        { legs: 3, bets: 1 },
      ],
      pnlCents: 900,
    });
    const view = fundReportView(r, { chart: false });
    const field = view.embeds[0]?.fields?.find((f) => f.name.startsWith('Same-race multis'));
    expect(field?.value).toBe('2 multis · 1 of 2 legs, 1 of 3 legs: $9.00');
  });
});
