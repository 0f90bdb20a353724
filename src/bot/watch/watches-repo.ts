import { createHash, randomBytes } from 'node:crypto';
import type { BotStore } from '../store/index.js';
import { hundredthsToOdds, oddsToHundredths, type PricePoint, type WatchRule } from './model/watch-rules.js';
import { EPISODE_MOVES, sqlState, sqlStates, WATCH_MOVES, WATCH_STATES } from './model/watch-states.js';

/** personal: the member's own (mentioned in the alerts channel, or sent by DM); server: the server's, for everyone. */
export type WatchScope = 'personal' | 'server';

/** Where a personal watch's alerts go: a channel of the server (with a mention), or the member's DMs. */
export type WatchDelivery = 'channel' | 'dm';

export interface Watch {
  watchId: string;
  guildId: string;
  userId: string;
  scope: WatchScope;
  /** channel: posted in `channelId` of the server; dm: `channelId` is the member's DM channel with the bot. */
  delivery: WatchDelivery;
  /** Where its alerts are posted. */
  channelId: string;
  epk: string;
  eventName: string;
  startsAt: number | null;
  /** The event's books when the watch was made (the cards read for it). */
  books: string[];
  market: string;
  /** The selection's slug (key across books); null: every selection of the market (value watches). */
  selection: string | null;
  selectionLabel: string | null;
  /** One book, or null for any of the event's books. */
  bookie: string | null;
  rule: WatchRule;
  createdAt: number;
}

interface WatchRow extends Record<string, unknown> {
  watch_id: string;
  guild_id: string;
  user_id: string;
  scope: string;
  channel_id: string;
  epk: string;
  event_name: string;
  starts_at: number | null;
  books: string;
  market: string;
  selection: string | null;
  selection_label: string | null;
  bookie: string | null;
  rule: string;
  created_at: number;
}

/**
 * The scope column also says how a personal watch is delivered: 'dm' is a personal watch sent by DM (no schema
 * change: the column is free text, and every query that means "personal" asks for `scope <> 'server'`).
 */
const SCOPE_DM = 'dm';
const scopeColumn = (w: Pick<Watch, 'scope' | 'delivery'>): string =>
  w.scope === 'server' ? 'server' : w.delivery === 'dm' ? SCOPE_DM : 'personal';

const toWatch = (r: WatchRow): Watch => ({
  watchId: r.watch_id,
  guildId: r.guild_id,
  userId: r.user_id,
  scope: r.scope === 'server' ? 'server' : 'personal',
  delivery: r.scope === SCOPE_DM ? 'dm' : 'channel',
  channelId: r.channel_id,
  epk: r.epk,
  eventName: r.event_name,
  startsAt: r.starts_at === null ? null : Number(r.starts_at),
  books: JSON.parse(r.books) as string[],
  market: r.market,
  selection: r.selection,
  selectionLabel: r.selection_label,
  bookie: r.bookie,
  rule: JSON.parse(r.rule) as WatchRule,
  createdAt: Number(r.created_at),
});

/** What an alert carries for its Bet button: the book and the price it saw, and where it was posted. */
export interface AlertPayload {
  watchId: string;
  epk: string;
  bookie: string;
  market: string;
  selection: string;
  /** The selection as members read it ("Sacramento Kings"); absent on alerts stored before it was kept. */
  selectionLabel?: string;
  marketRef: string | null;
  price: number;
  /**
   * The fair probability the alert showed (null: it showed none); absent on alerts stored before it was kept. The
   * Bet button's stake form sizes its suggestion from it, so the form agrees with the alert (decision 2136).
   */
  fairProbability?: number | null;
  /** Whom the alert is for (a personal watch's member); null: the server's. */
  userId: string | null;
}

export interface StoredAlert {
  alertId: string;
  guildId: string;
  channelId: string;
  payload: AlertPayload;
}

/** The read state of a watched card kept across processes (freshness in /watch list). */
export interface CardRead {
  epk: string;
  bookie: string;
  readAt: number;
  changedAt: number | null;
  digest: string;
}

/** An episode's id: its watch, what it is about (a book, or the steam of a selection) and its number. */
export const alertIdOf = (watchId: string, episodeKey: string, seq: number): string =>
  createHash('sha256').update(`${watchId}\0${episodeKey}\0${seq}`).digest('base64url').slice(0, 20);

const alertsChannelKey = (guildId: string) => `settings:watch-alerts-channel:${guildId}`;

