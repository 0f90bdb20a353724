// Issue 36: a market_ref (and a bettable proposition_id) names exactly one row of a card, and placing by a row's
// market_ref places that row. Every card of every fixture (all sports, all three books, all tiers, unbettable
// rows included) of several sandbox days and seeds; then a bet by market_ref on a sample row of each market kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { BOOKIES, type Bookie, marketRefBettingEnabled } from '../../../src/sandbox/world/books.js';
import { viewCard } from '../../../src/sandbox/world/card-view.js';
import { addDays } from '../../../src/sandbox/world/dates.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import type { SportEvent } from '../../../src/sandbox/world/sports.js';
import { boot, get, post, START, waitJob, worldOf } from './world-helpers.js';

interface Row {
  label: string;
  odds: number;
  line: number | null;
  player: string | null;
  slug: string;
  market_ref?: string;
  proposition_id: string | null;
  bettable: boolean;
  reason?: string;
}
interface MarketRow {
  market: string;
  tier: string;
  selections: Row[];
}

/** The whole card as GET /v3/markets?include_unbettable=true serves it (the route's own view of the world's card). */
function fullCard(world: SimWorld, ev: SportEvent, bookie: Bookie): MarketRow[] {
  const now = world.nowMs();
  return viewCard(world.card(ev, bookie), {
    bookie,
    epk: ev.epk,
    tier: null,
    market: null,
    includeUnbettable: true,
    price: (m, sel) => world.cardPrice(bookie, ev.epk, m, sel, now),
  }).markets as unknown as MarketRow[];
}

/** What two rows of one card share that must name one row only. */
function clashes(card: MarketRow[]): string[] {
  const found: string[] = [];
  const refs = new Map<string, string>();
  const props = new Map<string, string>();
  for (const m of card) {
    for (const s of m.selections) {
      const name = `${m.market} '${s.label}'`;
      if (s.market_ref !== undefined) {
        const other = refs.get(s.market_ref);
        if (other) found.push(`market_ref of ${name} and ${other}`);
        refs.set(s.market_ref, name);
      }
      if (s.bettable && s.proposition_id !== null) {
        const other = props.get(s.proposition_id);
        if (other) found.push(`proposition_id of ${name} and ${other}`);
        props.set(s.proposition_id, name);
      }
    }
  }
  return found;
}

describe('a card row has ids of its own (issue 36)', () => {
  for (const seed of [1, 7, 11]) {
    it(`seed ${seed}: over 5 days of fixtures and the outrights, on every book, no two rows share a market_ref and no two bettable rows a proposition_id`, async () => {
      const sb = await boot({ seed });
      try {
        const world = worldOf(sb);
        const today = START.toISOString().slice(0, 10);
        const events = [-2, -1, 0, 1, 2].flatMap((d) => world.day(addDays(today, d))).concat(world.outrights());
        const sports = new Set<string>();
        const tiers = new Set<string>();
        let cards = 0;
        let rows = 0;
        const problems: string[] = [];
        for (const ev of events) {
          for (const bookie of BOOKIES) {
            const card = fullCard(world, ev, bookie);
            cards++;
            sports.add(ev.sport);
            for (const m of card) {
              tiers.add(m.tier);
              rows += m.selections.length;
            }
            for (const c of clashes(card)) problems.push(`${bookie} ${ev.epk}: ${c}`);
          }
        }
        expect(problems).toEqual([]);
        expect(cards).toBeGreaterThan(700);
        expect(rows).toBeGreaterThan(50_000);
        expect(tiers).toEqual(new Set(['popular', 'other', 'unmapped']));
        expect(sports.size).toBeGreaterThanOrEqual(15);
      } finally {
        await sb.close();
      }
    }, 120_000);
  }

  it('slugs keep the sign of a handicap, and two players of one name are told apart by their team', async () => {
    const sb = await boot({ seed: 1 });
    try {
      const world = worldOf(sb);
      const today = START.toISOString().slice(0, 10);
      const events = [-2, -1, 0, 1, 2].flatMap((d) => world.day(addDays(today, d)));
      let signed = 0;
      let namesakes = 0;
      for (const ev of events) {
        for (const m of fullCard(world, ev, 'bookie_a')) {
          if (m.market === 'alternate_line') {
            for (const s of m.selections) {
              expect(s.slug).toMatch((s.line as number) < 0 ? /_minus_\d+(_5)?$/ : /_plus_\d+(_5)?$/);
              signed++;
            }
          }
          for (const s of m.selections) if (s.player?.endsWith(')')) namesakes++;
        }
      }
      expect(signed).toBeGreaterThan(100);
      // Seed 1's five days hold fixtures whose squads share a name (the NHL card of the issue was one).
      expect(namesakes).toBeGreaterThan(0);
    } finally {
      await sb.close();
    }
  }, 120_000);
});

