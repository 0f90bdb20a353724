import { MOVES_MAX_WINDOW_MINUTES } from './model/watch-rules.js';
import { sqlStates, WATCH_STATES } from './model/watch-states.js';

/** The store's one-statement call (BotStore.query; named here so this file and types.ts do not import each other). */
interface Sql {
  query<T extends Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
}

/** A removed watch's prices stay this long: the watch engine forgets a selection's last price once no watch covers it. */
export const REMOVED_WATCH_PRICES_MS = 60 * 60_000;
/** The longest stretch of price history any watch reads: a moves watch's window (the last price before it is kept too). */
export const WATCH_PRICE_HISTORY_MS = MOVES_MAX_WINDOW_MINUTES * 60_000;
/**
 * A watch reads prices only before its event starts (the start it was made with): after that plus this margin its
 * event's prices and card reads go.
 */
export const STARTED_EVENT_PRICES_MS = WATCH_PRICE_HISTORY_MS;
/**
 * Events a server's league rule covers have no watch row: they go by the date ending their event key (the spec's
 * `…/{date}`): a date before the day of now minus two days started at least 34 hours ago in any time zone.
 */
export const UNNAMED_EVENT_DAYS = 2;

/** The store's sweep runs every minute; its watch part at most this often (the statements below scan the history). */
export const WATCH_SWEEP_EVERY_MS = 15 * 60_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Of the leagues a server rule covers now (or covered within the removal grace), as LIKE patterns on event keys. */
async function leaguePatterns(store: Sql, graceCut: number): Promise<string[]> {
  const rows = await store.query<{ rule: string }>(
    `SELECT rule FROM watches WHERE epk = '' AND (state IN ${sqlStates(WATCH_STATES.active)} OR updated_at > ?)`,
    graceCut,
  );
  const leagues = new Set<string>();
  for (const r of rows) {
    try {
      const rule = JSON.parse(r.rule) as { kind?: unknown; leagues?: unknown };
      if (rule.kind === 'league' && Array.isArray(rule.leagues))
        for (const l of rule.leagues) if (typeof l === 'string' && l !== '') leagues.add(l);
    } catch {
      // A rule that does not parse covers nothing the sweep can name.
    }
  }
  // `_` in a key matches any one character: a pattern may keep a few rows more, never fewer.
  return [...leagues].sort().map((l) => `%/${l}/%`);
}

/**
 * The watch engine's price history and card reads, trimmed to what a watch can still read. Episodes and alert
 * records are never swept: a restart must not open an episode's alert again, and an alert's Bet button reads its row.
 *
 * 1. Prices of removed watches: rows of an event and market that a watch removed over an hour ago named and no
 *    watch active (or removed within the hour) names, unless a server rule covers the event's league.
 * 2. Started events: an event no active watch still before its start (plus STARTED_EVENT_PRICES_MS) names, that a
 *    watch started that long ago names, or whose key's date is UNNAMED_EVENT_DAYS days past; prices and card reads.
 * 3. History older than WATCH_PRICE_HISTORY_MS, keeping each selection's last price before then (where a moves
 *    window and the alert's "before" price start).
 */
export async function sweepWatches(store: Sql, now: number): Promise<void> {
  const graceCut = now - REMOVED_WATCH_PRICES_MS;
  const patterns = await leaguePatterns(store, graceCut);
  await store.query(
    `DELETE FROM watch_prices
     WHERE (epk, market) IN (SELECT epk, market FROM watches WHERE state NOT IN ${sqlStates(WATCH_STATES.active)} AND updated_at <= ?)
       AND (epk, market) NOT IN (SELECT epk, market FROM watches WHERE state IN ${sqlStates(WATCH_STATES.active)} OR updated_at > ?)
       ${patterns.map(() => 'AND epk NOT LIKE ?').join(' ')}`,
    graceCut,
    graceCut,
    ...patterns,
  );
  const startCut = now - STARTED_EVENT_PRICES_MS;
  const dayCut = dayOf(now - UNNAMED_EVENT_DAYS * 86_400_000);
  for (const table of ['watch_prices', 'watch_cards']) {
    await store.query(
      `DELETE FROM ${table}
       WHERE epk NOT IN (SELECT epk FROM watches WHERE state IN ${sqlStates(WATCH_STATES.active)} AND (starts_at IS NULL OR starts_at > ?))
         AND (epk IN (SELECT epk FROM watches WHERE starts_at IS NOT NULL AND starts_at <= ?)
           OR (epk LIKE '%/____-__-__' AND substr(epk, length(epk) - 9) < ?))`,
      startCut,
      startCut,
      dayCut,
    );
  }
  const historyCut = now - WATCH_PRICE_HISTORY_MS;
  await store.query(
    `DELETE FROM watch_prices WHERE seen_at < ? AND EXISTS (
       SELECT 1 FROM watch_prices AS newer WHERE newer.epk = watch_prices.epk AND newer.bookie = watch_prices.bookie
         AND newer.market = watch_prices.market AND newer.selection = watch_prices.selection
         AND newer.seen_at > watch_prices.seen_at AND newer.seen_at <= ?)`,
    historyCut,
    historyCut,
  );
}

/** The watch wing's part of the store's sweep (registered by the composition: the store knows no wing's tables). */
export const WATCH_SWEEP = { name: 'watches', everyMs: WATCH_SWEEP_EVERY_MS, run: sweepWatches } as const;
