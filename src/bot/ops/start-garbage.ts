// One full collection once the desk is up and idle: a start leaves several megabytes of garbage (module loading,
// the first listings and cards, the login) that V8 would otherwise collect in a mark-compact during the first burst
// of interactions, on the path to their acknowledgements (issue 47, figure 5). Collected here once, before anyone
// waits on the process; afterwards V8 schedules collections as usual.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../config/logger.js';

type Collect = () => void;

/** The engine's full collection: `gc` when node runs with --expose-gc, else exposed for this one call. */
function fullCollection(): Collect {
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

/** Collects the start's garbage once; says how much heap it freed. Never throws (the desk runs on without it). */
export function collectStartGarbage(logger: Pick<Logger, 'info' | 'warn'>): void {
  try {
    const before = process.memoryUsage().heapUsed;
    fullCollection()();
    const after = process.memoryUsage().heapUsed;
    const mb = (n: number) => Math.round((n / 1_048_576) * 10) / 10;
    logger.info("collected the start's garbage", { heapBeforeMb: mb(before), heapAfterMb: mb(after) });
  } catch (err) {
    logger.warn("could not collect the start's garbage", { err });
  }
}
