import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TSX_LOADER = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/cli')), 'loader.mjs')).href;

/**
 * Runs a moving child (a script that prints `moving` once its first moves went through) on the store, lets it run
 * `ms` more, then kills it -9.
 */
export async function killMidMove(child: string, storeUrl: string, runId: string, ms: number): Promise<void> {
  const proc = spawn(process.execPath, ['--import', TSX_LOADER, child], {
    env: { ...process.env, STORE_URL: storeUrl, RUN_ID: runId },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  proc.stderr.on('data', (c: Buffer) => stderr.push(c.toString('utf8')));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (c: Buffer) => {
      if (c.toString('utf8').includes('moving')) resolve();
    });
    void exited.then(() => reject(new Error(`the moving process ended before it was killed:\n${stderr.join('')}`)));
  });
  await new Promise((r) => setTimeout(r, ms));
  proc.kill('SIGKILL');
  await exited;
}
