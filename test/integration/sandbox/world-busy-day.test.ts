// Paging can be tried in the default world: a league-day with more than ten events and cards of more than ten markets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { boot, get } from './world-helpers.js';

// START is Friday 2026-11-20; the Sunday after is the NBA's busy day.
const SUNDAY = '2026-11-22';
const SATURDAY = '2026-11-21';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await boot();
});
afterAll(async () => {
  await sb?.close();
});

describe('a busy day and deep cards', () => {
  it('lists a full NBA slate of twelve games on Sunday, and fewer on other days', async () => {
    const sunday = await get(sb.url, '/odds/v1/events', { league: 'nba', date: SUNDAY });
    expect(sunday.body.count).toBe(12);
    const teams = sunday.body.data.flatMap((e: { home: string; away: string }) => [e.home, e.away]);
    expect(new Set(teams).size).toBe(24);
    const saturday = await get(sb.url, '/odds/v1/events', { league: 'nba', date: SATURDAY });
    expect(saturday.body.count).toBeLessThanOrEqual(10);
  });

  it('pages the busy day ten at a time', async () => {
    const first = await get(sb.url, '/odds/v1/events', { league: 'nba', date: SUNDAY, limit: 10 });
    expect(first.body).toMatchObject({ count: 10, truncated: true });
    const second = await get(sb.url, '/odds/v1/events', {
      league: 'nba',
      date: SUNDAY,
      limit: 10,
      cursor: first.body.next_cursor,
    });
    expect(second.body).toMatchObject({ count: 2, truncated: false, next_cursor: null });
  });

  it("gives every book's card of a busy-day NBA game more than ten markets (bettable at bookie_a, the only book taking basketball)", async () => {
    const listing = await get(sb.url, '/odds/v1/events', { league: 'nba', date: SUNDAY });
    const ev = listing.body.data.find((e: { books: string[] }) => e.books.includes('bookie_a') && e.books.length > 1);
    for (const bookie of ev.books as string[]) {
      // The other books price basketball but take no bets on it: their rows show only with include_unbettable.
      const card = await get(sb.url, '/v3/markets', {
        epk: ev.event_id,
        bookie,
        ...(bookie === 'bookie_a' ? {} : { include_unbettable: true }),
      });
      expect(card.body.n_markets, bookie).toBeGreaterThan(10);
      expect(card.body.markets.map((m: { market: string }) => m.market)).toEqual(
        expect.arrayContaining(['steals', 'blocks', 'first_half_total', 'first_half_line']),
      );
    }
  });
});
