import KeyvPostgres from '@keyv/postgres';
import Keyv from 'keyv';
import pg from 'pg';
import { postgresDialect, toNumberedPlaceholders, toPostgresParams } from './dialect.js';
import type { LeaseBackend } from './leader.js';
import { migrate } from './migrations.js';
import {
  type BotStore,
  keyedQueue,
  type OpenOptions,
  type Row,
  StoreClosedError,
  sharedStoreParts,
  sortedKeys,
  type Tx,
  type TxOptions,
} from './types.js';
import { redactUrl } from './url.js';

/** Advisory lock key spaces (first key of the two-key form), so the bot's locks never meet other users'. */
const LOCK_MIGRATIONS = 0x5344_0001;
const LOCK_KEYS = 0x5344_0002;
const LOCK_LEADER = 0x5344_0003;

/** BIGINT (20) and NUMERIC (1700) come back as JS numbers, like SQLite's INTEGER/REAL (epoch ms, cents). */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/** How many distinct statement texts a store prepares by name (each connection keeps its own plans). */
const STATEMENT_NAMES = 400;

/**
 * How long a pool keeps a connection nobody is using (decision 2148). A new connection costs the server a backend's
 * start and a new plan of every named statement it runs; pg's default of 10 s closed them between a syndicate's
 * bursts, so each burst paid that again.
 */
const IDLE_CONNECTION_MS = 300_000;
/** An idle pooled connection's first TCP keep-alive probe, and each one after while the database answers. */
const KEEPALIVE_MS = 60_000;

/**
 * The shared store: one pg pool for keyv and the exactly-once tables, a second pool for key locks (a lock holder
 * must not wait on the connections its own work needs), a small third one for the urgent transactions (a receipt's
 * must not queue behind the burst), and one dedicated connection per leader lease (a session advisory lock lives
 * exactly as long as its connection).
 */
