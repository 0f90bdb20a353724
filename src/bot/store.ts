import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';

/**
 * keyv carries only what tolerates last-write-wins (guild settings, caches). Everything that must
 * happen once lives in tables of its own on the same connection, one atomic statement per operation.
 */
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS slips (
     slip_id TEXT PRIMARY KEY, guild_id TEXT, channel_id TEXT NOT NULL, message_id TEXT,
     user_id TEXT NOT NULL, payload TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS slips_expiry ON slips(expires_at)`,
  `CREATE TABLE IF NOT EXISTS jobs (
     correlation_id TEXT PRIMARY KEY, kind TEXT NOT NULL, guild_id TEXT, channel_id TEXT, message_id TEXT,
     user_id TEXT, session_id TEXT, envelope TEXT NOT NULL, context TEXT NOT NULL, state TEXT NOT NULL,
     outcome TEXT, owner TEXT, lease_until INTEGER NOT NULL DEFAULT 0, timeout_at INTEGER,
     created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, lease_until)`,
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (
     correlation_id TEXT PRIMARY KEY, body TEXT NOT NULL, received_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS posts (post_key TEXT PRIMARY KEY, posted_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS bets (
     bet_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, guild_id TEXT, channel_id TEXT, user_id TEXT,
     correlation_id TEXT, detail TEXT NOT NULL, state TEXT NOT NULL, placed_at INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS bets_open ON bets(state, session_id)`,
  `CREATE TABLE IF NOT EXISTS stake_usage (
     guild_id TEXT NOT NULL, user_id TEXT NOT NULL, day TEXT NOT NULL, total REAL NOT NULL,
     PRIMARY KEY (guild_id, user_id, day))`,
  // A bet's life (docs/reliability.md): written when Confirm claims the slip, before place_bet leaves.
  // The day's stake hold is derived from the states, so a release is a state change and happens once.
  `CREATE TABLE IF NOT EXISTS bet_records (
     placement_id TEXT PRIMARY KEY, slip_id TEXT NOT NULL UNIQUE, guild_key TEXT NOT NULL, guild_id TEXT,
     channel_id TEXT NOT NULL, message_id TEXT, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
     bookie TEXT NOT NULL, epk TEXT, market_key TEXT, day TEXT NOT NULL, stake_cents INTEGER NOT NULL,
     payload TEXT NOT NULL,
     state TEXT NOT NULL, correlation_id TEXT, timeout_at INTEGER, bet_id TEXT UNIQUE, odds REAL,
     note TEXT, settled_status TEXT, pnl REAL, misses INTEGER NOT NULL DEFAULT 0,
     close_odds REAL, close_market TEXT, close_at INTEGER,
     created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS bet_records_state ON bet_records(state, session_id)`,
  `CREATE INDEX IF NOT EXISTS bet_records_day ON bet_records(guild_key, user_id, day)`,
  `CREATE INDEX IF NOT EXISTS bet_records_correlation ON bet_records(correlation_id)`,
  // Every Discord write that reports money: recorded first, retried until Discord accepts it.
  `CREATE TABLE IF NOT EXISTS outbox (
     outbox_key TEXT PRIMARY KEY, kind TEXT NOT NULL, channel_id TEXT NOT NULL, message_id TEXT,
     body TEXT NOT NULL, rank INTEGER NOT NULL, nonce TEXT, state TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL, lease_until INTEGER NOT NULL DEFAULT 0,
     last_error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS outbox_due ON outbox(state, next_at)`,
  // The syndicate's ledger: append-only, each entry holding the SHA-256 of the one before (src/bot/ledger.ts).
  `CREATE TABLE IF NOT EXISTS ledger (
     seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, guild_key TEXT NOT NULL, kind TEXT NOT NULL, ref TEXT NOT NULL,
     actor TEXT, amount_cents INTEGER, data TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS ledger_guild_at ON ledger(guild_key, at)`,
  // Slips above the approval tier: each holds its stake against the caps while open (src/bot/approvals.ts).
  `CREATE TABLE IF NOT EXISTS proposals (
     proposal_id TEXT PRIMARY KEY, slip_id TEXT NOT NULL UNIQUE, guild_key TEXT NOT NULL, guild_id TEXT,
     channel_id TEXT NOT NULL, message_id TEXT, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
     bookie TEXT NOT NULL, epk TEXT NOT NULL, market_key TEXT NOT NULL, market_ref TEXT NOT NULL,
     day TEXT NOT NULL, stake_cents INTEGER NOT NULL, shown_odds REAL NOT NULL, needed INTEGER NOT NULL,
     round INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL, note TEXT, reminded INTEGER NOT NULL DEFAULT 0,
     remind_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS proposals_state ON proposals(state, expires_at)`,
  `CREATE INDEX IF NOT EXISTS proposals_scope ON proposals(guild_key, epk, market_key)`,
  // One approval per member per price round of a proposal; a lapsed round's approvals stay as they were.
  `CREATE TABLE IF NOT EXISTS approvals (
     proposal_id TEXT NOT NULL, round INTEGER NOT NULL, approver_id TEXT NOT NULL, odds REAL NOT NULL,
     created_at INTEGER NOT NULL, PRIMARY KEY (proposal_id, round, approver_id))`,
  // Signed deliveries whose shape is wrong for their job: kept for a person to look at, never applied.
  `CREATE TABLE IF NOT EXISTS quarantined_deliveries (
     digest TEXT PRIMARY KEY, correlation_id TEXT NOT NULL, reason TEXT NOT NULL, body TEXT NOT NULL,
     received_at INTEGER NOT NULL)`,
];

