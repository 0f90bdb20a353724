// Run in a fresh node process by helper-threads.test.ts (a test worker's own threads are left alone): starts libuv's
// pool, lowers the helper threads as npm start's process does, and prints each thread's nice value.
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { lowerHelperThreads, prioritiseEventLoop } from '../../src/bot/ops/helper-threads.js';

const niceOf = (id: string) => {
  const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};
const threads = () => Object.fromEntries(readdirSync('/proc/self/task').map((id) => [id, niceOf(id)]));

// Four reads at once: libuv starts its pool's threads at its first work.
await Promise.all(Array.from({ length: 4 }, () => readFile(new URL(import.meta.url))));
const mode = process.argv[2];
const logged: unknown[] = [];
const logger = { info: (...args: unknown[]) => logged.push(args) };
let first = 0;
let second = 0;
if (mode === 'lower') {
  const seen = new Set<number>();
  first = lowerHelperThreads(7, seen);
  second = lowerHelperThreads(7, seen);
} else {
  prioritiseEventLoop(Number(mode), logger, 0)();
}
process.stdout.write(JSON.stringify({ pid: process.pid, first, second, threads: threads(), logged }));
