// Online backups of the desk's store and their restore (docs/operations.md, "Back up and restore"; decision 1980).
// SQLite: `VACUUM INTO` on a connection of its own, a consistent snapshot while the desk writes (a file copy of a live
// WAL database is not). PostgreSQL: pg_dump in its custom format on a snapshot this module exports, so the head and
// counts printed are the dump's own. Either way the desk that starts on the copy learns it was restored from the
// marker: written into the SQLite copy by the backup, and by the restore on both engines.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import sqlite3 from 'sqlite3';
import { type BotStore, openStore } from './index.js';

const run = promisify(execFile);

/** The keyv key (namespace `bot`) of the "restored from" marker the desk checks at start (ledger/restore-check.ts). */
export const RESTORE_MARKER_KEY = 'restore:from';

export interface RestoreMarker {
  /** The backup's file name. */
  from: string;
  /** When the backup's snapshot was taken (epoch ms); null when only the copy's own records can tell. */
  takenAt: number | null;
  /** The ledger's head in the copy. */
  head: { seq: number; hash: string } | null;
}

/** What a backup or a store holds: the ledger's head and the counts a treasurer compares with the desk's. */
export interface StoreSummary {
  schemaVersion: number;
  head: { seq: number; hash: string } | null;
  ledgerEntries: number;
  /** Bet records by state. */
  bets: Record<string, number>;
  funds: number;
  /** Units outstanding over every fund (millionths of a unit). */
  fundUnits: number;
  cashouts: number;
  withdrawals: number;
}

type Query = (sql: string, ...params: unknown[]) => Promise<Record<string, unknown>[]>;

/** The summary from any connection that reads the desk's tables (a store, or the snapshot's own session). */
export async function summarize(query: Query): Promise<StoreSummary> {
  const one = async (sql: string) => Number((await query(sql))[0]?.n ?? 0);
  const [head] = await query('SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1');
  const bets: Record<string, number> = {};
  for (const r of await query('SELECT state, COUNT(*) AS n FROM bet_records GROUP BY state ORDER BY state')) {
    bets[String(r.state)] = Number(r.n);
  }
  return {
    schemaVersion: await one('SELECT MAX(version) AS n FROM schema_migrations'),
    head: head ? { seq: Number(head.seq), hash: String(head.hash) } : null,
    ledgerEntries: await one('SELECT COUNT(*) AS n FROM ledger'),
    bets,
    funds: await one('SELECT COUNT(*) AS n FROM funds'),
    fundUnits: await one('SELECT COALESCE(SUM(units), 0) AS n FROM funds'),
    cashouts: await one('SELECT COUNT(*) AS n FROM fund_cashouts'),
    withdrawals: await one('SELECT COUNT(*) AS n FROM fund_withdrawals'),
  };
}

/** The summary as the backup and restore commands print it. */
export function summaryText(s: StoreSummary): string {
  const bets = Object.entries(s.bets)
    .map(([state, n]) => `${state} ${n}`)
    .join(', ');
  return [
    `schema version ${s.schemaVersion}`,
    s.head ? `ledger head: entry ${s.head.seq}, hash ${s.head.hash}` : 'ledger head: none (no entries)',
    `ledger entries ${s.ledgerEntries}`,
    `bet records ${Object.values(s.bets).reduce((a, b) => a + b, 0)}${bets ? ` (${bets})` : ''}`,
    `funds ${s.funds}, units outstanding ${(s.fundUnits / 1e6).toFixed(6)}, cash-outs ${s.cashouts}, withdrawal attempts ${s.withdrawals}`,
  ].join('\n');
}

const isPostgres = (url: string) => /^postgres(ql)?:\/\//.test(url);
const sqlitePath = (url: string) => url.replace(/^sqlite:\/\//, '');

/** Writes the marker into a store (the copy the desk will start on). */
export async function writeRestoreMarker(store: BotStore, marker: RestoreMarker): Promise<void> {
  await store.kv.set(RESTORE_MARKER_KEY, marker);
}

export async function readRestoreMarker(store: BotStore): Promise<RestoreMarker | undefined> {
  return (await store.kv.get<RestoreMarker>(RESTORE_MARKER_KEY)) ?? undefined;
}

/**
 * An online backup of the store at `url` into `file` (which must not exist). SQLite: `VACUUM INTO` a new file, then
 * the marker written into it. PostgreSQL: `pg_dump --format=custom` of the whole database on an exported snapshot.
 */
export async function backupStore(url: string, file: string, now: () => number = Date.now): Promise<StoreSummary> {
  if (existsSync(file)) throw new Error(`${file} exists already: name a new file (a backup never overwrites one)`);
  return isPostgres(url) ? backupPostgres(url, file) : backupSqlite(sqlitePath(url), file, now);
}

/** The backups `backupToFolder` writes: `desk-<UTC time to the millisecond>.sqlite|dump`, sorting by time. */
const OURS = /^desk-\d{8}T\d{9}Z\.(sqlite|dump)$/;

/**
 * A backup into `dir` named by its time (a scheduled backup: cron, a systemd timer), then the oldest of the backups
 * this wrote there removed past `keep`; other files in the folder are never touched.
 */
export async function backupToFolder(
  url: string,
  dir: string,
  keep: number,
  now: () => number = Date.now,
): Promise<{ file: string; summary: StoreSummary; removed: string[] }> {
  if (!Number.isInteger(keep) || keep < 1) throw new Error('--keep takes a whole number, 1 or more');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date(now()).toISOString().replace(/[-:.]/g, '');
  const file = join(dir, `desk-${stamp}.${isPostgres(url) ? 'dump' : 'sqlite'}`);
  const summary = await backupStore(url, file, now);
  const ours = readdirSync(dir)
    .filter((f) => OURS.test(f))
    .sort();
  const removed = ours.slice(0, Math.max(0, ours.length - keep)).map((f) => join(dir, f));
  for (const f of removed) rmSync(f);
  return { file, summary, removed };
}

async function backupSqlite(path: string, file: string, now: () => number): Promise<StoreSummary> {
  if (!existsSync(path)) throw new Error(`no SQLite store at ${path}: check STORE_URL`);
  const takenAt = now();
  // A connection of its own, read-only: VACUUM INTO reads one snapshot and never blocks the desk's writer (WAL).
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(d)));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      db.configure('busyTimeout', 10_000);
      db.run('VACUUM INTO ?', [file], (err) => (err ? reject(err) : resolve()));
    });
  } catch (err) {
    rmSync(file, { force: true });
    throw new Error(`VACUUM INTO ${file} failed: ${(err as Error).message}`, { cause: err });
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
  const copy = await openStore(`sqlite://${file}`);
  try {
    const summary = await summarize((sql, ...p) => copy.query(sql, ...p));
    await writeRestoreMarker(copy, { from: basename(file), takenAt, head: summary.head });
    return summary;
  } finally {
    await copy.close();
  }
}

