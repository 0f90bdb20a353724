// Diagnosis, not a figure: loaded into the bot with node's --import, counts the SQLite statements it runs through
// node-sqlite3, by statement text, and keyv's reads and writes by the key's first parts, and prints both to stderr at
// exit. For the desk while figure 6 runs:
//   npx tsx bench/receipt-trace.ts --batches 5 --no-floor --node-flag --import=./bench/preload/sql-count.mjs
// (the path is the bot child's, which runs in the repository's root). PostgreSQL's statements are not counted.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const sqlite3 = require('sqlite3');
const Statement = sqlite3.Statement;
const textOf = new WeakMap();
/** node-sqlite3's Statement, remembering each statement's text (the store prepares through this constructor). */
function Remembered(db, sql, callback) {
  const statement = new Statement(db, sql, callback);
  textOf.set(statement, sql);
  return statement;
}
Remembered.prototype = Statement.prototype;
sqlite3.Statement = Remembered;

const byText = new Map();
const byKey = new Map();
const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
/** One statement run: its text, and for keyv's table the key's first parts. */
function counted(sql, params) {
  const text = sql.replace(/\s+/g, ' ').trim();
  count(byText, text.slice(0, 120));
  if (/\bkeyv\b/.test(text) && typeof params[0] === 'string') {
    const verb = text.startsWith('SELECT') ? 'get' : text.startsWith('INSERT') ? 'set' : 'other';
    count(
      byKey,
      `${verb} ${params[0]
        .split(':')
        .slice(0, 4)
        .join(':')
        .replace(/\d{4,}/g, '#')
        .slice(0, 80)}`,
    );
  }
}
// Prepared statements (the store's transaction connection): each call of a statement made past Remembered.
const statementAll = Statement.prototype.all;
Statement.prototype.all = function (...args) {
  const sql = textOf.get(this);
  if (sql !== undefined) counted(sql, Array.isArray(args[0]) ? args[0] : []);
  return statementAll.apply(this, args);
};
// One-off statements (the main connection, keyv's): Database#all and #run with the text and its parameters.
for (const name of ['all', 'run', 'get']) {
  const method = sqlite3.Database.prototype[name];
  sqlite3.Database.prototype[name] = function (sql, ...rest) {
    const params = Array.isArray(rest[0]) ? rest[0] : rest.filter((p) => typeof p !== 'function');
    counted(String(sql), params);
    return method.call(this, sql, ...rest);
  };
}

process.on('exit', () => {
  const total = [...byText.values()].reduce((a, b) => a + b, 0);
  const lines = [`sql-count: ${total} statements`];
  for (const [text, n] of [...byText].sort((a, b) => b[1] - a[1]).slice(0, 50))
    lines.push(`${String(n).padStart(7)}  ${text}`);
  lines.push('sql-count: keyv by key');
  for (const [key, n] of [...byKey].sort((a, b) => b[1] - a[1]).slice(0, 20))
    lines.push(`${String(n).padStart(7)}  ${key}`);
  process.stderr.write(`${lines.join('\n')}\n`);
});
