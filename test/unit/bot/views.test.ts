import { describe, expect, it } from 'vitest';
import { settlementOf } from '../../../src/bot/betting/model/settlement.js';
import type { Proposal } from '../../../src/bot/betting/proposals.js';
import { settlementView } from '../../../src/bot/betting/views/notice.js';
import { proposalView } from '../../../src/bot/betting/views/proposal.js';
import { receiptView, routeLine, slipView } from '../../../src/bot/betting/views/slip.js';
import { cardView, marketView } from '../../../src/bot/catalog/views/card.js';
import { eventsView } from '../../../src/bot/catalog/views/events.js';
import { limitViolations } from '../../../src/bot/model/limits.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import type { Event, MarketCard, MarketRow } from '../../../src/gateway/index.js';

const long = (n: number) => 'x'.repeat(n);

function bigCard(markets: number, selections: number): MarketCard {
  const ms: MarketRow[] = Array.from({ length: markets }, (_, i) => ({
    market: `m_${i}_${long(150)}`,
    label: `Market ${i} ${long(300)}`,
    tier: ['popular', 'other', 'unmapped'][i % 3] as string,
    selections: Array.from({ length: selections }, (_, j) => ({
      label: `Selection ${j} ${long(200)}`,
      odds: 1.5 + j / 100,
      line: j % 2 ? j + 0.5 : null,
      market_ref: `ref-${i}-${j}`,
      bettable: true,
    })),
  }));
  return { epk: 'e', bookie: 'bookie_a', bound: true, market_ref_betting_enabled: true, markets: ms };
}

const slip: SlipPayload = {
  epk: long(300),
  sport: 'basketball',
  eventName: long(2000),
  bookie: 'bookie_a',
  sessionId: 's-1',
  marketKey: 'h2h',
  marketLabel: long(2000),
  selectionLabel: long(2000),
  marketRef: 'r',
  stakeCents: 1000,
  shownOdds: 2,
};

