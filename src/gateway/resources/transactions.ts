import type { APIPromise } from '../api-promise.js';
import type { JobHandle } from '../jobs.js';
import type { RequestOptions } from '../request-options.js';
import { TransactionsRequest, TransactionsResult } from '../schemas/transactions.js';
import type { ResourceContext } from './context.js';

export class Transactions {
  constructor(private readonly ctx: ResourceContext) {}

  /** POST /v3/transactions (async): the session's bets, deposits and withdrawals of the last `days_back` days. */
  list(req: TransactionsRequest, options?: RequestOptions): APIPromise<JobHandle<TransactionsResult>> {
    return this.ctx.submit(
      '/v3/transactions',
      TransactionsRequest,
      req,
      TransactionsResult,
      { idempotent: true },
      options,
    );
  }
}
