import { UserFacingError } from '../discord/user-errors.js';

/** How long a slip's price check may take before the member is told to try again. */
export const PRICE_CHECK_WAIT_MS = 20_000;

interface Waitable<T> {
  wait(opts: { signal: AbortSignal }): Promise<T>;
}

/**
 * Waits for a price check's job at most PRICE_CHECK_WAIT_MS. A check that does not answer in time ends as a
 * sentence naming the book and what to do, logged as a warning without a stack (decision 1636): a stalled book is
 * an event to note, not a fault of the desk.
 */
export async function waitForPriceCheck<T>(job: Waitable<T>, bookie: string | undefined): Promise<T> {
  try {
    return await job.wait({ signal: AbortSignal.timeout(PRICE_CHECK_WAIT_MS) });
  } catch (err) {
    if ((err as Error | undefined)?.name !== 'TimeoutError') throw err;
    const at = bookie ? ` at ${bookie}` : '';
    const notice = new UserFacingError(
      `The price check${at} did not answer within ${PRICE_CHECK_WAIT_MS / 1000} s; nothing was placed. Try again, or pick another book.`,
    );
    notice.log = {
      level: 'warn',
      line: 'price check did not answer in time',
      fields: { bookie, waitedMs: PRICE_CHECK_WAIT_MS },
    };
    throw notice;
  }
}