export async function openPostgresStore(url: string, opts: OpenOptions = {}): Promise<BotStore> {
  const now = opts.now ?? Date.now;
  // Kept through a quiet spell, and probed while idle so a NAT or firewall between the desk and the database (some
  // drop a connection idle for 4 minutes) keeps it, or the pool learns it is gone.
  const kept = { idleTimeoutMillis: IDLE_CONNECTION_MS, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_MS };
  const pool = new pg.Pool({ connectionString: url, types, max: 10, ...kept });
  const lockPool = new pg.Pool({ connectionString: url, types, max: 10, ...kept });
  // The urgent transactions' own connections (a receipt's, decision 2080): they never queue for one behind the burst.
  const urgentPool = new pg.Pool({ connectionString: url, types, max: 2, ...kept });
  // An idle connection that breaks (server restart) is dropped by the pool; without a listener it would end the process.
  const ignore = () => {};
  pool.on('error', ignore);
  lockPool.on('error', ignore);
  urgentPool.on('error', ignore);
  let closed = false;
  const raw = async (sql: string, params: unknown[]): Promise<Row[]> => {
    if (closed) throw new StoreClosedError();
    return (await pool.query(sql, params as unknown[])).rows as Row[];
  };
  // The store's own statements are few and fixed, so each runs as a named prepared statement: each connection
  // parses and plans it once instead of on every call (the claim's INSERT … SELECT with its cap subqueries is
  // most of the confirm path's server time). Past STATEMENT_NAMES distinct texts the rest run unnamed.
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < STATEMENT_NAMES) {
      name = `store_${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  const query = async <T extends Row = Row>(sql: string, ...params: unknown[]): Promise<T[]> => {
    if (closed) throw new StoreClosedError();
    const text = toNumberedPlaceholders(sql);
    const name = nameOf(text);
    const values = toPostgresParams(params) as unknown[];
    return (await pool.query(name ? { name, text, values } : { text, values })).rows as T[];
  };

  const client = await pool.connect().catch((err: Error) => {
    void pool.end();
    void lockPool.end();
    void urgentPool.end();
    throw new Error(`could not connect to PostgreSQL at ${redactUrl(url)}: ${err.message}`, { cause: err });
  });
  try {
    const exec = async (sql: string, ...params: unknown[]) =>
      (await client.query(toNumberedPlaceholders(sql), toPostgresParams(params))).rows as Row[];
    await migrate(
      {
        dialect: postgresDialect,
        exec,
        lock: async () => {
          await exec('SELECT pg_advisory_lock(?, 0)', LOCK_MIGRATIONS);
        },
        unlock: async () => {
          await exec('SELECT pg_advisory_unlock(?, 0)', LOCK_MIGRATIONS);
        },
        begin: async () => {
          await exec('BEGIN');
        },
      },
      now,
      opts.migrateTo,
    );
    // keyv's table, made here under the same lock so two processes starting together do not race on it.
    await exec('SELECT pg_advisory_lock(?, 0)', LOCK_MIGRATIONS);
    await exec('CREATE TABLE IF NOT EXISTS keyv (key VARCHAR(1024) PRIMARY KEY, value TEXT)');
    await exec('SELECT pg_advisory_unlock(?, 0)', LOCK_MIGRATIONS);
  } catch (err) {
    client.release(true);
    await pool.end();
    await lockPool.end();
    await urgentPool.end();
    throw err;
  }
  client.release();

  // keyv on the same pool (@keyv/postgres would otherwise keep one module-wide pool per URL).
  class SharedPoolKeyv extends KeyvPostgres {
    override async connect() {
      return (sql: string, values?: unknown[]) => raw(sql, values ?? []) as Promise<never[]>;
    }
    override async disconnect() {}
  }
  const adapter = new SharedPoolKeyv({ uri: url, keySize: 1024 });
  const kv = new Keyv({ store: adapter, namespace: 'bot', throwOnErrors: true });

  const inProcess = keyedQueue();
  // In-process queue first, so one process never holds more than one lock connection per key.
  const withLock = <T>(key: string, fn: () => Promise<T>): Promise<T> =>
    inProcess(key, async () => {
      if (closed) throw new StoreClosedError();
      const c = await lockPool.connect();
      let broken: unknown;
      try {
        await c.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_KEYS, key]);
        try {
          return await fn();
        } finally {
          await c.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_KEYS, key]).catch((err) => {
            broken = err;
          });
        }
      } catch (err) {
        broken ??= err;
        throw err;
      } finally {
        // A connection whose lock state is unknown is closed, not reused (closing frees the lock).
        c.release(broken !== undefined);
      }
    });
  // Several keys' locks on one connection, in sorted order, in one round trip (and freed in one): no two
  // callers wait on each other in a cycle, and a caller never holds one lock connection while it waits for
  // a second. The connection is this call's alone, so unlock_all frees exactly these locks.
  const lockAll = async <T>(keys: string[], fn: () => Promise<T>): Promise<T> => {
    if (closed) throw new StoreClosedError();
    const c = await lockPool.connect();
    let broken: unknown;
    try {
      await c.query(
        'SELECT pg_advisory_lock($1, hashtext(k)) FROM unnest($2::text[]) WITH ORDINALITY AS t(k, i) ORDER BY i',
        [LOCK_KEYS, keys],
      );
    } catch (err) {
      broken = err;
    }
    try {
      if (broken !== undefined) throw broken;
      return await fn();
    } finally {
      await c.query('SELECT pg_advisory_unlock_all()').catch((err) => {
        broken ??= err;
      });
      // A connection whose lock state is unknown is closed, not reused (closing frees its locks).
      c.release(broken !== undefined);
    }
  };
  // A transaction on a pool connection of its own; a connection whose ROLLBACK failed is closed, not reused. One that
  // holds keys (TxOptions.serialize, decision 2147) runs on the lock pool, as a lock's holders and waiters do: a
  // waiter never takes a connection that a holder of one of its keys needs for its own work.
  const transaction = async <T>(fn: (tx: Tx) => Promise<T>, txOpts?: TxOptions): Promise<T> => {
    if (closed) throw new StoreClosedError();
    const keys = txOpts?.serialize === undefined ? [] : serializeLockNames(txOpts.serialize);
    const c = await (txOpts?.urgent ? urgentPool : keys.length > 0 ? lockPool : pool).connect();
    let broken: unknown;
    const tx: Tx = {
      query: async <R extends Row = Row>(sql: string, ...params: unknown[]): Promise<R[]> => {
        if (closed) throw new StoreClosedError();
        const text = toNumberedPlaceholders(sql);
        const name = nameOf(text);
        const values = toPostgresParams(params) as unknown[];
        return (await c.query(name ? { name, text, values } : { text, values })).rows as R[];
      },
      lock: async (key) => {
        await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_KEYS, key]);
      },
    };
    try {
      await c.query(keys.length > 0 ? beginHolding(c, keys) : 'BEGIN');
      const result = await fn(tx);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch((e: unknown) => {
        broken = e;
      });
      throw err;
    } finally {
      c.release(broken !== undefined);
    }
  };
  const store: BotStore = {
    engine: 'postgres',
    dialect: postgresDialect,
    kv,
    query,
    withLock,
    transaction,
    serialize: (keys, fn) => lockAll(serializeLockNames(keys), fn),
    ...sharedStoreParts({
      query,
      dialect: postgresDialect,
      lease: (name): LeaseBackend => {
        let conn: pg.Client | undefined;
        let lost = false;
        const drop = () => {
          const c = conn;
          conn = undefined;
          if (c) void c.end().catch(() => undefined);
        };
        return {
          async tryAcquire() {
            if (closed) return false;
            if (!conn) {
              const c = new pg.Client({ connectionString: url, types });
              c.on('error', () => {
                lost = true;
              });
              c.on('end', () => {
                lost = true;
              });
              lost = false;
              conn = c;
              await c.connect().catch((err) => {
                drop();
                throw err;
              });
            }
            const rows = await conn.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [LOCK_LEADER, name]);
            return rows.rows[0]?.ok === true;
          },
          async holds() {
            if (lost || !conn) {
              drop();
              return false;
            }
            try {
              await conn.query('SELECT 1');
              return !lost;
            } catch {
              drop();
              return false;
            }
          },
          async release() {
            const c = conn;
            if (!c) return;
            await c.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_LEADER, name]).catch(() => undefined);
            drop();
          },
        };
      },
      shutdown: async () => {
        closed = true;
        await lockPool.end();
        await urgentPool.end();
        await pool.end();
      },
    }),
  };
  return store;
}

/**
 * The advisory lock names of `serialize` keys, in the order they are taken: `serialize` and a transaction holding keys
 * (decision 2147) name them alike, so the two exclude each other on a shared key.
 */
const serializeLockNames = (keys: string | string[]): string[] => sortedKeys(keys).map((k) => `serialize:${k}`);

/**
 * BEGIN and the keys' transaction-scoped advisory locks in one round trip (a simple query carries both statements,
 * so the keys go in as literals, escaped by the driver), taken in the keys' order, as `serialize` takes its own: the
 * same lock ids, so a transaction and a `serialize` sharing a key exclude each other.
 */
function beginHolding(c: pg.PoolClient, keys: readonly string[]): string {
  const list = keys.map((k) => c.escapeLiteral(k)).join(', ');
  return `BEGIN; SELECT pg_advisory_xact_lock(${LOCK_KEYS}, hashtext(k)) FROM unnest(ARRAY[${list}]::text[]) WITH ORDINALITY AS t(k, i) ORDER BY i`;
}
