// Words a member met on the walks of issue 45 (test/browser/member-day.test.ts, treasurer-week.test.ts) that read as
// a machine's: "2 bet(s)", a stake form that did not say what it bets on.
import { describe, expect, it } from 'vitest';
import type { BetFact } from '../../../src/bot/analytics/facts.js';
import { report } from '../../../src/bot/analytics/report.js';
import { skillOf } from '../../../src/bot/analytics/skill.js';
import { statsView } from '../../../src/bot/analytics/views/stats.js';
import { eventsView } from '../../../src/bot/catalog/views/events.js';
import { alertStakeTitle } from '../../../src/bot/watch/views/watch.js';

const bet = (i: number): BetFact => ({
  betId: `b${i}`,
  member: 'ben',
  book: 'bookie_a',
  session: 's1',
  sport: 'basketball_nba',
  placedAt: 0,
  stakeCents: 1_000,
  oddsTaken: 2,
  status: 'won',
  returnCents: 2_000,
  closeOdds: null,
  closeMarket: null,
});

describe('/stats counts bets in words', () => {
  it('says "1 bet" and "2 bets", never "bet(s)"', () => {
    const facts = [bet(1), bet(2)];
    const fieldsOf = (edgeBets: number) =>
      statsView({
        scope: 'Everyone',
        report: report(facts),
        byBook: [],
        skill: skillOf(facts),
        chart: false,
        staking: {
          edge: { bets: edgeBets, meanEdge: 0.02, withCloseEv: 0, meanCloseEv: null, sameSign: null },
          discipline: [],
        },
      }).embeds[0]?.fields ?? [];
    const placement = (n: number) => fieldsOf(n).find((f) => f.name === 'Edge at placement')?.value;
    expect(placement(1)).toContain('+2.00% over 1 bet with a fair price');
    expect(placement(2)).toContain('+2.00% over 2 bets with a fair price');
    expect(JSON.stringify(fieldsOf(2))).not.toContain('(s)');
  });
});

describe("an alert's stake form", () => {
  it('is titled with the selection, its book and the price, within the 45 characters Discord allows', () => {
    expect(alertStakeTitle({ bookie: 'bookie_c', price: 2.63, selectionLabel: 'Sacramento Kings' })).toBe(
      'Stake: Sacramento Kings at bookie_c @ 2.63',
    );
    const long = alertStakeTitle({
      bookie: 'bookie_c',
      price: 2.63,
      selectionLabel: 'Shai Gilgeous-Alexander Over 31.5',
    });
    expect(long.length).toBeLessThanOrEqual(45);
    expect(long).toMatch(/^Stake: Shai Gilgeous-Alexander.*… @ 2\.63$/);
  });

  it("names the book's alert for an alert stored before its selection's name was kept", () => {
    expect(alertStakeTitle({ bookie: 'bookie_c', price: 2.63 })).toBe('Stake: bookie_c alert @ 2.63');
  });
});

describe("the menu under a league's list of events", () => {
  it("gives each start in the server's zone, the zone the list's day is in, not always in UTC", () => {
    const view = (timezone: string) =>
      eventsView({
        events: [
          {
            event_id: 'e',
            sport: 'basketball',
            league: 'nba',
            name: 'Lakers v Kings',
            start_time: '2026-11-30T08:00:00Z',
            status: 'prematch',
            books: ['bookie_a', 'bookie_c'],
            score: null,
          },
        ],
        league: 'nba',
        date: '2026-11-30',
        timezone,
        page: 0,
        ref: 'r',
      });
    const option = (timezone: string) =>
      JSON.stringify(view(timezone).components).match(/"description":"([^"]+)"/)?.[1];
    expect(option('UTC')).toBe('08:00 UTC · 2 books');
    // 08:00 UTC is 19:00 in Sydney (summer time, UTC+11), the day the list is headed with.
    expect(option('Australia/Sydney')).toBe('19:00 GMT+11 · 2 books');
  });
});
