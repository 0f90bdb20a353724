// Markets the score cannot decide whose selections cover every result (a fight's method of victory, a book's
// winning margin): exactly one selection wins, and the same one at every book.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { BOOKIES as BOOKS } from '../../../src/sandbox/world/books.js';
import { sportsOutcome } from '../../../src/sandbox/world/settlement.js';
import { boot, worldOf } from './world-helpers.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await boot();
});
afterAll(async () => {
  await sb?.close();
});

describe('settling a market whose selections exclude each other', () => {
  it('wins exactly one selection of a fight’s Method of Victory, the same one at every book', () => {
    const world = worldOf(sb);
    const fights = world.allEvents().filter((e) => !e.isOutright && (e.sport === 'boxing' || e.sport === 'mma'));
    expect(fights.length).toBeGreaterThan(3);
    for (const ev of fights) {
      const winners = BOOKS.map((book) => {
        const market = world.card(ev, book).find((m) => m.market === 'method_of_victory');
        if (!market) return null;
        const won = market.selections.filter(
          (s, i) => sportsOutcome(world.seed, `bet-${book}-${i}`, s.outcome, s.chance, null, false) === 'won',
        );
        expect(won, `${ev.epk} at ${book}`).toHaveLength(1);
        return won[0]?.slug;
      }).filter((w) => w !== null);
      expect(new Set(winners).size, ev.epk).toBe(1);
    }
  });
});
