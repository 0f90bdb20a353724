import type { JobHandle } from '../jobs.js';
import { BetResult, type PlaceBetRequest, placeBetSchemaFor } from '../schemas/bets.js';
import {
  type StackedSrmRequest,
  StackedSrmResult,
  StackedSrmRequest as StackedSrmSchema,
} from '../schemas/stacked-srm.js';
import type { ResourceContext } from './context.js';

/** Bet placement. Both calls change state: sent at most once, then only polled. */
export class Bets {
  constructor(private readonly ctx: ResourceContext) {}

  place(req: PlaceBetRequest): Promise<JobHandle<BetResult>> {
    return this.ctx.submit('/v3/place_bet', placeBetSchemaFor(req), req, BetResult, { idempotent: false });
  }

  placeStackedSrm(req: StackedSrmRequest): Promise<JobHandle<StackedSrmResult>> {
    return this.ctx.submit('/v3/stacked_srm', StackedSrmSchema, req, StackedSrmResult, { idempotent: false });
  }
}
