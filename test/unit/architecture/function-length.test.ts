// No function in src/bot or commands/ runs over 80 lines unless the list below says why (issue 44): a long function
// mixes reading, deciding and writing, and a reader cannot hold it whole. Nested functions count on their own, and
// inside their owner too.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAX_LINES = 80;

/** `file:function` → why it may run long. Each entry must still be long: a function made short leaves the list. */
const ALLOWED: Record<string, string> = {
  'src/bot/store/postgres.ts:openPostgresStore':
    "the engine's whole surface as one closure over its pool (query, transactions, locks, json); each method is short",
  'src/bot/store/sqlite.ts:openSqliteStore':
    "the engine's whole surface as one closure over its connection and write queue; each method is short",
  'src/bot/index.ts:buildServices': 'the composition root: a list of constructions in dependency order, no logic',
  'src/bot/receiver/receiver.ts:startReceiver':
    'the route table of the receiver and its handlers, one closure over the server',
  'src/bot/ops/metrics.ts:deskMetrics': 'the list of metric series, one declaration each',
  'src/bot/main.ts:startApp': 'the start sequence of the process (config, playground or bot, signals), in order',
  'src/bot/audit/daily-reconciliation.ts:reconcileDay':
    'one pass over the day, each check a short block; to split next',
  'src/bot/betting/slip-factory.ts:SlipFactory.prepareSlip':
    "the slip's steps in the order a member hears refusals; to split next",
  'src/bot/betting/bet-records.ts:BetRecordRepo.#claim': 'one transaction: every cap read and the insert must share it',
  'src/bot/discord/router.ts:routeOnce': 'the dispatch of one interaction by kind, a switch of short branches',
  'src/bot/audit/restore-check.ts:check': 'the checks a restored store gets, in order; to split next',
  'src/bot/audit/balance-check.ts:compareBalance':
    "one account's balance against the ledger, with its reasons; to split next",
  'src/bot/watch/engine.ts:WatchEngine.#judge': "one read judged against every watch's rule kind; to split next",
};

interface Long {
  key: string;
  lines: number;
}

function longFunctions(): Long[] {
  const files = [...tsFiles(join(ROOT, 'src/bot')), ...tsFiles(join(ROOT, 'commands'))];
  return files.flatMap((file) => {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const rel = relative(ROOT, file);
    const found: Long[] = [];
    const visit = (node: ts.Node, owner: string) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const lines =
          sf.getLineAndCharacterOfPosition(node.getEnd()).line -
          sf.getLineAndCharacterOfPosition(node.getStart(sf)).line +
          1;
        if (lines > MAX_LINES) found.push({ key: `${rel}:${nameOf(node, owner, sf)}`, lines });
      }
      const next = ts.isClassDeclaration(node) && node.name ? node.name.text : owner;
      ts.forEachChild(node, (child) => visit(child, next));
    };
    visit(sf, '');
    return found;
  });
}

function nameOf(node: ts.SignatureDeclaration, owner: string, sf: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return `${owner}.constructor`;
  const own = node.name?.getText(sf);
  if (own !== undefined) return ts.isMethodDeclaration(node) || ts.isAccessor(node) ? `${owner}.${own}` : own;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  return '(anonymous)';
}

describe('the length of functions in src/bot and commands/', () => {
  const long = longFunctions();

  it(`keeps every function within ${MAX_LINES} lines, or says why`, () => {
    const unexplained = long.filter((f) => ALLOWED[f.key] === undefined).map((f) => `${f.key} (${f.lines} lines)`);
    expect(unexplained).toEqual([]);
  });

  it('drops a function from the list once it is short', () => {
    const keys = new Set(long.map((f) => f.key));
    expect(Object.keys(ALLOWED).filter((key) => !keys.has(key))).toEqual([]);
  });
});
