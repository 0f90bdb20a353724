// npm start's process runs its helper threads below its event loop (decision 2145). Each case runs in a fresh node
// process, so the test worker's own threads keep their priorities.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { lowerHelperThreads } from '../../../src/bot/ops/helper-threads.js';
import { TSX_LOADER } from '../../support/bot-child.js';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('../../support/helper-threads-child.ts', import.meta.url));

interface Seen {
  pid: number;
  first: number;
  second: number;
  threads: Record<string, number>;
  logged: unknown[];
}

async function child(mode: string): Promise<Seen> {
  const { stdout } = await run(process.execPath, ['--import', TSX_LOADER, CHILD, mode]);
  return JSON.parse(stdout) as Seen;
}

describe.runIf(existsSync('/proc/self/task'))('helper threads below the event loop (Linux)', () => {
  it('sets every thread but the main one to the nice value, and a second pass finds none new', async () => {
    const seen = await child('lower');
    const { [String(seen.pid)]: main, ...helpers } = seen.threads;
    expect(main).toBe(0);
    // libuv's pool (4 threads) and V8's helpers at least.
    expect(Object.keys(helpers).length).toBeGreaterThanOrEqual(5);
    expect(Object.values(helpers).every((nice) => nice === 7)).toBe(true);
    expect(seen.first).toBe(Object.keys(helpers).length);
    expect(seen.second).toBe(0);
  }, 30_000);

  it('leaves every thread where it is at nice 0, and says nothing', async () => {
    const seen = await child('0');
    expect(Object.values(seen.threads).every((nice) => nice === 0)).toBe(true);
    expect(seen.logged).toEqual([]);
  }, 30_000);

  it('says how many threads it lowered', async () => {
    const seen = await child('5');
    const helpers = Object.keys(seen.threads).length - 1;
    expect(seen.logged).toEqual([['helper threads run below the event loop', { nice: 5, threads: helpers }]]);
  }, 30_000);
});

describe('helper threads where /proc lists none', () => {
  it('sets nothing and does not throw', () => {
    expect(lowerHelperThreads(10, new Set(), '/nonexistent/task')).toBe(0);
  });
});
