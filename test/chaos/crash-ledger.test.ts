import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../pg/engines.js';
import { ledgerAgainstRecords } from './ledger-check.js';

const CHILD = fileURLToPath(new URL('./ledger-moves-child.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/cli')), 'loader.mjs')).href;

/** Runs the moving child on the store until it has moved some bets, lets it run `ms` more, then kills it -9. */
async function killMidMove(storeUrl: string, runId: string, ms: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, CHILD], {
    env: { ...process.env, STORE_URL: storeUrl, RUN_ID: runId },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr.on('data', (c: Buffer) => stderr.push(c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      if (c.toString('utf8').includes('moving')) resolve();
    });
    void exited.then(() => reject(new Error(`the moving process ended before it was killed:\n${stderr.join('')}`)));
  });
  await new Promise((r) => setTimeout(r, ms));
  child.kill('SIGKILL');
  await exited;
}

describe.each(ENGINES)('kill -9 in the middle of bet moves on %s', (engine) => {
  it('leaves the ledger with exactly the entries of the moves that committed, in an unbroken chain', async () => {
    const { url, cleanup } = await freshStoreUrl(engine);
    try {
      // Three kills at different moments, each run going on from the store the one before left.
      for (const [i, ms] of [150, 400, 900].entries()) await killMidMove(url, `r${i}`, ms);
      const store = await openStore(url);
      try {
        const [{ n } = { n: 0 }] = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM bet_records');
        expect(Number(n)).toBeGreaterThan(60);
        expect(await ledgerAgainstRecords(store)).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      cleanup();
    }
  }, 120_000);
});