/** Debian's pg_dump / pg_restore of the newest installed version, else the one on PATH. */
export function pgProgram(name: 'pg_dump' | 'pg_restore'): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(`${root}/${v}/bin/${name}`))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions[0] ? `${root}/${versions[0]}/bin/${name}` : name;
}

/** A failed pg_dump / pg_restore in words: what it said, or that it is not installed where this runs. */
function programError(name: 'pg_dump' | 'pg_restore', err: unknown): Error {
  const e = err as { code?: string; stderr?: string; message: string };
  if (e.code === 'ENOENT') {
    return new Error(
      `${name} is not installed here (the desk's image has none): run this where PostgreSQL's client programs are (apt-get install postgresql-client), or ${name} by hand as docs/operations.md shows`,
      { cause: err },
    );
  }
  return new Error(`${name} failed: ${(e.stderr || e.message).trim()}`, { cause: err });
}

/** The URL without its password, which goes to the program in PGPASSWORD (never on its command line). */
function splitPassword(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/**
 * A pg client, its driver loaded here: the bot's start reads the restore marker from this module, and a desk on SQLite
 * never needs the PostgreSQL driver.
 */
async function pgClient(url: string) {
  const { default: pg } = await import('pg');
  return new pg.Client({ connectionString: url });
}

/** The dump holds no marker (it is written at restore, with no time: the copy's own records tell how old it is). */
async function backupPostgres(url: string, file: string): Promise<StoreSummary> {
  const client = await pgClient(url);
  await client.connect();
  try {
    // The dump reads the snapshot this transaction exports: the head and counts below are the dump's own.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = String((await client.query('SELECT pg_export_snapshot() AS s')).rows[0]?.s);
    const summary = await summarize(async (sql) => (await client.query(sql)).rows);
    const target = splitPassword(url);
    try {
      await run(
        pgProgram('pg_dump'),
        ['--format=custom', `--snapshot=${snapshot}`, '--no-owner', '--no-privileges', `--file=${file}`, target.url],
        { env: target.env, maxBuffer: 1 << 24 },
      );
    } catch (err) {
      rmSync(file, { force: true });
      throw programError('pg_dump', err);
    }
    return summary;
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  }
}

/**
 * Puts a backup where `url` points and writes the marker: SQLite copies the file to the store's path (which must
 * not exist: a desk may be running on it); PostgreSQL restores the dump with pg_restore into an empty database.
 */
export async function restoreStore(file: string, url: string): Promise<StoreSummary> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new Error(`no backup file at ${file}`);
  if (isPostgres(url)) {
    const store = await openStoreUnmigrated(url);
    try {
      const [tables] = await store.query(
        "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'",
      );
      if (Number(tables?.n ?? 0) > 0) {
        throw new Error(
          'the database STORE_URL names is not empty: restore into a new, empty database (createdb), then point STORE_URL at it',
        );
      }
    } finally {
      await store.close();
    }
    const target = splitPassword(url);
    try {
      await run(
        pgProgram('pg_restore'),
        ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${target.url}`, file],
        { env: target.env, maxBuffer: 1 << 24 },
      );
    } catch (err) {
      throw programError('pg_restore', err);
    }
  } else {
    const path = sqlitePath(url);
    for (const f of [path, `${path}-wal`]) {
      if (existsSync(f)) {
        throw new Error(
          `${f} exists: stop the desk and move the old store away first (a restore never overwrites one)`,
        );
      }
    }
    copyFileSync(file, path);
  }
  return markRestored(url, basename(file));
}

/**
 * Writes the marker into the store at `url` that was restored by hand (pg_restore, a file copied into place), so the
 * desk checks it at its next start; `from` names the backup.
 */
export async function markRestored(url: string, from: string): Promise<StoreSummary> {
  const store = await openStore(url);
  try {
    const summary = await summarize((sql, ...p) => store.query(sql, ...p));
    const marker = await readRestoreMarker(store);
    await writeRestoreMarker(store, { from, takenAt: marker?.takenAt ?? null, head: summary.head });
    return summary;
  } finally {
    await store.close();
  }
}

/** A pg connection for a question asked before the store's migrations run (an empty database stays empty). */
async function openStoreUnmigrated(url: string): Promise<{ query: Query; close: () => Promise<void> }> {
  const client = await pgClient(url);
  await client.connect();
  return {
    query: async (sql: string) => (await client.query(sql)).rows,
    close: () => client.end(),
  };
}
