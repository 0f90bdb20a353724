// Figure 25: `npm start` to the playground's address when nothing changed since the last start (the build is
// skipped: dist/ is newer than every source), a fresh store each run, as a newcomer restarting the bot would.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_DIR } from '../lib/build.js';
import { type FigureResult, figure, type Target } from '../lib/figure.js';
import { median } from '../lib/stats.js';

const RUNS = 3;
export const START_TARGET: Target = { on: 'value', op: '<=', limit: 3000 };
const READY = /Offline playground: http/;

/** One `npm start`: ms from spawn to the address printed, then the process group is stopped. */
function startOnce(storeDir: string): Promise<number> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const t0 = performance.now();
  const child = spawn(npm, ['start', '--silent'], {
    cwd: REPO_DIR,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DISCORD_TOKEN: '',
      PLAYGROUND_PORT: '0',
      STORE_URL: `sqlite://${join(storeDir, 'bot.sqlite')}`,
      LOG_LEVEL: 'error',
    },
  });
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  return new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`npm start printed no address within 60 s: ${out.slice(-400)}`));
    }, 60_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      if (!READY.test(out)) return;
      clearTimeout(timer);
      const ms = performance.now() - t0;
      child.once('exit', () => resolve(ms));
      stop();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      if (!READY.test(out)) {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}) before printing its address: ${out.slice(-400)}`));
      }
    });
  });
}

export async function startUnchanged(): Promise<FigureResult[]> {
  // Brings dist/ up to date first (untimed): the figure is the start with nothing changed.
  execFileSync(process.execPath, [join(REPO_DIR, 'scripts', 'build.mjs')], { cwd: REPO_DIR, stdio: 'inherit' });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-start-'));
    try {
      times.push(await startOnce(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    figure({
      name: '25 npm start to the address, nothing changed',
      value: median(times),
      unit: 'ms',
      baseline: null,
      target: START_TARGET,
      note: `median of ${RUNS} starts (${times.map((t) => Math.round(t)).join(', ')} ms); the build is skipped when dist/ is newer than the sources`,
    }),
  ];
}