describe('placing by market_ref places that row (issue 36)', () => {
  let sb: RunningSandbox;
  let world: SimWorld;
  beforeAll(async () => {
    sb = await boot({ seed: 1 });
    world = worldOf(sb);
  });
  afterAll(async () => {
    await sb?.close();
  });

  const SESSION: Partial<Record<Bookie, string>> = {
    bookie_a: '5e55a1fa-0000-4000-8000-00000000000a',
    bookie_c: '5e55a1fa-0000-4000-8000-00000000000c',
  };

  it('a sample row of each market kind (each sign of a handicap, a namesake) is placed as itself, at about its card price', async () => {
    const now = world.nowMs();
    const upcoming = world
      .allEvents()
      .filter((e) => !e.isOutright && e.startMs > now + 3_600_000 && world.status(e) === 'prematch');
    // One pick per market kind (unmapped markets are one kind), plus each sign of alternate_line and a namesake.
    const picks = new Map<string, { ev: SportEvent; bookie: Bookie; market: string; row: Row }>();
    for (const ev of upcoming) {
      for (const bookie of BOOKIES) {
        if (!marketRefBettingEnabled(bookie) || !world.link(ev, bookie).linked) continue;
        for (const m of fullCard(world, ev, bookie)) {
          for (const s of m.selections) {
            if (!s.bettable) continue;
            const kinds = [m.tier === 'unmapped' ? 'unmapped' : m.market];
            if (m.market === 'alternate_line') kinds.push(`alternate_line ${(s.line as number) < 0 ? '-' : '+'}`);
            if (s.player?.endsWith(')')) kinds.push('namesake');
            for (const kind of kinds) if (!picks.has(kind)) picks.set(kind, { ev, bookie, market: m.market, row: s });
          }
        }
      }
    }
    expect(picks.size).toBeGreaterThan(30);
    expect([...picks.keys()]).toEqual(expect.arrayContaining(['alternate_line -', 'alternate_line +', 'namesake']));

    const placed = await Promise.all(
      [...picks].map(async ([kind, p]) => {
        const card = await get(sb.url, '/v3/markets', { epk: p.ev.epk, bookie: p.bookie, market: p.market });
        const shown: Row | undefined = card.body.markets[0]?.selections.find((s: Row) => s.slug === p.row.slug);
        const res = await post(sb.url, '/v3/place_bet', {
          session_id: SESSION[p.bookie],
          sport: p.ev.league,
          epk: p.ev.epk,
          market_ref: shown?.market_ref,
          stake: 1,
          target_odds: 1.01,
        });
        const job = await waitJob(sb.url, res.body.correlation_id);
        return { kind, shown, result: job.result };
      }),
    );
    for (const { kind, shown, result } of placed) {
      expect(shown, kind).toBeDefined();
      expect(result.success, `${kind}: ${result.error}`).toBe(true);
      expect(result.selection, kind).toBe(shown?.label);
      expect(result.market, kind).toBe(picks.get(kind)?.market);
      expect(result.line, kind).toBe(shown?.line);
      expect(Math.abs(result.odds - (shown?.odds as number)) / (shown?.odds as number), kind).toBeLessThan(0.05);
    }
  }, 120_000);
});
