// The bot's folders are layers, each importing only the ones below it (docs/decisions/1660-bot-layers.md).
// An upward import ties a lower room to a higher one: the rules stop reading on their own, and the bet flow
// doubles back on itself. Type-only imports of the context (context.ts) are the one exception: it is the
// bag of services a function receives, named as a type, never loaded.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BOT = join(ROOT, 'src/bot');

/** Lowest first. A folder of src/bot, a file at its top, or the commands/ folder. */
const BOT_LAYERS: readonly (readonly string[])[] = [
  ['model'],
  ['config', 'gateway-port.ts', 'ops'],
  ['store'],
  ['repos'],
  ['discord', 'loader.ts'],
  ['analytics'],
  ['views'],
  ['results'],
  ['catalog'],
  ['betting'],
  ['fund'],
  ['ledger'],
  ['watch'],
  ['handlers'],
  ['context.ts', 'index.ts', 'main.ts', 'commands'],
];

interface Edge {
  from: string;
  to: string;
  specifier: string;
  typeOnly: boolean;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import of a file, marked type-only when it names types alone (`import type`, `{ type X }`). */
function importsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypes =
        bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly);
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && allNamedTypes));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The room a path of the repository sits in: `views`, `index.ts`, `commands`; undefined outside the bot. */
function roomOf(path: string): string | undefined {
  const rel = relative(ROOT, path).split('/');
  if (rel[0] === 'commands') return 'commands';
  if (rel[0] !== 'src' || rel[1] !== 'bot') return undefined;
  return rel[2];
}

/** Every import from one room of the bot into another, across src/bot and commands/. */
function botEdges(): Edge[] {
  const files = [...tsFiles(BOT), ...tsFiles(join(ROOT, 'commands'))];
  return files.flatMap((file) =>
    importsOf(file).flatMap(({ specifier, typeOnly }) => {
      if (!specifier.startsWith('.')) return [];
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      const from = roomOf(file);
      const to = roomOf(target);
      if (to === undefined || from === to) return [];
      return [{ from: relative(ROOT, file), to: relative(ROOT, target), specifier, typeOnly }];
    }),
  );
}

const rankOf = (room: string): number => BOT_LAYERS.findIndex((layer) => layer.includes(room));
const roomOfPath = (path: string) => roomOf(join(ROOT, path))!;
const describeEdge = (e: Edge) => `${e.from} imports '${e.specifier}' (${roomOfPath(e.from)} → ${roomOfPath(e.to)})`;