describe('views stay within Discord limits', () => {
  it('pages a huge events listing within limits', () => {
    const events: Event[] = Array.from({ length: 237 }, (_, i) => ({
      event_id: `e${i}`,
      sport: 'basketball',
      league: 'nba',
      name: `Team ${long(400)} v Team ${i}`,
      start_time: '2026-11-22T01:00:00Z',
      status: i % 3 === 0 ? 'in_play' : 'prematch',
      books: ['bookie_a', 'bookie_b', 'bookie_c'],
      score: i % 3 === 0 ? { home_score: 10, away_score: 12 } : null,
    }));
    for (const page of [0, 5, 23, 99]) {
      const v = eventsView({
        events,
        league: long(300),
        date: '2026-11-22',
        timezone: 'UTC',
        page,
        ref: 'abcdef123456',
      });
      expect(limitViolations(v)).toEqual([]);
    }
  });

  describe("an events listing speaks the server's time zone, in its lines, its menu and its heading", () => {
    const game = {
      event_id: 'e',
      sport: 's',
      league: 'nba',
      name: 'A v B',
      start_time: '2026-11-22T01:00:00Z',
      status: 'in_play' as const,
      books: ['bookie_a'],
      score: { home_score: 3, away_score: 1 },
    };
    const listing = (timezone: string, extra: { from?: number } = {}) => {
      const v = eventsView({
        events: [game],
        league: 'nba',
        date: '2026-11-22',
        timezone,
        page: 0,
        ref: 'r',
        ...extra,
      });
      const menu = (v.components[0]?.components[0] as { options?: Array<{ description?: string }> } | undefined)
        ?.options;
      return { embed: v.embeds[0], line: v.embeds[0]?.fields?.[0]?.value ?? '', menu: menu?.[0]?.description };
    };

    it('a day: each start as a time of day in that zone, the one its menu says', () => {
      const utc = listing('UTC');
      expect(utc.line).toBe('01:00 UTC · 🔴 in play · **3–1** · books: bookie_a');
      expect(utc.menu).toBe('01:00 UTC · 1 book');
      expect(utc.embed?.description).toBe(
        "1 event on 2026-11-22; times in UTC, this server's time zone (/settings timezone).",
      );
      const sydney = listing('Australia/Sydney');
      expect(sydney.line).toMatch(/^12:00 GMT\+11 · /);
      expect(sydney.menu).toBe('12:00 GMT+11 · 1 book');
      expect(`${sydney.line}${sydney.embed?.description}`).not.toMatch(/<t:|UTC/);
    });

    it('no date: what is coming up, each start said from the moment asked ("tomorrow 01:00 UTC")', () => {
      const { embed, line, menu } = listing('UTC', { from: Date.parse('2026-11-21T12:46:00Z') });
      expect(embed?.title).toBe('NBA — next 24 hours');
      expect(line).toMatch(/^tomorrow 01:00 UTC · /);
      expect(menu).toBe('tomorrow 01:00 UTC · 1 book');
      expect(embed?.description).toBe(
        "1 event in play or starting by tomorrow 12:46 UTC; times in UTC, this server's time zone (/settings timezone). date:today or a date lists a whole day.",
      );
    });
  });

  it('pages a huge market card within limits, with a select of at most 25 options', () => {
    const card = bigCard(80, 40);
    for (const page of [0, 3, 7, 100]) {
      const v = cardView({ card, eventName: long(500), ref: 'abcd1234', page });
      expect(limitViolations(v)).toEqual([]);
    }
    for (const idx of [0, 79]) {
      expect(limitViolations(marketView({ card, eventName: long(500), ref: 'abcd1234', marketIndex: idx }))).toEqual(
        [],
      );
    }
  });

  it('orders markets popular, other, unmapped, naming the last "this book only"', () => {
    const v = cardView({ card: bigCard(6, 1), eventName: 'E', ref: 'r', page: 0 });
    const tiers = (v.embeds[0]?.fields ?? []).map((f) => f.name.split(' · ').pop());
    expect(tiers).toEqual(['popular', 'popular', 'other', 'other', 'this book only', 'this book only']);
  });

  it('keeps the slip and receipt within limits', () => {
    expect(limitViolations(slipView({ slip, slipId: 'abc', userId: '123', expiresAt: Date.now() }))).toEqual([]);
    expect(limitViolations(receiptView(slip, { success: true, bet_id: long(3000), odds: 2, stake: 10 }))).toEqual([]);
    expect(
      limitViolations(receiptView(slip, { success: false, bet_result: { success: false, error: long(5000) } })),
    ).toEqual([]);
  });

  it('reads a receipt nested under bet_result as well as a flat one', () => {
    const nested = receiptView(slip, {
      success: true,
      bet_result: { success: true, bet_id: 'B1', odds: 2.1, stake: 10 },
    });
    expect(nested.embeds[0]?.title).toMatch(/placed/);
    expect(nested.embeds[0]?.fields?.find((f) => f.name === 'Potential return')?.value).toBe('$21.00');
    const refused = receiptView(slip, { success: false, bet_result: { success: false, error: 'odds below target' } });
    expect(refused.embeds[0]?.description).toContain('odds below target');
  });

  it('keeps a settlement notice within limits', () => {
    const v = settlementView({
      settlement: settlementOf({ id: long(2000), type: 'bet', status: 'won', stake: 10, odds: 2, pnl: 10 })!,
      userId: '1',
      detail: { selectionLabel: long(3000), eventName: long(6000) },
    });
    expect(limitViolations(v)).toEqual([]);
    expect(v.embeds[0]?.fields?.find((f) => f.name === 'P&L')?.value).toBe('+$10.00');
  });

  describe('words on the cards', () => {
    const event = (i: number): Event => ({
      event_id: `e${i}`,
      sport: 'basketball',
      league: 'nba',
      name: `Team ${i} v Team ${i + 1}`,
      start_time: '2026-11-22T01:00:00Z',
      status: 'prematch',
      books: ['bookie_a'],
      score: null,
    });
    const listing = (n: number) =>
      eventsView({
        events: Array.from({ length: n }, (_, i) => event(i)),
        league: 'nba',
        date: '2026-11-22',
        timezone: 'UTC',
        page: 0,
        ref: 'r',
      }).embeds[0]?.description;

    it('lists as "books:" only the books that take bets on an event, the others named in words', () => {
      const line = (books: string[], leftOut: string[]) =>
        eventsView({
          events: [{ ...event(0), books }],
          league: 'nba',
          date: '2026-11-22',
          timezone: 'UTC',
          page: 0,
          ref: 'r',
          leftOut: { e0: leftOut },
        }).embeds[0]?.fields?.[0]?.value;
      expect(line(['bookie_a', 'bookie_b', 'bookie_c'], ['bookie_b', 'bookie_c'])).toMatch(
        / · books: bookie_a; bookie_b, bookie_c list it but take no bets on it$/,
      );
      expect(line(['bookie_a', 'bookie_c'], ['bookie_c'])).toMatch(
        / · books: bookie_a; bookie_c lists it but takes no/,
      );
      expect(line(['bookie_c'], ['bookie_c'])).toMatch(/ · no book takes bets on it \(bookie_c lists it but takes no/);
    });

    it('counts events in words, never "event(s)"', () => {
      expect(listing(1)).toMatch(/^1 event on 2026-11-22; times in UTC/);
      expect(listing(6)).toMatch(/^6 events on 2026-11-22; times in UTC/);
    });

    it("names the book's own wording of a market only when it is more than the label in other letter case", () => {
      const card = bigCard(1, 2);
      const market = card.markets[0] as MarketRow;
      const footer = (raw: string) =>
        marketView({
          card: { ...card, markets: [{ ...market, label: 'Head to Head', raw_market_name: raw }] },
          eventName: 'A v B',
          ref: 'r',
          marketIndex: 0,
        }).embeds[0]?.footer?.text;
      expect(footer('Head To Head')).toBe('bookie_a · popular');
      expect(footer('Money Line')).toBe('bookie_a · popular · Money Line');
    });

    it('says "the one book" when only one book can take a routed bet', () => {
      expect(routeLine({ priced: [{ book: 'bookie_a', price: 2.1 }], leftOut: [] })).toBe(
        'The one book that can take it: bookie_a 2.10',
      );
    });
  });

  describe("ids on members' cards", () => {
    const marketRef = 'bWFya2V0LXJlZjpib29raWVfYToxMjM0NTY3ODkwOmhlYWRfdG9faGVhZDpob21lOjE3NjQxMTIwMDA'.repeat(2);
    const named: SlipPayload = {
      ...slip,
      eventName: 'A v B',
      selectionLabel: 'Home',
      marketLabel: 'Head to Head',
      sessionId: '5e55a1fa-0000-4000-8000-00000000000a',
      account: 'alpha_a',
      marketRef,
    };

    it('names the account by its user name on a slip, never the session id', () => {
      const v = slipView({ slip: named, slipId: 'x', userId: 'u', expiresAt: 0 });
      const fields = v.embeds?.[0]?.fields ?? [];
      expect(fields.find((f) => f.name === 'Account')?.value).toBe('alpha_a');
      expect(JSON.stringify(v)).not.toContain(named.sessionId);
    });

    it('says in words what an approval binds: book, account, selection and market, no market_ref', () => {
      const proposal = {
        proposalId: 'p',
        bookie: 'bookie_a',
        sessionId: named.sessionId,
        marketRef,
        needed: 1,
        shownOdds: 2.1,
        expiresAt: 0,
        stakeCents: 60_00,
        note: null,
      } as Proposal;
      const v = proposalView({ proposal, slip: named, approvals: [], approverRoleId: undefined });
      expect(v.embeds?.[0]?.footer?.text).toBe(
        'An approval binds bookie_a · alpha_a · Home — Head to Head · $60.00 at 2.10; the live price is checked again at each approval.',
      );
      expect(JSON.stringify(v)).not.toContain(marketRef);
      expect(JSON.stringify(v)).not.toContain(named.sessionId);
    });
  });
});
