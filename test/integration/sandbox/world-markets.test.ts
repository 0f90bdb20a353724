import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import type { SportEvent } from '../../../src/sandbox/world/sports.js';
import { BRAVO, boot, get, post, worldOf } from './world-helpers.js';

let sb: RunningSandbox;
let world: SimWorld;
beforeAll(async () => {
  sb = await boot();
  world = worldOf(sb);
});
afterAll(async () => {
  await sb?.close();
});

const card = (q: Record<string, string | boolean>, key?: string) => get(sb.url, '/v3/markets', q, key);
const TIER_ORDER = ['popular', 'other', 'unmapped'];

function findEvent(pred: (ev: SportEvent) => boolean): SportEvent {
  const ev = world.allEvents().find((e) => !e.isOutright && pred(e));
  if (!ev) throw new Error('no event in the world matches');
  return ev;
}
const linkedTo = (ev: SportEvent, bookie: string) => world.link(ev, bookie).linked;

describe('GET /v3/markets', () => {
  it('orders markets popular → other → unmapped, most bettable first, with market_ref only on bettable rows', async () => {
    const ev = findEvent((e) => e.league === 'nba' && linkedTo(e, 'bookie_a'));
    const res = await card({ epk: ev.epk, bookie: 'bookie_a' });
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b).toMatchObject({
      epk: ev.epk,
      bookie: 'bookie_a',
      bound: true,
      market_ref_betting_enabled: true,
      include_unbettable: false,
    });
    expect(b.n_selections).toBeGreaterThanOrEqual(50);
    expect(b.n_markets).toBe(b.markets.length);
    const tiers = b.markets.map((m: { tier: string }) => TIER_ORDER.indexOf(m.tier));
    expect([...tiers].sort((x, y) => x - y)).toEqual(tiers);
    expect(new Set(b.markets.map((m: { tier: string }) => m.tier))).toEqual(new Set(TIER_ORDER));
    for (let i = 1; i < b.markets.length; i++) {
      if (b.markets[i].tier === b.markets[i - 1].tier)
        expect(b.markets[i].n_bettable).toBeLessThanOrEqual(b.markets[i - 1].n_bettable);
    }
    let selections = 0;
    for (const m of b.markets) {
      for (const s of m.selections) {
        selections++;
        expect(s.bettable).toBe(true);
        expect(typeof s.market_ref).toBe('string');
        expect(typeof s.odds).toBe('number');
      }
    }
    expect(b.n_bettable_selections).toBe(selections);
    const h2h = b.markets.find((m: { market: string }) => m.market === 'head_to_head');
    expect(h2h).toMatchObject({ tier: 'popular', raw_market_name: 'Head To Head' });
    expect(b.markets.some((m: { market: string }) => m.market === 'points')).toBe(true);
  });

  it("names a football match's total in goals and its winning margin by a goal or two, not in points", async () => {
    const ev = findEvent((e) => e.sport === 'soccer' && linkedTo(e, 'bookie_a'));
    const res = await card({ epk: ev.epk, bookie: 'bookie_a', include_unbettable: true });
    expect(res.status).toBe(200);
    const markets = res.body.markets as Array<{
      market: string;
      label: string;
      raw_market_name?: string;
      selections: Array<{ label: string }>;
    }>;
    const total = markets.find((m) => m.market === 'total_points');
    expect(total).toMatchObject({ label: 'Total Goals', raw_market_name: 'Total Goals' });
    // Not every book deals its unnamed specials on every match: the first football card that has one.
    let margin: (typeof markets)[number] | undefined;
    for (const e of world.allEvents().filter((x) => !x.isOutright && x.sport === 'soccer')) {
      for (const bookie of ['bookie_a', 'bookie_b', 'bookie_c']) {
        if (margin || !linkedTo(e, bookie)) continue;
        const c = (await card({ epk: e.epk, bookie, include_unbettable: true })).body.markets as typeof markets;
        margin = c.find((m) => m.label.includes('Winning Margin'));
      }
      if (margin) break;
    }
    expect(margin?.selections.map((s) => s.label.replace(/^.* by /, ''))).toEqual(['1', '2+', '1', '2+']);
    const nba = findEvent((e) => e.league === 'nba' && linkedTo(e, 'bookie_a'));
    const points = (await card({ epk: nba.epk, bookie: 'bookie_a', include_unbettable: true })).body
      .markets as typeof markets;
    expect(points.find((m) => m.market === 'total_points')?.label).toBe('Total Points');
  });

  it('shows unbettable rows (with a reason, no market_ref) and empty markets only with include_unbettable=true', async () => {
    const ev = findEvent((e) => e.league === 'afl' && linkedTo(e, 'bookie_c'));
    const hidden = await card({ epk: ev.epk, bookie: 'bookie_c' });
    const shown = await card({ epk: ev.epk, bookie: 'bookie_c', include_unbettable: true });
    expect(shown.body.include_unbettable).toBe(true);
    expect(shown.body.n_selections).toBeGreaterThan(hidden.body.n_selections);
    expect(shown.body.n_bettable_selections).toBe(hidden.body.n_bettable_selections);
    const rows = shown.body.markets.flatMap((m: { selections: unknown[] }) => m.selections);
    const unbettable = rows.filter((s: { bettable: boolean }) => !s.bettable);
    expect(unbettable.length).toBeGreaterThan(0);
    for (const s of unbettable) {
      expect(['no_proposition_id', 'ambiguous_proposition_id']).toContain(s.reason);
      expect(s.market_ref).toBeUndefined();
    }
    const names = (body: { markets: { market: string }[] }) => body.markets.map((m) => m.market);
    expect(names(hidden.body)).not.toContain('same_game_specials');
    expect(names(shown.body)).toContain('same_game_specials');
  });

  it('filters by tier and by market', async () => {
    const ev = findEvent((e) => e.league === 'nba' && linkedTo(e, 'bookie_a'));
    const other = await card({ epk: ev.epk, bookie: 'bookie_a', tier: 'other' });
    expect(other.body.filters).toEqual({ tier: 'other', market: null, include_unbettable: false });
    expect(other.body.markets.length).toBeGreaterThan(0);
    expect(other.body.markets.every((m: { tier: string }) => m.tier === 'other')).toBe(true);
    const one = await card({ epk: ev.epk, bookie: 'bookie_a', market: 'total_points' });
    expect(one.body.markets.map((m: { market: string }) => m.market)).toEqual(['total_points']);
  });

  it('answers 422 with valid_tiers for an unknown tier, 404 for an unknown epk, 400 without epk or bookie', async () => {
    const ev = findEvent((e) => linkedTo(e, 'bookie_a'));
    const tier = await card({ epk: ev.epk, bookie: 'bookie_a', tier: 'gold' });
    expect(tier.status).toBe(422);
    expect(tier.body.valid_tiers).toEqual(TIER_ORDER);
    const unknown = await card({ epk: 'basketball/us/nba/nobody_v_noone/2026-11-21', bookie: 'bookie_a' });
    expect(unknown.status).toBe(404);
    const noEpk = await card({ bookie: 'bookie_a' });
    expect([noEpk.status, noEpk.body.field]).toEqual([400, 'epk']);
    const noBook = await card({ epk: ev.epk });
    expect([noBook.status, noBook.body.field]).toEqual([400, 'bookie']);
  });

  it('answers bound false with no markets for a book not on the event, and market_ref_betting_enabled false for bookie_b', async () => {
    const ev = findEvent((e) => e.links.length > 0 && !e.links.some((l) => l.bookie === 'bookie_b'));
    const res = await card({ epk: ev.epk, bookie: 'bookie_b' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ bound: false, markets: [], n_markets: 0, market_ref_betting_enabled: false });
  });

  it('checks a caller site_event_id: confirmed, conflict, no_card and unbound', async () => {
    const now = world.nowMs();
    const [e1, e2] = world.allEvents().filter((e) => !e.isOutright && linkedTo(e, 'bookie_a'));
    const id1 = (world.link(e1!, 'bookie_a') as { siteEventId: string }).siteEventId;
    const id2 = (world.link(e2!, 'bookie_a') as { siteEventId: string }).siteEventId;

    const confirmed = await card({ epk: e1!.epk, bookie: 'bookie_a', site_event_id: id1 });
    expect(confirmed.body).toMatchObject({
      site_event_id_source: 'caller',
      site_event_id_check: 'confirmed',
      spine_site_event_id: id1,
      bound: true,
    });
    expect(confirmed.body.markets.length).toBeGreaterThan(0);

    const conflict = await card({ epk: e1!.epk, bookie: 'bookie_a', site_event_id: id2 });
    expect(conflict.body).toMatchObject({ site_event_id_check: 'conflict', spine_site_event_id: id1, markets: [] });

    const noCard = await card({ epk: e1!.epk, bookie: 'bookie_a', site_event_id: 'A-99999999x' });
    expect(noCard.body).toMatchObject({ site_event_id_check: 'no_card', markets: [] });

    const late = findEvent((e) => e.links.some((l) => l.linkedFromMs > now));
    const pending = late.links.find((l) => l.linkedFromMs > now)!;
    const plain = await card({ epk: late.epk, bookie: pending.bookie });
    expect(plain.body).toMatchObject({ bound: false, markets: [], site_event_id: null });
    const unbound = await card({ epk: late.epk, bookie: pending.bookie, site_event_id: pending.siteEventId });
    expect(unbound.body).toMatchObject({
      bound: false,
      site_event_id: pending.siteEventId,
      site_event_id_check: 'unbound',
      spine_site_event_id: null,
    });
    expect(unbound.body.markets.length).toBeGreaterThan(0);
  });

  it('serves the demo key a sample card of the same shape', async () => {
    const ev = findEvent((e) => linkedTo(e, 'bookie_a'));
    const res = await card({ epk: ev.epk, bookie: 'bookie_a' }, 'demo-key');
    expect(res.status).toBe(200);
    expect(res.body.sandbox).toBe(true);
    expect(res.body.markets.length).toBeGreaterThan(0);
    expect(res.headers['x-service-sandbox']).toBe('1');
  });

  it('answers 429 with Retry-After after 120 card reads in a minute, and serves again once the minute has passed', async () => {
    const ev = findEvent((e) => linkedTo(e, 'bookie_a'));
    const q = { epk: ev.epk, bookie: 'bookie_a', market: 'head_to_head' };
    for (let i = 0; i < 120; i++) {
      const res = await card(q, BRAVO);
      expect(res.status).toBe(200);
    }
    const limited = await card(q, BRAVO);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another key is not limited by bravo's reads.
    expect((await card(q)).status).toBe(200);
    await post(sb.url, '/_sandbox/clock/advance', { ms: 61_000 });
    expect((await card(q, BRAVO)).status).toBe(200);
  });
});
