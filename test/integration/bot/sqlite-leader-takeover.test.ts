// A leader lease (or a key lock) on SQLite held by a process that was killed: the next process takes it at once instead of
// waiting out the lease (decision 1790); a holder that still runs, or runs elsewhere, keeps it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { isGoneLocalOwner } from '../../../src/bot/store/sqlite.js';
import { freshStoreUrl } from '../../pg/engines.js';
import { until } from '../../support/wait.js';

const HOLDER = fileURLToPath(new URL('../../support/lease-holder.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/cli')), 'loader.mjs')).href;
const UUID = '0b0e8c1e-3c59-4a7e-9a43-4f4b3c2d1e0f';

/** The pid of a process that ran and has exited (and was reaped). */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid as number;
}

describe('whether a SQLite lease owner is a process of this machine that is gone', () => {
  it('is gone when its process exited', async () => {
    expect(isGoneLocalOwner(`${hostname()}:${await exitedPid()}:${UUID}`)).toBe(true);
  });
  it('is not gone when its process runs (this one)', () => {
    expect(isGoneLocalOwner(`${hostname()}:${process.pid}:${UUID}`)).toBe(false);
  });
  it('is not gone when it ran on another machine, or was written in the older form', async () => {
    const pid = await exitedPid();
    expect(isGoneLocalOwner(`${hostname()}-elsewhere:${pid}:${UUID}`)).toBe(false);
    expect(isGoneLocalOwner(UUID)).toBe(false);
  });
});

/** A process holding the 'settlement' leader lease of the store at `url` (or, with `what` "lock:<key>", a key lock). */
async function leadingHolder(url: string, what = 'settlement'): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, HOLDER, url, what], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  await until('the holder to lead', () => /leader|locked/.test(out), { timeoutMs: 20_000 });
  return child;
}

describe('a SQLite leader lease or key lock whose holder was killed -9', () => {
  let url: string;
  let cleanup: () => void;
  let holder: ChildProcess | undefined;
  let store: BotStore | undefined;
  beforeEach(async () => {
    ({ url, cleanup } = await freshStoreUrl('sqlite', { migrated: true }));
  });
  afterEach(async () => {
    holder?.kill('SIGKILL');
    await store?.close();
    cleanup();
  });

  it('is taken by the next process at once, not when its 15 s run out', async () => {
    holder = await leadingHolder(url);
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    store = await openStore(url);
    const killedAt = Date.now();
    let electedAt = 0;
    const run = store.runAsLeader(
      'settlement',
      () => {
        electedAt = Date.now();
        return undefined;
      },
      { checkMs: 100 },
    );
    try {
      await until('this process to lead', () => electedAt > 0, { timeoutMs: 20_000 });
      expect(electedAt - killedAt).toBeLessThan(5_000);
    } finally {
      await run.stop();
    }
  });

  it('stays with a holder that still runs', async () => {
    holder = await leadingHolder(url);
    store = await openStore(url);
    let elected = false;
    const run = store.runAsLeader(
      'settlement',
      () => {
        elected = true;
        return undefined;
      },
      { checkMs: 100 },
    );
    await new Promise((r) => setTimeout(r, 1_500));
    await run.stop();
    expect(elected).toBe(false);
  });

  it('a key lock is taken by the next process at once, not when its 30 s run out', async () => {
    holder = await leadingHolder(url, 'lock:fund-beat:g1');
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    store = await openStore(url);
    const killedAt = Date.now();
    const lockedAt = await store.withLock('fund-beat:g1', async () => Date.now());
    expect(lockedAt - killedAt).toBeLessThan(5_000);
  });

  it('a key lock waits for a holder that still runs', async () => {
    holder = await leadingHolder(url, 'lock:fund-beat:g1');
    store = await openStore(url);
    const got = await Promise.race([
      store.withLock('fund-beat:g1', async () => 'locked'),
      new Promise((r) => setTimeout(() => r('waiting'), 1_500)),
    ]);
    expect(got).toBe('waiting');
  });
});
