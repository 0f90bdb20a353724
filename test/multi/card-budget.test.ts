// The card budget is the API key's, not the process's: two processes reading cards on one key through one PostgreSQL
// store take their reads from one window (decision 1941), so the gateway never answers 429; two processes each
// under only their own limiter send more than the key's 120 a minute, and the gateway refuses the rest.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/bot/store/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { createDatabase } from '../pg/cluster.js';
import { type GatewayProxy, startGatewayProxy } from '../support/gateway-proxy.js';
import { until } from '../support/wait.js';

const READER = fileURLToPath(new URL('../support/card-reader.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/cli')), 'loader.mjs')).href;
/** Cards each process reads at once: each alone is under 120, the two together are over it. */
const PER_PROCESS = 90;

interface ReaderResult {
  answered: number;
  refused: number;
  rateLimited: number;
  other: string[];
}

function startReader(args: string[]): { child: ChildProcess; out: () => string } {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, READER, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  return { child, out: () => out };
}

describe('two processes on one key and one PostgreSQL store', () => {
  let sandbox: RunningSandbox;
  let proxy: GatewayProxy;
  let storeUrl: string;
  let dir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, seed: 1 });
    proxy = await startGatewayProxy(sandbox.url);
    storeUrl = await createDatabase(inject('pgAdminUrl'), 'cardbudget');
    // Migrated once here, so the readers start together.
    await (await openStore(storeUrl)).close();
    dir = mkdtempSync(join(tmpdir(), 'card-budget-'));
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await proxy?.close();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Two readers of `PER_PROCESS` distinct cards each on `apiKey`, started together; their results. */
  async function readTogether(apiKey: string, mode: 'shared' | 'alone', skip: number): Promise<ReaderResult[]> {
    const world = sandbox.sb.world;
    const now = world.nowMs();
    const pairs: [string, string][] = [];
    for (const ev of world.allEvents()) {
      if (ev.isOutright || ev.startMs < now) continue;
      for (const b of ['bookie_a', 'bookie_b', 'bookie_c']) if (world.link(ev, b).linked) pairs.push([ev.epk, b]);
    }
    const mine = pairs.slice(skip, skip + 2 * PER_PROCESS);
    expect(mine).toHaveLength(2 * PER_PROCESS);
    const readers = [0, 1].map((i) => {
      const file = join(dir, `${mode}-${i}.json`);
      writeFileSync(file, JSON.stringify(mine.slice(i * PER_PROCESS, (i + 1) * PER_PROCESS)));
      const r = startReader([storeUrl, proxy.url, apiKey, mode, file]);
      children.push(r.child);
      return r;
    });
    await until('both readers ready', () => (readers.every((r) => r.out().includes('ready')) ? true : undefined), {
      timeoutMs: 20_000,
    });
    for (const r of readers) r.child.stdin?.write('go\n');
    const lines = await until(
      'both readers done',
      () => {
        const done = readers.map((r) =>
          r
            .out()
            .split('\n')
            .find((l) => l.startsWith('{')),
        );
        return done.every(Boolean) ? (done as string[]) : undefined;
      },
      { timeoutMs: 20_000 },
    );
    return lines.map((l) => JSON.parse(l) as ReaderResult);
  }

  it("share the key's window: at most 120 reads sent between them, no 429, and the budget used", async () => {
    const before = proxy.answered('/v3/markets', 429);
    const [a, b] = await readTogether('sandbox-key-alpha', 'shared', 0);
    expect(a!.other).toEqual([]);
    expect(b!.other).toEqual([]);
    expect(a!.rateLimited + b!.rateLimited).toBe(0);
    expect(proxy.answered('/v3/markets', 429) - before).toBe(0);
    const answered = a!.answered + b!.answered;
    expect(answered).toBeLessThanOrEqual(120);
    // Nothing was lost to the sharing: the key's window was filled (some slots wait on reads still counted).
    expect(answered).toBeGreaterThanOrEqual(110);
    // The rest were refused before sending, each process's own (it could not know the other's reads otherwise).
    expect(a!.refused + b!.refused).toBe(2 * PER_PROCESS - answered);
    expect(a!.refused).toBeGreaterThan(0);
    expect(b!.refused).toBeGreaterThan(0);
  }, 40_000);

  it('each under only its own limiter, the two send more than the key allows and the gateway answers 429', async () => {
    // Another key: its own window at the gateway, untouched by the case above.
    const before = proxy.answered('/v3/markets', 429);
    const [a, b] = await readTogether('sandbox-key-bravo', 'alone', 2 * PER_PROCESS);
    expect(a!.refused + b!.refused).toBe(0);
    expect(a!.rateLimited + b!.rateLimited).toBeGreaterThan(0);
    expect(proxy.answered('/v3/markets', 429) - before).toBe(a!.rateLimited + b!.rateLimited);
    expect(a!.answered + b!.answered).toBeLessThanOrEqual(120);
  }, 40_000);
});
