import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

// The library as a syndicate developer gets it: `npm run pack:lib`, the tarball installed into an empty project
// (--prefer-offline: from the npm cache that already holds undici and zod), imported by name from plain ESM and from
// TypeScript with the strictest flags, then the whole bet flow against the sandbox.
const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const FIXTURES = join(ROOT, 'test/integration/client/consumer');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const PACKAGE = '@syndicate-desk/gateway-client';

let sandbox: RunningSandbox;
let project: string;
let env: NodeJS.ProcessEnv;

/** The first ts example after `heading` in a README or guide, as a consumer would paste it. */
function readmeExample(file: string, heading = ''): string {
  const readme = readFileSync(file, 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error(`${file} has no ts example after "${heading}"`);
  return match[1];
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seed: 7, speed: 10, quiet: true });
  const packed = await run('npm', ['run', '--silent', 'pack:lib'], { cwd: ROOT, maxBuffer: 8 << 20 });
  const tarball = packed.stdout.trim().split('\n').at(-1)!;
  project = mkdtempSync(join(tmpdir(), 'gateway-consumer-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: project,
    maxBuffer: 8 << 20,
  });
  for (const f of ['flow.mjs', 'flow.ts']) cpSync(join(FIXTURES, f), join(project, f));
  // Node's own types come from this repository (a consumer has @types/node of its own).
  const tsconfig = JSON.parse(readFileSync(join(FIXTURES, 'tsconfig.json'), 'utf8'));
  tsconfig.compilerOptions.typeRoots = [join(ROOT, 'node_modules/@types')];
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  writeFileSync(join(project, 'readme-example.ts'), readmeExample(join(ROOT, 'docs', 'library.md')));
  // The package's own README ships in the tarball; its example must compile too.
  const shipped = join(project, 'node_modules', PACKAGE, 'README.md');
  writeFileSync(join(project, 'package-readme-example.ts'), readmeExample(shipped));
  env = { ...process.env, GATEWAY_BASE_URL: sandbox.url, GATEWAY_API_KEY: 'sandbox-key-alpha' };
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the packed library in an empty project', () => {
  it('installs with only undici and zod beside it', () => {
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const installed = Object.keys(lock.packages)
      .filter((p) => p.startsWith('node_modules/'))
      .map((p) => p.slice('node_modules/'.length));
    expect(installed.sort()).toEqual([PACKAGE, 'undici', 'zod'].sort());
  });

  it('ships built ESM with .d.ts and no TypeScript sources', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', PACKAGE, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string; import: string }>;
    };
    expect(manifest.exports['.']).toMatchObject({ types: './dist/index.d.ts', import: './dist/index.js' });
    const dts = readFileSync(join(project, 'node_modules', PACKAGE, 'dist/index.d.ts'), 'utf8');
    expect(dts).toContain('GatewayClient');
  });

  it('runs events, card, price check, bet and result from plain Node ESM', async () => {
    const { stdout } = await run(process.execPath, ['flow.mjs'], { cwd: project, env });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(out).toMatchObject({ via: 'esm', status: 202, placed: true, betId: expect.any(String) });
    expect(out.price).toEqual(expect.any(Number));
  });

  it('compiles under strict, exactOptionalPropertyTypes and noPropertyAccessFromIndexSignature, both README examples included, and runs the flow', async () => {
    const compiled = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project }).catch(
      (e: { stdout?: string }) => ({ stdout: e.stdout ?? String(e), failed: true }),
    );
    expect(compiled.stdout).toBe('');
    const { stdout } = await run(process.execPath, ['out/flow.js'], { cwd: project, env });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(out).toMatchObject({ via: 'ts', placed: true, betId: expect.any(String) });
    expect(out.price).toEqual(expect.any(Number));
  }, 120_000); // tsc over the consumer project: seconds of CPU, more on a loaded machine
});
