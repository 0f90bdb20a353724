import type { JobHandle } from '../jobs.js';
import { TransactionsRequest, TransactionsResult } from '../schemas/transactions.js';
import type { ResourceContext } from './context.js';

export class Transactions {
  constructor(private readonly ctx: ResourceContext) {}

  list(req: TransactionsRequest): Promise<JobHandle<TransactionsResult>> {
    return this.ctx.submit('/v3/transactions', TransactionsRequest, req, TransactionsResult, { idempotent: true });
  }
}
