import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Imports `entry` (a path from the repository's root) in a fresh process and answers which files of the project's own
 * undici (node_modules/undici, not the copies under discord.js's folders) it loaded, and whether the process's global
 * dispatcher is then an undici 7 Agent.
 */
export async function undiciLoadedBy(entry: string): Promise<{ loaded: string[]; globalIsAgent: boolean }> {
  const probe = `
const { createRequire } = await import('node:module');
const require = createRequire(process.cwd() + '/');
await import(${JSON.stringify(entry)});
const own = process.cwd() + '/node_modules/undici/';
const loaded = Object.keys(require.cache).filter((f) => f.startsWith(own)).map((f) => f.slice(own.length));
const global = globalThis[Symbol.for('undici.globalDispatcher.1')];
const Agent = require('undici/lib/dispatcher/agent.js');
console.log(JSON.stringify({ loaded, globalIsAgent: global instanceof Agent }));
`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', probe],
    { cwd: ROOT },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}
