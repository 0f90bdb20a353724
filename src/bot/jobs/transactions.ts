import type { Transaction, TransactionsResult } from '../../gateway/index.js';
import type { GatewayPort } from '../gateway-port.js';

const DAY_MS = 86_400_000;
const TX_WAIT_MS = 60_000;
/** The largest read: v3 sets no maximum, v2 allowed 500 rows and 30 days. */
const MAX_LIMIT = 2_000;

export interface TransactionsRead {
  transactions: Transaction[];
  /** False when the gateway said more rows exist beyond the largest read (the oldest may be missing). */
  complete: boolean;
}

/**
 * A session's transactions reaching back to `sinceMs`: days_back covers the oldest bet asked about, and
 * the limit doubles while the gateway says it has more and the oldest row read is still newer than that.
 * v3 transactions have no cursor, so a longer read is the only way to page back.
 */
export async function readTransactionsSince(
  gateway: GatewayPort,
  sessionId: string,
  sinceMs: number,
  now: number,
  opts: { callbackUrl?: string | undefined; minLimit?: number } = {},
): Promise<TransactionsRead | undefined> {
  const daysBack = Math.max(1, Math.ceil((now - sinceMs) / DAY_MS) + 1);
  let limit = Math.max(50, opts.minLimit ?? 200);
  for (;;) {
    const handle = await gateway.transactions.list({
      session_id: sessionId,
      days_back: daysBack,
      limit,
      ...(opts.callbackUrl ? { callback_url: opts.callbackUrl } : {}),
    });
    const outcome = await handle.wait({ signal: AbortSignal.timeout(TX_WAIT_MS) });
    if (outcome.status !== 'completed') return undefined;
    const result = outcome.result as TransactionsResult;
    const txs = result.transactions ?? [];
    const oldest = Math.min(...txs.map((t) => Date.parse(String(t.placed_at ?? ''))).filter(Number.isFinite));
    const reachesBack = !(oldest > sinceMs);
    if (!result.has_more || reachesBack) return { transactions: txs, complete: true };
    if (limit >= MAX_LIMIT) return { transactions: txs, complete: false };
    limit = Math.min(MAX_LIMIT, limit * 2);
  }
}
