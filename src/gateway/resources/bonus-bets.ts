import type { APIPromise } from '../api-promise.js';
import type { JobHandle } from '../jobs.js';
import type { RequestOptions } from '../request-options.js';
import { BonusBetsResult, SessionJobRequest, SplitBonusBetRequest, SplitResult } from '../schemas/bonus-bets.js';
import type { ResourceContext } from './context.js';

export class BonusBets {
  constructor(private readonly ctx: ResourceContext) {}

  /** POST /v3/bonus_bets (async): the session's bonus tokens. */
  list(req: SessionJobRequest, options?: RequestOptions): APIPromise<JobHandle<BonusBetsResult>> {
    return this.ctx.submit('/v3/bonus_bets', SessionJobRequest, req, BonusBetsResult, { idempotent: true }, options);
  }

  /** POST /v3/split_bonus_bet (async). State-changing: splits a token; never resubmitted after the 202. */
  split(req: SplitBonusBetRequest, options?: RequestOptions): APIPromise<JobHandle<SplitResult>> {
    return this.ctx.submit(
      '/v3/split_bonus_bet',
      SplitBonusBetRequest,
      req,
      SplitResult,
      { idempotent: false },
      options,
    );
  }
}
