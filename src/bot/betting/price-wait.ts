import { UserFacingError } from '../model/user-facing-error.js';

interface Waitable<T> {
  wait(opts: { signal: AbortSignal }): Promise<T>;
}

/**
 * Waits for a price check's job at most `waitMs` (PRICE_CHECK_WAIT_SECONDS). A check that does not answer in time ends as a
 * sentence naming the book and what to do, logged as a warning without a stack (decision 1636): a stalled book is
 * an event to note, not a fault of the desk.
 */
export async function waitForPriceCheck<T>(job: Waitable<T>, bookie: string | undefined, waitMs: number): Promise<T> {
  try {
    return await job.wait({ signal: AbortSignal.timeout(waitMs) });
  } catch (err) {
    if ((err as Error | undefined)?.name !== 'TimeoutError') throw err;
    const at = bookie ? ` at ${bookie}` : '';
    const notice = new UserFacingError(
      `The price check${at} did not answer within ${waitMs / 1000} s; nothing was placed. Try again, or pick another book.`,
    );
    notice.log = {
      level: 'warn',
      line: 'price check did not answer in time',
      fields: { bookie, waitedMs: waitMs },
    };
    throw notice;
  }
}
