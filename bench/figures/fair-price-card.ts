// Figure 19: the fair price and edge of every selection of a 300-selection card priced at three books (margin
// removed per book, equal-weight consensus, edge at each of the card's prices), pure computation as the slip and
// /compare run it. p95 of repeated runs against the 5 ms target.
import { availableParallelism, loadavg } from 'node:os';
import { fairPricesOfCard } from '../../src/bot/catalog/model/card-fair.js';
import { edgeOf, type MarginMethod } from '../../src/bot/model/fair-price.js';
import type { MarketCard } from '../../src/gateway/index.js';
import { createRng } from '../../src/sandbox/core/rng.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { median, percentile } from '../lib/stats.js';

const BOOKS = ['bookie_a', 'bookie_b', 'bookie_c'];
const SELECTIONS = 300;
const RUNS = 400;

/** A card shape like the sandbox's: a head-to-head, handicap and total lines, player over/unders, scorer lists. */
function threeCards(): Map<string, MarketCard> {
  const rng = createRng(19);
  type Sel = { slug: string; fair: number; line: number | null; player: string | null };
  const markets: Array<{ market: string; sels: Sel[] }> = [];
  const pair = (market: string, i: number, line: number, player: string | null): Sel[] => {
    const p = 0.3 + rng() * 0.4;
    return [
      { slug: `${market}_${i}_over`, fair: p, line, player },
      { slug: `${market}_${i}_under`, fair: 1 - p, line, player },
    ];
  };
  markets.push({
    market: 'head_to_head',
    sels: [
      { slug: 'home', fair: 0.45, line: null, player: null },
      { slug: 'draw', fair: 0.25, line: null, player: null },
      { slug: 'away', fair: 0.3, line: null, player: null },
    ],
  });
  // Totals at many lines in one market, player over/unders in five prop markets, and one 20-runner scorer list
  // (one-sided outcomes: never a complete market, as on the sandbox's cards).
  const rows = new Map<string, Sel[]>();
  rows.set(
    'first_scorer',
    Array.from({ length: 20 }, (_, i) => ({ slug: `scorer_${i}`, fair: 0.05, line: 1, player: `p${i}` })),
  );
  let n = 3 + 20;
  for (let i = 0; n < SELECTIONS; i++) {
    const market = i % 3 === 0 ? 'total_points' : `player_prop_${i % 5}`;
    const sels = market === 'total_points' ? pair(market, i, 40.5 + i, null) : pair(market, i, 20.5, `player ${i}`);
    rows.set(market, [...(rows.get(market) ?? []), ...sels]);
    n += sels.length;
  }
  for (const [market, sels] of rows) markets.push({ market, sels });
  return new Map(
    BOOKS.map((bookie) => [
      bookie,
      {
        epk: 'soccer/bench/home_v_away/2026-01-01',
        bookie,
        bound: true,
        market_ref_betting_enabled: true,
        markets: markets.map((m) => ({
          market: m.market,
          label: m.market,
          tier: 'popular',
          selections: m.sels.map((s) => ({
            label: s.slug,
            slug: s.slug,
            line: s.line,
            player: s.player,
            // Each book's margin (4–7%) and its own noise on the fair price.
            odds: Math.round((100 / (s.fair * (1.04 + rng() * 0.03) * (0.97 + rng() * 0.06))) * 1) / 100,
            market_ref: `${bookie}:${s.slug}`,
            bettable: true,
          })),
        })),
      } as MarketCard,
    ]),
  );
}

function runOnce(cards: Map<string, MarketCard>, method: MarginMethod): number {
  const fair = fairPricesOfCard(cards, 'bookie_a', method);
  let priced = 0;
  for (const m of cards.get('bookie_a')?.markets ?? []) {
    for (const s of m.selections) {
      const f = fair.get(s.market_ref ?? '');
      if (f?.kind === 'fair' && typeof s.odds === 'number') {
        edgeOf(f.probability, s.odds);
        priced++;
      }
    }
  }
  return priced;
}

export async function fairPriceCard(): Promise<FigureResult[]> {
  const cards = threeCards();
  const selections = cards.get('bookie_a')?.markets.reduce((a, m) => a + m.selections.length, 0) ?? 0;
  const out: FigureResult[] = [];
  for (const method of ['multiplicative', 'shin'] as const) {
    for (let i = 0; i < 50; i++) runOnce(cards, method); // warm the JIT
    const times: number[] = [];
    let priced = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      priced = runOnce(cards, method);
      times.push(performance.now() - t0);
    }
    out.push(
      figure({
        name: `19 fair price and edge, ${selections}-selection card at 3 books, p95 (${method})`,
        value: percentile(times, 95),
        unit: 'ms',
        baseline: null,
        target: { on: 'value', op: '<', limit: 5 },
        note: `${RUNS} runs after 50 warm-up; ${priced} of ${selections} selections in a complete market; p50 ${median(times).toFixed(3)} ms, max ${Math.max(...times).toFixed(3)} ms; wall time, load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
      }),
    );
  }
  return out;
}
