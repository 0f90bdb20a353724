// The store's sweep of the watch engine's price history and card reads (src/bot/watch/sweep-watches.ts), on SQLite and
// PostgreSQL: rows of removed watches and of started events go, the moves window's history stays, episodes and
// alert records stay. The clock is pinned: every row's time is a distance from NOW.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import type { WatchRule } from '../../../src/bot/watch/model/watch-rules.js';
import {
  REMOVED_WATCH_PRICES_MS,
  STARTED_EVENT_PRICES_MS,
  WATCH_PRICE_HISTORY_MS,
  WATCH_SWEEP,
  WATCH_SWEEP_EVERY_MS,
} from '../../../src/bot/watch/sweep-watches.js';
import { alertIdOf, type Watch, WatchRepo } from '../../../src/bot/watch/watches-repo.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const H = 3_600_000;
const PRICE: WatchRule = { kind: 'price', target: 3, direction: 'above' };

// Event keys in the spec's format; the date at the end is the event's day.
const LIVE = 'soccer/england/epl/arsenal_v_chelsea/2026-03-11';
const REMOVED = 'soccer/england/epl/everton_v_fulham/2026-03-11';
const RECENTLY_REMOVED = 'soccer/england/epl/leeds_v_wolves/2026-03-11';
const LEAGUE_COVERED = 'rugby_league/australia/nrl/storm_v_broncos/2026-03-11';
const STARTED = 'soccer/england/epl/spurs_v_villa/2026-03-10';
const JUST_STARTED = 'soccer/england/epl/brighton_v_burnley/2026-03-10';
const OLD_UNNAMED = 'basketball/usa/nba/lakers_v_celtics/2026-03-07';
const RECENT_UNNAMED = 'basketball/usa/nba/knicks_v_nets/2026-03-08';
const NO_DATE = 'custom/event-without-a-date';

