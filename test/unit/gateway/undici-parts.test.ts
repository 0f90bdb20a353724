import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

// The client requires only the parts of undici it runs (src/gateway/internal/undici.ts): importing it in a fresh
// process must not load undici's index (fetch, WebSocket, caches, mocks: about 2 MB of heap), and must leave the
// process's global dispatcher as the index would have (an undici 7 Agent when none was set).
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PROBE = `
const { createRequire } = await import('node:module');
const require = createRequire(process.cwd() + '/');
await import('./src/gateway/index.ts');
const loaded = Object.keys(require.cache).filter((f) => f.includes('/node_modules/undici/')).map((f) => f.slice(f.lastIndexOf('/node_modules/undici/') + 21));
const global = globalThis[Symbol.for('undici.globalDispatcher.1')];
const Agent = require('undici/lib/dispatcher/agent.js');
console.log(JSON.stringify({ loaded, globalIsAgent: global instanceof Agent }));
`;

let probe: { loaded: string[]; globalIsAgent: boolean };

beforeAll(async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', PROBE],
    { cwd: ROOT },
  );
  probe = JSON.parse(stdout.trim().split('\n').at(-1)!);
}, 30_000);

describe('the undici the gateway client loads', () => {
  it("is its Agent and header parser, not undici's index", () => {
    expect(probe.loaded).toContain('lib/dispatcher/agent.js');
    expect(probe.loaded.filter((f) => f === 'index.js' || f.startsWith('lib/web/'))).toEqual([]);
  });

  it('sets an undici 7 Agent as the global dispatcher, as loading the index did', () => {
    expect(probe.globalIsAgent).toBe(true);
  });
});