/** Watches, their episodes and alerts, and what the watch reads saw; one atomic statement per operation. */
export class WatchRepo {
  constructor(
    private readonly store: BotStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds a watch (delivered in its channel unless `delivery` says DM). */
  async add(w: Omit<Watch, 'watchId' | 'createdAt' | 'delivery'> & { delivery?: WatchDelivery }): Promise<Watch> {
    const watch: Watch = {
      ...w,
      delivery: w.delivery ?? 'channel',
      watchId: randomBytes(6).toString('base64url'),
      createdAt: this.now(),
    };
    await this.store.query(
      `INSERT INTO watches (watch_id, guild_id, user_id, scope, channel_id, epk, event_name, starts_at, books, market,
         selection, selection_label, bookie, rule, state, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${sqlState(WATCH_MOVES.add.to)}, ?, ?)`,
      watch.watchId,
      watch.guildId,
      watch.userId,
      scopeColumn(watch),
      watch.channelId,
      watch.epk,
      watch.eventName,
      watch.startsAt,
      JSON.stringify(watch.books),
      watch.market,
      watch.selection,
      watch.selectionLabel,
      watch.bookie,
      JSON.stringify(watch.rule),
      watch.createdAt,
      watch.createdAt,
    );
    return watch;
  }

  /** The server's alerts channel (/watch alerts-channel), kept as a setting; undefined: none set. */
  async alertsChannel(guildId: string): Promise<string | undefined> {
    const id = await this.store.kv.get<string>(alertsChannelKey(guildId));
    return typeof id === 'string' ? id : undefined;
  }

  async setAlertsChannel(guildId: string, channelId: string): Promise<void> {
    await this.store.kv.set(alertsChannelKey(guildId), channelId);
  }

  async active(): Promise<Watch[]> {
    const rows = await this.store.query<WatchRow>(
      `SELECT * FROM watches WHERE state IN ${sqlStates(WATCH_STATES.active)} ORDER BY created_at`,
    );
    return rows.map(toWatch);
  }

  /** A member's own watches and the server's, in a server. */
  async listFor(guildId: string, userId: string): Promise<Watch[]> {
    const rows = await this.store.query<WatchRow>(
      `SELECT * FROM watches WHERE state IN ${sqlStates(WATCH_STATES.active)} AND guild_id = ? AND (user_id = ? OR scope = 'server')
       ORDER BY created_at`,
      guildId,
      userId,
    );
    return rows.map(toWatch);
  }

  async countFor(guildId: string, userId: string): Promise<number> {
    const rows = await this.store.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM watches WHERE state IN ${sqlStates(WATCH_STATES.active)} AND guild_id = ? AND user_id = ? AND scope <> 'server'`,
      guildId,
      userId,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Removes a watch its member owns (or, with `admin`, a server watch); the removed watch, if any. */
  async remove(guildId: string, watchId: string, userId: string, admin: boolean): Promise<Watch | undefined> {
    const rows = await this.store.query<WatchRow>(
      `UPDATE watches SET state = ${sqlState(WATCH_MOVES.remove.to)}, updated_at = ?
       WHERE watch_id = ? AND guild_id = ? AND state IN ${sqlStates(WATCH_MOVES.remove.from)}
         AND ((scope <> 'server' AND user_id = ?) OR (scope = 'server' AND ? = 1))
       RETURNING *`,
      this.now(),
      watchId,
      guildId,
      userId,
      admin ? 1 : 0,
    );
    return rows[0] ? toWatch(rows[0]) : undefined;
  }

  /** Open episodes of the watches, by `watchId\0key`, with their number. */
  async episodes(watchIds: readonly string[]): Promise<Map<string, { open: boolean; seq: number }>> {
    const out = new Map<string, { open: boolean; seq: number }>();
    for (let i = 0; i < watchIds.length; i += 500) {
      const ids = watchIds.slice(i, i + 500);
      if (ids.length === 0) continue;
      const rows = await this.store.query<{ watch_id: string; episode_key: string; state: string; seq: number }>(
        `SELECT watch_id, episode_key, state, seq FROM watch_episodes WHERE watch_id IN (${ids.map(() => '?').join(', ')})`,
        ...ids,
      );
      for (const r of rows)
        out.set(`${r.watch_id}\0${r.episode_key}`, {
          open: (WATCH_STATES.episodeOpen as readonly string[]).includes(String(r.state)),
          seq: Number(r.seq),
        });
    }
    return out;
  }

  /**
   * Records the alert of episode `seq` (once: a second call with the same episode changes nothing). Called before
   * the episode is opened, so a crash between the two repeats this call with the same id, never a second alert.
   */
  async recordAlert(alert: StoredAlert): Promise<boolean> {
    const rows = await this.store.query(
      `INSERT INTO watch_alerts (alert_id, watch_id, guild_id, channel_id, payload, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (alert_id) DO NOTHING RETURNING alert_id`,
      alert.alertId,
      alert.payload.watchId,
      alert.guildId,
      alert.channelId,
      JSON.stringify(alert.payload),
      this.now(),
    );
    return rows.length > 0;
  }

  async alert(alertId: string): Promise<StoredAlert | undefined> {
    const rows = await this.store.query<{ alert_id: string; guild_id: string; channel_id: string; payload: string }>(
      'SELECT alert_id, guild_id, channel_id, payload FROM watch_alerts WHERE alert_id = ?',
      alertId,
    );
    const r = rows[0];
    return r
      ? { alertId: r.alert_id, guildId: r.guild_id, channelId: r.channel_id, payload: JSON.parse(r.payload) }
      : undefined;
  }

  /** How many alerts each of the watches sent, and when its latest was recorded (none: not in the map). */
  async alertsOf(watchIds: readonly string[]): Promise<Map<string, { count: number; lastAt: number }>> {
    const out = new Map<string, { count: number; lastAt: number }>();
    for (let i = 0; i < watchIds.length; i += 500) {
      const ids = watchIds.slice(i, i + 500);
      const rows = await this.store.query<{ watch_id: string; n: number | string; last_at: number | string }>(
        `SELECT watch_id, COUNT(*) AS n, MAX(created_at) AS last_at FROM watch_alerts
         WHERE watch_id IN (${ids.map(() => '?').join(', ')}) GROUP BY watch_id`,
        ...ids,
      );
      for (const r of rows) out.set(r.watch_id, { count: Number(r.n), lastAt: Number(r.last_at) });
    }
    return out;
  }

  /** Opens episode `seq` of a watch (after its alert is recorded); a later number never goes back. */
  async openEpisode(watchId: string, key: string, seq: number): Promise<void> {
    const now = this.now();
    await this.store.query(
      `INSERT INTO watch_episodes (watch_id, episode_key, state, seq, opened_at, closed_at)
       VALUES (?, ?, ${sqlState(EPISODE_MOVES.open.to)}, ?, ?, NULL)
       ON CONFLICT (watch_id, episode_key) DO UPDATE SET state = ${sqlState(EPISODE_MOVES.open.to)}, seq = excluded.seq,
         opened_at = excluded.opened_at, closed_at = NULL
       WHERE watch_episodes.seq < excluded.seq`,
      watchId,
      key,
      seq,
      now,
    );
  }

  /** Ends an open episode: the next crossing may alert again. */
  async closeEpisode(watchId: string, key: string): Promise<void> {
    await this.store.query(
      `UPDATE watch_episodes SET state = ${sqlState(EPISODE_MOVES.close.to)}, closed_at = ?
       WHERE watch_id = ? AND episode_key = ? AND state IN ${sqlStates(EPISODE_MOVES.close.from)}`,
      this.now(),
      watchId,
      key,
    );
  }

  async cardReads(): Promise<CardRead[]> {
    const rows = await this.store.query<{
      epk: string;
      bookie: string;
      read_at: number;
      changed_at: number | null;
      digest: string;
    }>('SELECT epk, bookie, read_at, changed_at, digest FROM watch_cards');
    return rows.map((r) => ({
      epk: r.epk,
      bookie: r.bookie,
      readAt: Number(r.read_at),
      changedAt: r.changed_at === null ? null : Number(r.changed_at),
      digest: r.digest,
    }));
  }

  async saveCardRead(c: CardRead): Promise<void> {
    await this.store.query(
      `INSERT INTO watch_cards (epk, bookie, read_at, changed_at, digest) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (epk, bookie) DO UPDATE SET read_at = excluded.read_at, changed_at = excluded.changed_at,
         digest = excluded.digest`,
      c.epk,
      c.bookie,
      c.readAt,
      c.changedAt,
      c.digest,
    );
  }

  /** Records a watched selection's price as seen at a book (kept only when it differs from the last one seen). */
  async savePrice(q: { epk: string; bookie: string; market: string; selection: string }, p: PricePoint): Promise<void> {
    await this.store.query(
      `INSERT INTO watch_prices (epk, bookie, market, selection, seen_at, odds) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (epk, bookie, market, selection, seen_at) DO NOTHING`,
      q.epk,
      q.bookie,
      q.market,
      q.selection,
      p.at,
      oddsToHundredths(p.price),
    );
  }

  /** A selection's prices at a book seen since `since` plus the last one before it, oldest first. */
  async prices(
    q: { epk: string; bookie: string; market: string; selection: string },
    since: number,
  ): Promise<PricePoint[]> {
    const rows = await this.store.query<{ seen_at: number; odds: number }>(
      `SELECT seen_at, odds FROM watch_prices WHERE epk = ? AND bookie = ? AND market = ? AND selection = ?
         AND seen_at >= (SELECT CASE WHEN MAX(seen_at) IS NULL THEN ? ELSE MAX(seen_at) END FROM watch_prices
           WHERE epk = ? AND bookie = ? AND market = ? AND selection = ? AND seen_at <= ?)
       ORDER BY seen_at`,
      q.epk,
      q.bookie,
      q.market,
      q.selection,
      since,
      q.epk,
      q.bookie,
      q.market,
      q.selection,
      since,
    );
    return rows.map((r) => ({ at: Number(r.seen_at), price: hundredthsToOdds(Number(r.odds)) }));
  }
}
