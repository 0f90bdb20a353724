import type { APIPromise } from '../api-promise.js';
import type { JobHandle } from '../jobs.js';
import type { RequestOptions } from '../request-options.js';
import { WithdrawalRequest, WithdrawalResult } from '../schemas/balances.js';
import type { ResourceContext } from './context.js';

export class Withdrawals {
  constructor(private readonly ctx: ResourceContext) {}

  /** POST /v3/withdraw_balance. State-changing: never resubmit after the 202; wait on the handle instead. */
  create(req: WithdrawalRequest, options?: RequestOptions): APIPromise<JobHandle<WithdrawalResult>> {
    return this.ctx.submit(
      '/v3/withdraw_balance',
      WithdrawalRequest,
      req,
      WithdrawalResult,
      { idempotent: false },
      options,
    );
  }
}
