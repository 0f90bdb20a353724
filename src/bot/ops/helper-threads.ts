// The desk's event loop is what every acknowledgement, Confirm and receipt waits for. Its process also runs helper
// threads: libuv's pool (every SQLite statement, file work, DNS) and V8's (parallel and concurrent collection). On a
// machine of few cores, a helper woken for a statement can take the loop's core from it mid-turn: in figure 6's
// trace the loop's thread spent a quarter of its busy time runnable but off its core, and a statement's start (a
// call that only queues work for the pool) took a median of 40 µs on the loop where alone it takes 2–11 µs.
// Running every thread but the loop's at a higher nice value lets the loop keep its core when a helper wakes; the
// helpers run on what the loop leaves (decision 2145). Linux only; elsewhere, or where /proc is not mounted, nothing
// changes. Raising a thread's own nice value needs no privilege.
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import type { Logger } from '../config/logger.js';

/** Where Linux lists this process's threads. */
const TASKS = '/proc/self/task';

/**
 * Sets every thread of this process but the main one (the event loop's) that is below `nice` to `nice` (one already
 * at it or above, as under a service manager's Nice=, is left: lowering it back would need privilege); returns how
 * many it set. `seen` keeps the threads already looked at, for a later pass that finds new ones.
 */
export function lowerHelperThreads(nice: number, seen = new Set<number>(), tasks = TASKS): number {
  let ids: number[];
  try {
    ids = readdirSync(tasks).map(Number);
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const id of ids) {
    if (id === process.pid || seen.has(id) || !Number.isInteger(id)) continue;
    try {
      seen.add(id);
      if (getPriority(id) >= nice) continue;
      setPriority(id, nice);
      lowered++;
    } catch {
      // The thread ended between the listing and the call: nothing to set.
    }
  }
  return lowered;
}

/**
 * Lowers the helper threads now and once more `laterMs` after (libuv starts its pool at its first use, V8 some of
 * its helpers at their first collection); `nice` 0 leaves them as they are. Only for a process of the desk's own
 * (npm start's): a process that hosts the desk beside other work (a test runner) keeps its threads' priorities.
 */
export function prioritiseEventLoop(nice: number, logger: Pick<Logger, 'info'>, laterMs = 5_000): () => void {
  if (nice <= 0) return () => {};
  const seen = new Set<number>();
  const first = lowerHelperThreads(nice, seen);
  const later = setTimeout(() => {
    const more = lowerHelperThreads(nice, seen);
    if (more > 0) logger.info('helper threads run below the event loop', { nice, threads: seen.size });
  }, laterMs);
  later.unref();
  if (first > 0) logger.info('helper threads run below the event loop', { nice, threads: first });
  return () => clearTimeout(later);
}
