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
  ['discord', 'loader.ts'],
  ['ledger'],
  ['outbox'],
  ['receiver'],
  ['jobs'],
  ['settings'],
  ['catalog'],
  ['accounts'],
  ['betting'],
  ['analytics'],
  ['fund'],
  ['watch'],
  ['audit'],
  ['context.ts', 'index.ts', 'main.ts', 'controls.ts', 'owners.ts', 'commands'],
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
function botEdges(within = false): Edge[] {
  const files = [...tsFiles(BOT), ...tsFiles(join(ROOT, 'commands'))];
  return files.flatMap((file) =>
    importsOf(file).flatMap(({ specifier, typeOnly }) => {
      if (!specifier.startsWith('.')) return [];
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      const from = roomOf(file);
      const to = roomOf(target);
      if (to === undefined || (from === to && !within)) return [];
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
    const deps = edges.filter((e) => e.from === 'src/bot/betting/reads.ts');
    expect(deps).toContainEqual(expect.objectContaining({ to: 'src/bot/accounts/index.ts', typeOnly: true }));
    const main = edges.filter((e) => e.from === 'src/bot/main.ts' && e.to === 'src/bot/index.ts');
    expect(main.length).toBeGreaterThan(0);
  });

  /**
   * Type-only imports included: a wing's handlers name what they are handed as their wing's deps (e.g.
   * `betting/deps.ts`), never the composition's whole context, which only the composition and commands/ see.
   */
  it('import only downward (or sideways within a layer), type-only imports included', () => {
    const upward = edges.filter((e) => rankOf(roomOfPath(e.to)) > rankOf(roomOfPath(e.from)));
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

  it('keep the store free of every wing: engines and migrations import only the model, config and ops', () => {
    expect(outside('store', ['model', 'config', 'ops'])).toEqual([]);
  });

  /**
   * Each wing has a face (`<wing>/index.ts`, decision 2000): another wing or a floor imports only that, never a
   * wing's repository, service or view file, type imports included. The composition (`index.ts`, `context.ts`,
   * `controls.ts`, `owners.ts`, `main.ts`) and the command files build the wings and see their insides.
   */
  it('enter a wing only through its face, type imports included', () => {
    expect(facedEntries(edges).map(describeEdge)).toEqual([]);
  });

  it('name the file and the import of a wing entered through its side door', () => {
    const door = {
      from: 'src/bot/watch/engine.ts',
      to: 'src/bot/betting/placement.ts',
      specifier: '../betting/placement.js',
      typeOnly: true,
    };
    expect(facedEntries([door]).map(describeEdge)).toEqual([
      "src/bot/watch/engine.ts imports '../betting/placement.js' (watch → betting)",
    ]);
    expect(facedEntries([{ ...door, to: 'src/bot/betting/index.ts' }])).toEqual([]);
    expect(facedEntries([{ ...door, from: 'src/bot/controls.ts' }])).toEqual([]);
  });

  it("never import a wing's own face from inside it (a face re-exports its files: that would be a loop)", () => {
    const files = [...tsFiles(BOT)].filter((f) => WINGS.includes(roomOf(f) ?? ''));
    const inward = files.flatMap((file) =>
      importsOf(file)
        .filter(({ specifier }) => specifier.startsWith('.'))
        .filter(({ specifier }) => {
          const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
          return roomOf(target) === roomOf(file) && target === join(BOT, roomOf(file)!, 'index.ts');
        })
        .map(({ specifier }) => `${relative(ROOT, file)} imports '${specifier}'`),
    );
    expect(inward).toEqual([]);
  });

  it("write the fund's tables in its repository (and the strike it runs) alone", () => {
    const writers = [...tsFiles(BOT), ...tsFiles(join(ROOT, 'commands'))]
      .filter(
        (file) =>
          !file.endsWith('store/migrations.ts') &&
          !file.endsWith('fund/fund-repo.ts') &&
          !file.endsWith('fund/strike.ts'),
      )
      .filter((file) => /(INSERT INTO|UPDATE|DELETE FROM)\s+fund_/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(writers).toEqual([]);
  });

  /**
   * Services decide, views and Discord speak (decision 1930): inside a wing, only the files under its `views/` and
   * `handlers/` folders may import discord/ or discord.js, or a view; every other file (its services,
   * repositories, model) returns outcomes, and a presenter is handed in as a port where it must queue a message.
   */
  it('keep the services speechless: no wing file outside views/ and handlers/ imports discord/, discord.js or a view', () => {
    expect(speakingServices(botEdges(true)).sort(), 'services that render or speak Discord').toEqual([]);
  });

  it('name the file and the import of a service that speaks', () => {
    const edge = {
      from: 'src/bot/fund/fund-service.ts',
      to: 'src/bot/fund/views/fund.ts',
      specifier: './views/fund.js',
      typeOnly: true,
    };
    expect(speakingServices([edge])).toEqual(["src/bot/fund/fund-service.ts imports './views/fund.js'"]);
    expect(speakingServices([{ ...edge, from: 'src/bot/fund/handlers/fund.ts' }])).toEqual([]);
    expect(speakingServices([{ ...edge, to: 'src/bot/discord/custom-id.ts' }])).toHaveLength(1);
  });
});

/** Wings (decision 2000): a capability's folder with a face. The rest are floors every wing may use directly. */
const WINGS = [
  'accounts',
  'analytics',
  'audit',
  'betting',
  'catalog',
  'fund',
  'jobs',
  'ledger',
  'outbox',
  'receiver',
  'settings',
  'watch',
];
const COMPOSITION = ['context.ts', 'index.ts', 'main.ts', 'controls.ts', 'owners.ts', 'commands'];

/** Imports from a wing or a floor into another wing's file other than its face. */
function facedEntries(edges: readonly Edge[]): Edge[] {
  return edges.filter((e) => {
    const from = roomOfPath(e.from);
    const to = roomOfPath(e.to);
    if (!WINGS.includes(to) || from === to || COMPOSITION.includes(from)) return false;
    return e.to !== `src/bot/${to}/index.ts`;
  });
}

/** A wing file's path inside its wing: `fund-service.ts`, `views/fund.ts`. */
const inWing = (path: string) => path.split('/').slice(3);
const speaksFrom = (path: string) => {
  const inner = inWing(path);
  return WINGS.includes(roomOfPath(path)) && !['views', 'handlers'].includes(inner[0] ?? '') && inner.length >= 1;
};
const isView = (path: string) => {
  const inner = inWing(path);
  return (
    roomOfPath(path) === 'discord' ||
    (WINGS.includes(roomOfPath(path)) && ['views', 'handlers'].includes(inner[0] ?? ''))
  );
};

/** Service files importing discord/, a view or a handler, and any wing file outside views/ and handlers/ importing discord.js. */
function speakingServices(edges: readonly Edge[]): string[] {
  const viaEdges = edges
    .filter((e) => speaksFrom(e.from) && !e.from.endsWith('/index.ts') && isView(e.to))
    // The outbox is the one service whose job is to send: it holds the poster (discord/poster.ts, the REST port).
    .filter((e) => !(e.from === 'src/bot/outbox/outbox.ts' && e.to === 'src/bot/discord/poster.ts'))
    .map((e) => `${e.from} imports '${e.specifier}'`);
  const viaPackage = edges.length > 3 ? discordJsImporters() : [];
  return [...new Set([...viaEdges, ...viaPackage])];
}

function discordJsImporters(): string[] {
  return tsFiles(BOT)
    .filter((file) => speaksFrom(relative(ROOT, file)) && !file.endsWith('/index.ts'))
    .flatMap((file) =>
      importsOf(file)
        .filter((i) => i.specifier === 'discord.js' || i.specifier.startsWith('@discordjs/'))
        .map((i) => `${relative(ROOT, file)} imports '${i.specifier}'`),
    );
}
