import type { JobHandle } from '../jobs.js';
import { BonusBetsResult, SessionJobRequest, SplitBonusBetRequest, SplitResult } from '../schemas/bonus-bets.js';
import type { ResourceContext } from './context.js';

export class BonusBets {
  constructor(private readonly ctx: ResourceContext) {}

  list(req: SessionJobRequest): Promise<JobHandle<BonusBetsResult>> {
    return this.ctx.submit('/v3/bonus_bets', SessionJobRequest, req, BonusBetsResult, { idempotent: true });
  }

  /** State-changing: splits a token; never resubmitted after the 202. */
  split(req: SplitBonusBetRequest): Promise<JobHandle<SplitResult>> {
    return this.ctx.submit('/v3/split_bonus_bet', SplitBonusBetRequest, req, SplitResult, { idempotent: false });
  }
}
