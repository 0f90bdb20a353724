// One full collection once the desk is up and idle: a start leaves several megabytes of garbage (module loading,
// the first listings and cards, the login) that V8 would otherwise collect in a mark-compact during the first burst
// of interactions, on the path to their acknowledgements (issue 47, figure 5). Collected here once, before anyone
// waits on the process; afterwards V8 schedules collections as usual.
// The collection also compacts (decision 2100): the start leaves the old space's pages part-used, about 7 MB of free
// space committed that a plain collection keeps and V8's memory reducer never came back for in a running desk.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../config/logger.js';

type Collect = () => void;

/** The engine's full collection: `gc` when node runs with --expose-gc, else exposed for this one call. */
export function fullCollection(): Collect {
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  try {
    // A fresh context sees the flag; the process's own global is left without `gc`.
    return runInNewContext('gc') as Collect;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** One full collection that moves the live objects off part-used pages, so those pages go back to the system. */
function compacting(collect: Collect): void {
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    collect();
  } finally {
    // Only this one: later full collections choose for themselves again.
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/** Collects the start's garbage once; says how much heap it freed. Never throws (the desk runs on without it). */
export function collectStartGarbage(logger: Pick<Logger, 'info' | 'warn'>): void {
  try {
    const before = process.memoryUsage();
    const began = performance.now();
    compacting(fullCollection());
    const ms = Math.round(performance.now() - began);
    const after = process.memoryUsage();
    const mb = (n: number) => Math.round((n / 1_048_576) * 10) / 10;
    logger.info("collected the start's garbage", {
      heapBeforeMb: mb(before.heapUsed),
      heapAfterMb: mb(after.heapUsed),
      heapTotalBeforeMb: mb(before.heapTotal),
      heapTotalAfterMb: mb(after.heapTotal),
      ms,
    });
  } catch (err) {
    logger.warn("could not collect the start's garbage", { err });
  }
}
