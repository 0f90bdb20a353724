// `npm start` runs the bot compiled: the build must emit every command next to the compiled loader and carry
// the playground's static page, and the compiled loader must find the commands as .js on plain node.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED_COMMANDS } from '../../expected-commands.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

let out: string;

beforeAll(async () => {
  // Inside the repository so the compiled files resolve node_modules as dist/ does.
  const artifacts = join(REPO, 'test-artifacts');
  mkdirSync(artifacts, { recursive: true });
  out = mkdtempSync(join(artifacts, 'build-'));
  // Emit only: `npm run typecheck` checks the types; this test is about what the build puts where.
  await run(process.execPath, [TSC, '-p', join(REPO, 'tsconfig.build.json'), '--outDir', out, '--noCheck'], {
    cwd: REPO,
  });
}, 180_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('the compiled bot', () => {
  it('loads every command as compiled .js on plain node (no tsx)', async () => {
    const loader = join(out, 'src', 'bot', 'loader.js');
    const script = `const m = await import(${JSON.stringify(pathToFileURL(loader).href)}); const c = await m.loadCommands(); console.log(JSON.stringify({ ext: m.OWN_EXTENSION, names: [...c.keys()].sort() }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO });
    const got = JSON.parse(stdout) as { ext: string; names: string[] };
    expect(got.ext).toBe('.js');
    expect(got.names).toEqual(EXPECTED_COMMANDS);
  }, 60_000);

  it('has the entry point npm start runs and the bench children', () => {
    expect(existsSync(join(out, 'src', 'bot', 'main.js'))).toBe(true);
    expect(existsSync(join(out, 'bench', 'children', 'bot-process.js'))).toBe(true);
    expect(existsSync(join(out, 'bench', 'children', 'bare-bot.js'))).toBe(true);
  });
});