/** Columns added after their table first shipped: added to an older store when missing. */
const ADDED_COLUMNS: Array<[table: string, column: string, type: string]> = [
  ['bet_records', 'epk', 'TEXT'],
  ['bet_records', 'market_key', 'TEXT'],
];
const AFTER_COLUMNS = [`CREATE INDEX IF NOT EXISTS bet_records_event ON bet_records(guild_key, epk, market_key)`];

export type Row = Record<string, unknown>;

/** A store call made after close(): work still running while the bot stops. */
export class StoreClosedError extends Error {
  override name = 'StoreClosedError';
  constructor() {
    super('the bot store is closed; this work was still running when the bot stopped');
  }
}

export interface BotStore {
  /** last-write-wins values: settings and caches (namespaced keys, JSON values). */
  readonly kv: Keyv;
  /** One SQL statement on the shared connection; rows for SELECT/RETURNING. */
  query<T extends Row = Row>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** Runs fn while holding a per-key in-process lock (read-modify-write of a keyv value). */
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** Deletes expired slips, old deliveries and old posts. */
  sweep(now: number): Promise<void>;
  close(): Promise<void>;
}

function pathOf(url: string): string {
  return url.replace(/^sqlite:\/\//, '');
}

export async function openStore(url: string): Promise<BotStore> {
  const file = pathOf(url);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const adapter = new KeyvSqlite({ uri: url, busyTimeout: 5000 });
  let closed = false;
  // Every call (keyv's too) goes through adapter.query: after close it fails with a clear error instead of
  // reaching the closed sqlite handle (SQLITE_MISUSE).
  const run = adapter.query;
  adapter.query = (sql: string, ...params: unknown[]) =>
    closed ? Promise.reject(new StoreClosedError()) : run(sql, ...params);
  const kv = new Keyv({ store: adapter, namespace: 'bot', throwOnErrors: true });
  const query = async <T extends Row = Row>(sql: string, ...params: unknown[]): Promise<T[]> =>
    (await adapter.query(sql, ...params)) as T[];
  await query('PRAGMA journal_mode=WAL');
  await query('PRAGMA synchronous=NORMAL');
  await query('PRAGMA busy_timeout=5000');
  for (const stmt of SCHEMA) await query(stmt);
  for (const [table, column, type] of ADDED_COLUMNS) {
    await query(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`).catch((err: Error) => {
      if (!/duplicate column/i.test(err.message)) throw err;
    });
  }
  for (const stmt of AFTER_COLUMNS) await query(stmt);

  const locks = new Map<string, Promise<unknown>>();
  const withLock = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const before = locks.get(key) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    locks.set(key, tail);
    try {
      return await run;
    } finally {
      if (locks.get(key) === tail) locks.delete(key);
    }
  };

  return {
    kv,
    query,
    withLock,
    async sweep(now: number) {
      // Expired slips stay an hour so a late Confirm is told "expired", not "already handled".
      await query('DELETE FROM slips WHERE expires_at <= ?', now - 3_600_000);
      // A gateway retries a webhook for about 21 s; a day of history is plenty for dedupe.
      await query('DELETE FROM webhook_deliveries WHERE received_at <= ?', now - 86_400_000);
      await query("DELETE FROM jobs WHERE state = 'posted' AND updated_at <= ?", now - 7 * 86_400_000);
      await query("DELETE FROM outbox WHERE state <> 'pending' AND updated_at <= ?", now - 7 * 86_400_000);
      await query(`DELETE FROM keyv WHERE key LIKE 'bot:cache:%' AND json_extract(value, '$.expires') <= ?`, now);
    },
    async close() {
      if (closed) return;
      closed = true;
      await adapter.disconnect();
    },
  };
}
