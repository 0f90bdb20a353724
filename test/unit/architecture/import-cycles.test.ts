// No import loop in src/: a loop means neither module can be read, tested or moved without the other, and at
// runtime one of them sees the other half-initialised. Type-only imports count (see import-graph.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cycles, type ImportGraph, importGraph, loopIn } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../../src', import.meta.url));

function describeLoops(graph: ImportGraph, found: string[][]): string {
  return found.map((c) => `${loopIn(graph, c).join(' → ')}  (${c.length} files: ${c.join(', ')})`).join('\n');
}

describe('the import graph of src/', () => {
  const graph = importGraph(SRC);
  const found = cycles(graph);

  it('reads the real imports, type-only and re-exports included', () => {
    expect(graph.get('sandbox/index.ts')).toContain('sandbox/core/server.ts');
    expect(graph.get('sandbox/index.ts')).toContain('sandbox/accounts/fixtures.ts'); // export … from
    expect(graph.get('sandbox/core/sandbox.ts')).toContain('sandbox/world/index.ts'); // import type
  });

  it('has no loop touching src/sandbox', () => {
    const loops = found.filter((c) => c.some((f) => f.startsWith('sandbox/')));
    expect(loops, `import loops:\n${describeLoops(graph, loops)}`).toEqual([]);
  });

  it('has no loop anywhere in src/', () => {
    expect(found, `import loops:\n${describeLoops(graph, found)}`).toEqual([]);
  });
});

describe('the sandbox rooms', () => {
  const graph = importGraph(SRC);
  const importsOf = (room: string) =>
    [...graph]
      .filter(([file]) => file.startsWith(room))
      .flatMap(([file, targets]) => targets.map((t) => `${file} → ${t}`));

  it('keep the world a pure simulation: no route, HTTP type or Sandbox state in src/sandbox/world', () => {
    const http = ['sandbox/routes/', 'sandbox/core/reply.ts', 'sandbox/core/http.ts', 'sandbox/core/sandbox.ts'];
    expect(importsOf('sandbox/world/').filter((edge) => http.some((h) => edge.split(' → ')[1]!.startsWith(h)))).toEqual(
      [],
    );
  });

  it('mount the routes only from the entry point', () => {
    const intoRoutes = [...graph]
      .filter(([file]) => !file.startsWith('sandbox/routes/'))
      .flatMap(([file, targets]) => targets.filter((t) => t.startsWith('sandbox/routes/')).map(() => file));
    expect([...new Set(intoRoutes)]).toEqual(['sandbox/index.ts']);
  });
});

describe('the HTTP layer', () => {
  it('is a leaf: src/http imports nothing else from src/', () => {
    const graph = importGraph(SRC);
    expect(graph.has('http/body.ts')).toBe(true);
    const out = [...graph]
      .filter(([file]) => file.startsWith('http/'))
      .flatMap(([file, targets]) => targets.filter((t) => !t.startsWith('http/')).map((t) => `${file} → ${t}`));
    expect(out).toEqual([]);
  });
});

describe('the loop finder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it('names a loop closed by a type-only import and a re-export, and passes files off the loop', () => {
    write('a.ts', "import { b } from './b.js';\nexport const a = b;\n");
    write('b.ts', "export { c as b } from './lib/index.js';\n");
    write('lib/index.ts', "import type { A } from '../a.js';\nexport const c = 1 as unknown as A;\n");
    write('d.ts', "import { a } from './a.js';\nexport const d = a;\n");
    const graph = importGraph(dir);
    const found = cycles(graph);
    expect(found).toEqual([['a.ts', 'b.ts', 'lib/index.ts']]);
    expect(loopIn(graph, found[0]!)).toEqual(['a.ts', 'b.ts', 'lib/index.ts', 'a.ts']);
  });

  it('refuses a relative import it cannot resolve rather than dropping the edge', () => {
    const other = mkdtempSync(join(tmpdir(), 'import-graph-'));
    try {
      writeFileSync(join(other, 'a.ts'), "import { x } from './missing.js';\nexport const a = x;\n");
      expect(() => importGraph(other)).toThrow(/a\.ts imports '\.\/missing\.js'/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
