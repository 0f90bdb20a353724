// Polls a condition until it holds or a deadline passes (no fixed sleeps).

export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  everyMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What `untilEvent` listens on: an emitter's on and off, whatever its event map. */
interface Emitter<E extends string, T> {
  on(event: E, listener: (e: T) => void): unknown;
  off(event: E, listener: (e: T) => void): unknown;
}

/**
 * Waits for what `pick` finds: it is asked at once with no event (to read the state as it is), then with each event
 * the emitter emits of those named, until it answers. Not on a timer, so members of a bench waiting this way add no
 * work to the process between the changes they wait for, and little when a change is not theirs.
 */
export function untilEvent<E extends string, T, R>(
  emitter: Emitter<E, T>,
  events: readonly E[],
  pick: (event?: T) => R | undefined,
  timeoutMs: number,
  what: string,
): Promise<R> {
  const now = pick();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const check = (e: T) => {
      const found = pick(e);
      if (found === undefined) return;
      done();
      resolve(found);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      for (const e of events) emitter.off(e, check);
    };
    for (const e of events) emitter.on(e, check);
  });
}