describe('the layers of src/bot', () => {
  const edges = botEdges();

  it('place every folder and top-level file of src/bot in exactly one layer', () => {
    const rooms = readdirSync(BOT).filter((name) => name.endsWith('.ts') || statSync(join(BOT, name)).isDirectory());
    const placed = BOT_LAYERS.flat();
    expect(rooms.filter((room) => !placed.includes(room))).toEqual([]);
    expect(placed.filter((room, i) => placed.indexOf(room) !== i)).toEqual([]);
  });

  it('read type-only imports and dynamic imports as what they are', () => {
    const command = edges.filter((e) => e.from === 'src/bot/discord/command.ts');
    expect(command).toContainEqual(expect.objectContaining({ to: 'src/bot/context.ts', typeOnly: true }));
    const main = edges.filter((e) => e.from === 'src/bot/main.ts' && e.to === 'src/bot/index.ts');
    expect(main.length).toBeGreaterThan(0);
  });

  it('import only downward (or sideways within a layer), except type-only imports of the context', () => {
    const upward = edges.filter(
      (e) => rankOf(roomOfPath(e.to)) > rankOf(roomOfPath(e.from)) && !(e.typeOnly && e.to === 'src/bot/context.ts'),
    );
    expect(upward.map(describeEdge), 'imports that run up the layers').toEqual([]);
  });

  /** The imports from `from` into rooms other than those listed (type-only imports of `typesOf` allowed). */
  const outside = (from: string, allowed: string[], typesOf: string[] = []) =>
    edges
      .filter((e) => roomOfPath(e.from) === from)
      .filter((e) => !allowed.includes(roomOfPath(e.to)) && !(e.typeOnly && typesOf.includes(roomOfPath(e.to))))
      .map(describeEdge);

  it('keep the model pure: src/bot/model imports nothing else of the bot', () => {
    expect(outside('model', [])).toEqual([]);
  });

  it('keep operations (metrics, readiness, drain, beats) on ports: src/bot/ops imports only config, the gateway port and the model', () => {
    expect(outside('ops', ['model', 'config', 'gateway-port.ts'])).toEqual([]);
  });

  it('build views from the model and discord alone, naming the records they show by type only', () => {
    expect(outside('views', ['model', 'discord'], ['repos', 'analytics'])).toEqual([]);
  });

  it('keep the repositories on the store and the model, naming the config by type only', () => {
    expect(outside('repos', ['store', 'model'], ['config'])).toEqual([]);
  });

  it('keep the fund wing over the rooms below it: its rules in the model, no ledger, catalog, views, discord or handlers', () => {
    expect(outside('fund', ['model', 'config', 'gateway-port.ts', 'store', 'repos', 'results', 'betting'])).toEqual([]);
  });

  it('give the catalog the few services it reads, never the whole context (issue 31)', () => {
    const bag = edges.filter((e) => roomOfPath(e.from) === 'catalog' && e.to === 'src/bot/context.ts');
    expect(bag.map(describeEdge)).toEqual([]);
  });

  it("write the fund's tables in its repository alone", () => {
    const writers = [...tsFiles(BOT), ...tsFiles(join(ROOT, 'commands'))]
      .filter((file) => !file.endsWith('store/migrations.ts') && !file.endsWith('fund/fund-repo.ts'))
      .filter((file) => /(INSERT INTO|UPDATE|DELETE FROM)\s+fund_/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(writers).toEqual([]);
  });

  /**
   * Services decide, views and Discord speak (decision 1930): the bet, fund and ledger services and the catalog (and
   * the settlement watcher) return outcomes; a presenter in views/, handlers/ or the composition turns them into
   * messages, handed to a service as a port where it must queue one itself (`present`).
   */
  const SETTLEMENT = 'src/bot/results/settlement.ts';
  const speaks = (e: Edge) =>
    (['betting', 'fund', 'ledger', 'catalog'].includes(roomOfPath(e.from)) || e.from === SETTLEMENT) &&
    ['views', 'discord'].includes(roomOfPath(e.to));

  it('keep the services speechless: betting, fund, ledger, catalog and settlement import no views/ and no discord/', () => {
    expect(
      [...new Set(edges.filter(speaks).map(describeEdge))].sort(),
      'services that render or speak Discord',
    ).toEqual([]);
  });

  it('name the file and the import of a service that speaks', () => {
    const edge = {
      from: 'src/bot/fund/fund-service.ts',
      to: 'src/bot/views/fund.ts',
      specifier: '../views/fund.js',
      typeOnly: true,
    };
    expect(speaks(edge)).toBe(true);
    expect(describeEdge(edge)).toBe("src/bot/fund/fund-service.ts imports '../views/fund.js' (fund → views)");
    expect(speaks({ ...edge, from: 'src/bot/handlers/fund.ts' })).toBe(false);
  });

  it("see the settlement watcher's type-only imports (its presenter answers in the model's MessageView)", () => {
    expect(edges.filter((e) => e.from === SETTLEMENT).map((e) => e.to)).toContain('src/bot/model/limits.ts');
  });

  it('keep discord.js out of betting: the bet services answer in data, not in interactions', () => {
    const discordJs = tsFiles(join(BOT, 'betting')).flatMap((file) =>
      importsOf(file)
        .filter((i) => i.specifier === 'discord.js' || i.specifier.startsWith('@discordjs/'))
        .map((i) => `${relative(ROOT, file)} imports '${i.specifier}'`),
    );
    expect(discordJs).toEqual([]);
  });
});
