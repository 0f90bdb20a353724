import { describe, expect, it } from 'vitest';
import {
  postgresDialect,
  sqliteDialect,
  toNumberedPlaceholders,
  toPostgresParams,
} from '../../../src/bot/store/dialect.js';
import { redactUrl } from '../../../src/bot/store/index.js';

describe('the store dialect layer', () => {
  it('numbers ? placeholders for PostgreSQL, leaving literals, quoted names and comments alone', () => {
    expect(toNumberedPlaceholders('SELECT * FROM t WHERE a = ? AND b = \'?\' AND "c?" = ? -- why?\nLIMIT ?')).toBe(
      'SELECT * FROM t WHERE a = $1 AND b = \'?\' AND "c?" = $2 -- why?\nLIMIT $3',
    );
    expect(toNumberedPlaceholders("SELECT 'it''s ?', ?")).toBe("SELECT 'it''s ?', $1");
  });

  it('sends ±Infinity to PostgreSQL as the largest safe integers and undefined as null', () => {
    expect(toPostgresParams([Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, undefined, 'x', 5])).toEqual([
      Number.MIN_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER,
      null,
      'x',
      5,
    ]);
  });

  it('maps portable DDL to PostgreSQL types and leaves it as is for SQLite', () => {
    const ddl = 'CREATE TABLE t (at INTEGER NOT NULL, share REAL, name TEXT)';
    expect(postgresDialect.ddl(ddl)).toBe('CREATE TABLE t (at BIGINT NOT NULL, share DOUBLE PRECISION, name TEXT)');
    expect(sqliteDialect.ddl(ddl)).toBe(ddl);
  });

  it('refuses anything but a plain name in the json field helper', () => {
    expect(postgresDialect.jsonNumber('value', 'expires')).toBe("(value::json->>'expires')::double precision");
    expect(() => sqliteDialect.jsonNumber('value', "x') OR 1=1 --")).toThrow(/not a plain SQL name/);
  });

  it('hides the password of a store URL in messages', () => {
    expect(redactUrl('postgres://desk:s3cr%40t@db:5432/desk')).toBe('postgres://desk:***@db:5432/desk');
  });
});
