import { vi } from 'vitest';

export interface UntilOptions {
  /** How long to keep trying (default 10 s). */
  timeoutMs?: number;
  /** Pause between checks (default 25 ms). */
  everyMs?: number;
  /** What the caller last saw, added to the timeout error (e.g. the message's current text). */
  seen?: () => string;
}

/**
 * Polls `check` until it gives a truthy value and returns that value. After `timeoutMs` it fails with
 * "timed out after N ms waiting for <what>", plus what `seen` reports and the last error a check threw (a check
 * that throws is tried again, as vi.waitFor does). An async check never runs again while it is still pending.
 */
export async function until<T>(
  what: string,
  check: () => T | Promise<T>,
  opts: UntilOptions = {},
): Promise<NonNullable<T>> {
  const { timeoutMs = 10_000, everyMs = 25 } = opts;
  let thrown: unknown;
  const attempt = async (): Promise<NonNullable<T>> => {
    let value: T;
    try {
      value = await check();
    } catch (error) {
      thrown = error;
      throw error;
    }
    thrown = undefined;
    if (!value) throw new Error('not yet');
    return value as NonNullable<T>;
  };
  try {
    // `npm run chaos` runs these helpers under tsx, where vi.waitFor cannot reach vitest's state.
    if (!process.env.VITEST) return await pollOutsideVitest(attempt, timeoutMs, everyMs);
    // vi.waitFor skips its tick while the previous call's promise is pending, so a slow check never overlaps
    // itself; it rejects only when the time is up.
    return await vi.waitFor(attempt, { timeout: timeoutMs, interval: everyMs });
  } catch {
    const seen = opts.seen?.();
    const last = thrown === undefined ? '' : `; the last check threw: ${(thrown as Error)?.message ?? String(thrown)}`;
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen ? `; ${seen}` : ''}${last}`);
  }
}

async function pollOutsideVitest<T>(attempt: () => Promise<T>, timeoutMs: number, everyMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
