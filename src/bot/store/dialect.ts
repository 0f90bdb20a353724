/**
 * The one place where SQLite and PostgreSQL differ. Repositories write SQL once, in this portable subset,
 * and the store runs it unchanged on either engine:
 *
 * - `?` placeholders (the PostgreSQL store rewrites them to `$1…$n`; a `?` inside a '…' literal stays).
 * - `INSERT … ON CONFLICT (cols) DO NOTHING | DO UPDATE SET … WHERE … RETURNING …`; in DO UPDATE, qualify
 *   the old row with the table name (`outbox.rank`), the new one with `excluded.`.
 * - `UPDATE … RETURNING`, `DELETE … RETURNING`; no `UPDATE … FROM`, no `LIMIT` on UPDATE/DELETE.
 * - No json functions in queries (store JSON as TEXT and parse it in code); for the few places that need
 *   them use the helpers below (`jsonArrayRows`, `jsonNumber`).
 * - `CASE WHEN … THEN … ELSE … END` instead of scalar `MAX(a, b)` / `MIN(a, b)` (PostgreSQL has
 *   GREATEST/LEAST, SQLite does not; both have CASE).
 * - `FLOOR(x + 0.5)` to round a half up (the `sqlite3` package builds SQLite's math functions in); not `ROUND`,
 *   which rounds a half away from zero on SQLite and to even on PostgreSQL's double precision.
 * - Column types in migrations: `INTEGER` for epoch milliseconds, cents and counts (PostgreSQL gets
 *   `BIGINT`), `REAL` for non-money fractions (PostgreSQL gets `DOUBLE PRECISION`), `TEXT` for strings and
 *   JSON. Rows come back alike: BIGINT and NUMERIC are parsed to JS numbers on PostgreSQL.
 * - No `PRAGMA`, no `BEGIN` on the shared connection (each statement is atomic on its own; statements that
 *   must commit together go through `BotStore.transaction`); engine setup lives in the engine's file.
 * - Parameters: strings, finite numbers, null. ±Infinity is sent to PostgreSQL as ±(2^53 − 1).
 */
export type Engine = 'sqlite' | 'postgres';

export interface Dialect {
  readonly engine: Engine;
  /**
   * A SELECT yielding one row per element of a JSON array of arrays bound to one `?` (a batch in one
   * statement): `jsonArrayRows(['text', 'text', 'integer'])` → `SELECT c0, c1, c2 FROM … WHERE true`.
   */
  jsonArrayRows(types: ReadonlyArray<'text' | 'integer'>): string;
  /** A numeric field of a JSON object stored as TEXT (keyv values), e.g. jsonNumber('value', 'expires'). */
  jsonNumber(column: string, field: string): string;
  /** Portable DDL (see above) to this engine's DDL. */
  ddl(statement: string): string;
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const checkName = (s: string) => {
  if (!FIELD.test(s)) throw new Error(`not a plain SQL name: ${s}`);
  return s;
};

export const sqliteDialect: Dialect = {
  engine: 'sqlite',
  // `WHERE true` keeps SQLite from reading a following ON CONFLICT as a join constraint of the SELECT.
  jsonArrayRows: (types) =>
    `SELECT ${types.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ')} FROM json_each(?) WHERE true`,
  jsonNumber: (column, field) => `json_extract(${checkName(column)}, '$.${checkName(field)}')`,
  ddl: (s) => s,
};

export const postgresDialect: Dialect = {
  engine: 'postgres',
  jsonArrayRows: (types) =>
    `SELECT ${types.map((t, i) => (t === 'integer' ? `(e->>${i})::bigint` : `e->>${i}`)).join(', ')} FROM json_array_elements(?::json) AS j(e) WHERE true`,
  jsonNumber: (column, field) => `(${checkName(column)}::json->>'${checkName(field)}')::double precision`,
  ddl: (s) => s.replace(/\bINTEGER\b/g, 'BIGINT').replace(/\bREAL\b/g, 'DOUBLE PRECISION'),
};

/** `?` → `$1…$n`, leaving '…' literals, "…" names and -- comments alone. */
export function toNumberedPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '?') {
      out += `$${++n}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Parameters as PostgreSQL takes them (SQLite compares with ±Infinity; a BIGINT parameter cannot hold it). */
export function toPostgresParams(params: unknown[]): unknown[] {
  return params.map((p) => {
    if (p === undefined) return null;
    if (p === Number.POSITIVE_INFINITY) return Number.MAX_SAFE_INTEGER;
    if (p === Number.NEGATIVE_INFINITY) return Number.MIN_SAFE_INTEGER;
    return p;
  });
}
