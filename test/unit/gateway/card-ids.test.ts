// Issue 36: a card whose rows share a market_ref or a bettable proposition_id is ambiguous for those rows: the
// library's guard turns them unbettable, and the desk's catalog offers none of them and says so once per card.
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/bot/catalog/catalog.js';
import type { GatewayPort } from '../../../src/bot/gateway-port.js';
import { bettable } from '../../../src/bot/model/markets.js';
import type { BotStore } from '../../../src/bot/store/index.js';
import { guardCardIds, type MarketCard } from '../../../src/gateway/index.js';

const EPK = 'ice_hockey/us/nhl/florida_panthers_v_boston_bruins/2026-11-21';

/** The card: '−1.5' and '+1.5' sharing one market_ref and proposition id, two 'Hugo Silva' rows sharing one proposition id. */
function craftedCard(): MarketCard {
  const row = (label: string, odds: number, ids: { ref: string; prop: string }, line: number | null = null) => ({
    label,
    odds,
    line,
    player: null,
    slug: label.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
    market_ref: ids.ref,
    proposition_id: ids.prop,
    bettable: true,
  });
  return {
    epk: EPK,
    bookie: 'bookie_a',
    bound: true,
    market_ref_betting_enabled: true,
    n_markets: 3,
    n_selections: 7,
    n_bettable_selections: 7,
    markets: [
      {
        market: 'head_to_head',
        label: 'Head to Head',
        tier: 'popular',
        n_bettable: 2,
        selections: [
          row('Florida Panthers', 1.8, { ref: 'r-home', prop: 'p-home' }),
          row('Boston Bruins', 2.05, { ref: 'r-away', prop: 'p-away' }),
        ],
      },
      {
        market: 'alternate_line',
        label: 'Alternate Line',
        tier: 'other',
        n_bettable: 3,
        selections: [
          row('Florida Panthers -1.5', 2.27, { ref: 'r-home-1.5', prop: 'p-home-1.5' }, -1.5),
          row('Florida Panthers +1.5', 1.43, { ref: 'r-home-1.5', prop: 'p-home-1.5' }, 1.5),
          row('Boston Bruins +2.5', 1.3, { ref: 'r-away+2.5', prop: 'p-away+2.5' }, 2.5),
        ],
      },
      {
        market: 'anytime_goal_scorer',
        label: 'Anytime Goal Scorer',
        tier: 'other',
        n_bettable: 2,
        selections: [
          row('Hugo Silva', 3.4, { ref: 'r-silva-1', prop: 'p-silva' }),
          row('Hugo Silva', 5.5, { ref: 'r-silva-2', prop: 'p-silva' }),
        ],
      },
    ],
  } as MarketCard;
}

describe('guardCardIds', () => {
  it('turns every row that shares a market_ref or a bettable proposition_id unbettable, naming why, and leaves the rest', () => {
    const card = craftedCard();
    const before = structuredClone(card);
    const { card: guarded, clashes } = guardCardIds(card);
    expect(card).toEqual(before); // pure

    const line = guarded.markets[1]?.selections ?? [];
    expect(line.slice(0, 2).map((s) => [s.bettable, s.reason, s.market_ref])).toEqual([
      [false, 'ambiguous_market_ref', undefined],
      [false, 'ambiguous_market_ref', undefined],
    ]);
    expect(line[2]).toMatchObject({ bettable: true, market_ref: 'r-away+2.5' });
    const scorers = guarded.markets[2]?.selections ?? [];
    expect(scorers.map((s) => [s.bettable, s.reason, 'market_ref' in s])).toEqual([
      [false, 'ambiguous_proposition_id', false],
      [false, 'ambiguous_proposition_id', false],
    ]);
    expect(guarded.markets[0]?.selections.every((s) => s.bettable && typeof s.market_ref === 'string')).toBe(true);
    expect(guarded.markets.map((m) => m.n_bettable)).toEqual([2, 1, 0]);
    expect(guarded.n_bettable_selections).toBe(3);

    expect(clashes).toEqual([
      {
        reason: 'ambiguous_market_ref',
        id: 'r-home-1.5',
        rows: ['alternate_line: Florida Panthers -1.5', 'alternate_line: Florida Panthers +1.5'],
      },
      {
        reason: 'ambiguous_proposition_id',
        id: 'p-home-1.5',
        rows: ['alternate_line: Florida Panthers -1.5', 'alternate_line: Florida Panthers +1.5'],
      },
      {
        reason: 'ambiguous_proposition_id',
        id: 'p-silva',
        rows: ['anytime_goal_scorer: Hugo Silva', 'anytime_goal_scorer: Hugo Silva'],
      },
    ]);
  });

  it('does not count a shared proposition_id of unbettable rows, and returns a card without clashes as it is', () => {
    const card = craftedCard();
    const scorers = card.markets[2]?.selections ?? [];
    for (const s of scorers) {
      s.bettable = false;
      s.reason = 'ambiguous_proposition_id';
      delete s.market_ref;
    }
    const lines = card.markets[1]?.selections ?? [];
    lines.splice(1, 1);
    const out = guardCardIds(card);
    expect(out.clashes).toEqual([]);
    expect(out.card).toBe(card);
  });
});

describe('the catalog offers no row of a card whose ids are ambiguous', () => {
  function catalogOver(card: MarketCard) {
    const kv = new Map<string, unknown>();
    const store = {
      kv: {
        get: async (k: string) => kv.get(k),
        getRaw: async (k: string) => (kv.has(k) ? { value: kv.get(k) } : undefined),
        set: async (k: string, v: unknown) => void kv.set(k, v),
      },
    } as unknown as BotStore;
    let reads = 0;
    const gateway = {
      marketsLimiter: { windowMs: 60_000 },
      markets: {
        get: async () => {
          reads++;
          return structuredClone(card);
        },
      },
    } as unknown as GatewayPort;
    const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
    const catalog = new Catalog(gateway, store, { logger: { warn: (msg, fields) => warnings.push({ msg, fields }) } });
    return { catalog, kv, warnings, reads: () => reads };
  }

  it('offers neither side of the shared line nor either namesake, and logs the reason once per card', async () => {
    const { catalog, kv, warnings, reads } = catalogOver(craftedCard());
    const card = await catalog.loadCard(EPK, 'bookie_a');
    const offered = card.markets.map((m) => bettable(m).map((s) => s.label));
    expect(offered).toEqual([['Florida Panthers', 'Boston Bruins'], ['Boston Bruins +2.5'], []]);

    // The cached card expires (the store's copy and this process's memory of it): the same card is read again.
    kv.clear();
    catalog.hot.forget();
    await catalog.loadCard(EPK, 'bookie_a');
    expect(reads()).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/share an id.*not offered for betting/);
    expect(warnings[0]?.fields).toMatchObject({ epk: EPK, bookie: 'bookie_a' });
    expect(JSON.stringify(warnings[0]?.fields)).toContain('Florida Panthers +1.5');
  });
});