describe.each(ENGINES)('the watch sweep on %s', (engine) => {
  let store: BotStore;
  let cleanup: () => void;
  let clock = NOW;
  let repo: WatchRepo;
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    // The composition registers the watch wing's sweep at start; here the test does.
    store.registerSweep(WATCH_SWEEP);
    clock = NOW;
    repo = new WatchRepo(store, () => clock);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  const watch = (epk: string, market: string, startsAt: number | null, rule: WatchRule = PRICE) =>
    repo.add({
      guildId: 'g1',
      userId: 'u1',
      scope: 'personal',
      channelId: 'c1',
      epk,
      eventName: epk,
      startsAt,
      books: ['bookie_a', 'bookie_b'],
      market,
      selection: 'home',
      selectionLabel: 'Home',
      bookie: null,
      rule,
    });
  const removeAt = async (w: Watch, at: number) => {
    clock = at;
    expect(await repo.remove('g1', w.watchId, 'u1', false)).toBeDefined();
    clock = NOW;
  };
  const price = (epk: string, market: string, at: number, odds = 2.5, selection = 'home') =>
    repo.savePrice({ epk, bookie: 'bookie_a', market, selection }, { at, price: odds });
  const priceRows = async () =>
    (
      await store.query<{ epk: string; market: string; seen_at: number }>(
        'SELECT epk, market, seen_at FROM watch_prices',
      )
    )
      .map((r) => `${r.epk} ${r.market} ${NOW - Number(r.seen_at)}`)
      .sort();
  const cardEpks = async () =>
    // Sorted here: the engines' collations order text differently.
    (await store.query<{ epk: string }>('SELECT DISTINCT epk FROM watch_cards')).map((r) => r.epk).sort();
  const row = (epk: string, market: string, ago: number) => `${epk} ${market} ${ago}`;

  it('deletes the prices of a watch removed over the grace, keeping those another live watch or a league rule needs', async () => {
    // One event, two markets: the removed watch's market goes, the live watch's stays.
    await watch(REMOVED, 'head_to_head', NOW + 30 * H);
    await removeAt(await watch(REMOVED, 'totals', NOW + 30 * H), NOW - REMOVED_WATCH_PRICES_MS - 60_000);
    await price(REMOVED, 'head_to_head', NOW - H);
    await price(REMOVED, 'totals', NOW - H);
    // Removed inside the grace: the engine may not have seen the removal yet.
    await removeAt(await watch(RECENTLY_REMOVED, 'head_to_head', NOW + 30 * H), NOW - REMOVED_WATCH_PRICES_MS + 60_000);
    await price(RECENTLY_REMOVED, 'head_to_head', NOW - H);
    // Removed long ago, but a server rule covers its league: the rule reads every market of the event.
    await removeAt(await watch(LEAGUE_COVERED, 'head_to_head', NOW + 30 * H), NOW - 3 * H);
    await price(LEAGUE_COVERED, 'head_to_head', NOW - H);
    await repo.add({
      guildId: 'g1',
      userId: 'admin',
      scope: 'server',
      channelId: 'alerts',
      epk: '',
      eventName: 'NRL',
      startsAt: null,
      books: [],
      market: '',
      selection: null,
      selectionLabel: null,
      bookie: null,
      rule: { kind: 'league', leagues: ['nrl'], edgePct: 3, horizonMs: 24 * H },
    });

    await store.sweep(NOW);

    expect(await priceRows()).toEqual(
      [
        row(RECENTLY_REMOVED, 'head_to_head', H),
        row(REMOVED, 'head_to_head', H),
        row(LEAGUE_COVERED, 'head_to_head', H),
      ].sort(),
    );
  });

  it('deletes prices and card reads of events that started, by the watches that name them or by the date in the key', async () => {
    await watch(LIVE, 'head_to_head', NOW + 30 * H);
    await watch(STARTED, 'head_to_head', NOW - STARTED_EVENT_PRICES_MS - 60_000);
    await watch(JUST_STARTED, 'head_to_head', NOW - STARTED_EVENT_PRICES_MS + 60_000);
    for (const epk of [LIVE, STARTED, JUST_STARTED, OLD_UNNAMED, RECENT_UNNAMED, NO_DATE]) {
      await price(epk, 'head_to_head', NOW - H);
      await repo.saveCardRead({ epk, bookie: 'bookie_a', readAt: NOW - H, changedAt: null, digest: 'd' });
    }

    await store.sweep(NOW);

    // OLD_UNNAMED's day is before 2026-03-08 (two days before NOW's); RECENT_UNNAMED's is that day.
    const kept = [JUST_STARTED, LIVE, NO_DATE, RECENT_UNNAMED].sort();
    expect(await cardEpks()).toEqual(kept);
    expect(await priceRows()).toEqual(kept.map((epk) => row(epk, 'head_to_head', H)));
  });

  it("keeps a live selection's history inside the moves window and the last price before it, nothing older", async () => {
    await watch(LIVE, 'head_to_head', NOW + 30 * H);
    const before = WATCH_PRICE_HISTORY_MS;
    for (const ago of [before + 3 * H, before + 2 * H, before + H, H / 2]) await price(LIVE, 'head_to_head', NOW - ago);
    // Another selection with one old price only: its last price is all it has, so it stays.
    await price(LIVE, 'head_to_head', NOW - before - 5 * H, 4, 'away');

    await store.sweep(NOW);

    const rows = await store.query<{ selection: string; seen_at: number }>(
      'SELECT selection, seen_at FROM watch_prices',
    );
    expect(rows.map((r) => `${r.selection} ${NOW - Number(r.seen_at)}`).sort()).toEqual(
      [`away ${before + 5 * H}`, `home ${before + H}`, `home ${H / 2}`].sort(),
    );
    // What a moves watch over the longest window reads: the price when the window opened, and the move since.
    expect(
      (
        await repo.prices({ epk: LIVE, bookie: 'bookie_a', market: 'head_to_head', selection: 'home' }, NOW - before)
      ).map((p) => NOW - p.at),
    ).toEqual([before + H, H / 2]);
  });

  it("sweeps the watch rows at most once per WATCH_SWEEP_EVERY_MS (the store's sweep itself runs every minute)", async () => {
    await store.sweep(NOW);
    await removeAt(await watch(REMOVED, 'totals', NOW + 30 * H), NOW - REMOVED_WATCH_PRICES_MS - 60_000);
    await price(REMOVED, 'totals', NOW - H);
    await store.sweep(NOW + WATCH_SWEEP_EVERY_MS - 60_000);
    expect(await priceRows()).toEqual([row(REMOVED, 'totals', H)]);
    await store.sweep(NOW + WATCH_SWEEP_EVERY_MS);
    expect(await priceRows()).toEqual([]);
  });

  it('keeps the episodes and alert records of removed watches and started events (exactly once across restarts)', async () => {
    const removed = await watch(REMOVED, 'head_to_head', NOW + 30 * H);
    const started = await watch(STARTED, 'head_to_head', NOW - STARTED_EVENT_PRICES_MS - H);
    for (const w of [removed, started]) {
      const alertId = alertIdOf(w.watchId, 'bookie_a', 1);
      await repo.recordAlert({
        alertId,
        guildId: 'g1',
        channelId: 'c1',
        payload: {
          watchId: w.watchId,
          epk: w.epk,
          bookie: 'bookie_a',
          market: 'head_to_head',
          selection: 'home',
          marketRef: null,
          price: 3,
          userId: 'u1',
        },
      });
      await repo.openEpisode(w.watchId, 'bookie_a', 1);
      await price(w.epk, 'head_to_head', NOW - 2 * H);
    }
    await removeAt(removed, NOW - 2 * REMOVED_WATCH_PRICES_MS);

    await store.sweep(NOW);

    expect(await priceRows()).toEqual([]);
    const episodes = await repo.episodes([removed.watchId, started.watchId]);
    expect([...episodes.values()]).toEqual([
      { open: true, seq: 1 },
      { open: true, seq: 1 },
    ]);
    for (const w of [removed, started]) expect(await repo.alert(alertIdOf(w.watchId, 'bookie_a', 1))).toBeDefined();
  });
});
