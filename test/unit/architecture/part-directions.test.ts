// The four parts import one way (DESIGN.md, docs/contracts.md): the bot uses the gateway library through its public
// face and the shared HTTP layer; the sandbox and the local Discord never import the bot; the library imports
// nothing of the others. Only the bot's entry point (src/bot/main.ts) may start the sandbox and the local Discord
// for the offline playground. A failure names the file and the import.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

type Part = 'bot' | 'gateway' | 'gateway internals' | 'sandbox' | 'local-discord' | 'http';

/** The part a repository path belongs to (undefined outside the four parts and the HTTP layer). */
function partOf(path: string): Part | undefined {
  const [top, part, sub] = relative(ROOT, path).split('/');
  if (top === 'commands') return 'bot';
  if (top !== 'src') return undefined;
  if (part === 'gateway') return sub === 'internal' ? 'gateway internals' : 'gateway';
  if (part === 'bot' || part === 'sandbox' || part === 'local-discord' || part === 'http') return part;
  return undefined;
}

interface Edge {
  file: string;
  specifier: string;
  from: Part;
  to: Part;
}

/** Every relative import between two parts (type-only and re-exports included), from src/ and commands/. */
function crossings(): Edge[] {
  const files = [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'commands'))];
  return files.flatMap((file) => {
    const from = partOf(file);
    if (from === undefined) return [];
    return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.flatMap(({ fileName }) => {
      if (!fileName.startsWith('.')) return [];
      const to = partOf(resolve(dirname(file), fileName));
      if (to === undefined || to === from) return [];
      return [{ file: relative(ROOT, file), specifier: fileName, from, to }];
    });
  });
}

/** Which parts each part may import. */
const ALLOWED: Record<Part, readonly Part[]> = {
  bot: ['gateway', 'http'],
  gateway: ['gateway internals'],
  'gateway internals': ['gateway'],
  sandbox: ['http'],
  'local-discord': ['http'],
  http: [],
};

/** The bot's entry point starts the offline playground: the sandbox and the local Discord, by their entry points. */
const PLAYGROUND = { file: 'src/bot/main.ts', parts: ['sandbox', 'local-discord'] as Part[] };

const describeEdge = (e: Edge) => `${e.file} imports '${e.specifier}' (${e.from} → ${e.to})`;

describe('the four parts import one way', () => {
  const edges = crossings();
  const broken = (from: Part) =>
    edges
      .filter((e) => e.from === from && !ALLOWED[from].includes(e.to))
      .filter((e) => !(e.file === PLAYGROUND.file && PLAYGROUND.parts.includes(e.to)))
      .map(describeEdge);

  it('reads the imports between parts, commands/ counted as the bot', () => {
    expect(edges).toContainEqual(expect.objectContaining({ file: 'src/bot/main.ts', to: 'sandbox' }));
    expect(partOf(join(ROOT, 'commands/bet.ts'))).toBe('bot');
    expect(edges).toContainEqual(expect.objectContaining({ file: 'src/gateway/client.ts', to: 'gateway internals' }));
    expect(edges).toContainEqual(expect.objectContaining({ file: 'src/bot/receiver/receiver.ts', to: 'http' }));
  });

  it('the bot uses the library through its public face and the HTTP layer (the playground aside)', () => {
    expect(broken('bot'), 'imports the bot may not make').toEqual([]);
  });

  it('the library imports nothing of the bot, the sandbox, the local Discord or the HTTP layer', () => {
    expect([...broken('gateway'), ...broken('gateway internals')], 'imports out of the library').toEqual([]);
  });

  it('the sandbox and the local Discord never import the bot (nor the library, nor each other)', () => {
    expect([...broken('sandbox'), ...broken('local-discord')], 'imports out of the sandbox or local Discord').toEqual(
      [],
    );
  });

  it('the HTTP layer is a leaf', () => {
    expect(broken('http')).toEqual([]);
  });
});
