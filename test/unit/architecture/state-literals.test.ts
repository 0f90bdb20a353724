// A record's state is read and written through its table's named sets and moves (issue 44), never by a literal:
// `state = 'redeemed'` in SQL or `c.state === 'paid'` in code names a state the table may rename or split, and the
// reader then silently stops matching. The scan is the money guard's kind: every such site outside a `model/` folder
// (where the tables live) fails, except in the files listed below, which still hold literals and say which table
// they wait for. The list only shrinks: a file made clean fails until it leaves the list.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A state compared or set to a literal, in SQL or in code, or asked of a set written out as literals. */
const LITERAL = new RegExp(
  [
    /\bstate\s*(?:=|==|===|!==|<>|!=)\s*'[a-z_]+'/.source,
    /\bstate\s+(?:NOT\s+)?IN\s*\(\s*'/.source,
    // A set written out in code: `['paid', 'rejected'].includes(c.state)`.
    /\[\s*'[a-z_]+'(?:\s*,\s*'[a-z_]+')*\s*\]\.includes\(\w+\??\.state\)/.source,
  ].join('|'),
);

/** Files that still read or write a state by literal, and the table each waits for. */
const NOT_YET: Record<string, string> = {};

function literalSites(path: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      LITERAL.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [],
    );
}

describe('state literals', () => {
  const files = [...tsFiles(join(ROOT, 'src/bot')), ...tsFiles(join(ROOT, 'commands'))]
    .map((file) => relative(ROOT, file))
    .filter((path) => !path.split('/').includes('model'));
  const sites = files.flatMap((path) => literalSites(path, readFileSync(join(ROOT, path), 'utf8')));

  it('reads and writes every state outside the tables through named sets and moves, not literals', () => {
    expect(sites.filter((site) => NOT_YET[site.split(':')[0]!] === undefined)).toEqual([]);
  });

  it('drops a file from the list once it holds no literal', () => {
    const dirty = new Set(sites.map((site) => site.split(':')[0]));
    expect(Object.keys(NOT_YET).filter((path) => !dirty.has(path))).toEqual([]);
  });

  it('finds a literal in SQL and in code, and not in a comment or a named set', () => {
    const text = [
      "  `SELECT * FROM fund_cashouts WHERE state = 'redeemed'`,",
      "  if (c.state !== 'paid') return;",
      "  `WHERE state IN ('submitted', 'unknown')`,",
      "  const open = cashouts.filter((c) => !['paid', 'rejected'].includes(c.state));",
      "  // a state = 'paid' in a comment",
      // A named set in SQL (the placeholder written in two parts, as a string).
      '  `WHERE state IN $' + '{sqlList(STATES.cashoutRedeemed)}`,',
    ].join('\n');
    expect(literalSites('x.ts', text).map((s) => s.split(':')[1])).toEqual(['1', '2', '3', '4']);
  });
});
