import type { APIPromise } from '../api-promise.js';
import type { JobHandle } from '../jobs.js';
import type { RequestOptions } from '../request-options.js';
import {
  type BetResult,
  BetResult as BetResultSchema,
  type PlaceBetRequest,
  placeBetSchemaFor,
  type RacingBetRequest,
  type SportsBetRequest,
} from '../schemas/bets.js';
import {
  type StackedSrmRequest,
  StackedSrmResult,
  StackedSrmRequest as StackedSrmSchema,
} from '../schemas/stacked-srm.js';
import type { ResourceContext } from './context.js';

/** Bet placement. Every call changes state: sent at most once, then only polled. */
export class Bets {
  constructor(private readonly ctx: ResourceContext) {}

  /** POST /v3/place_bet with the category in the body (`racing` or `sports`). */
  place(req: PlaceBetRequest, options?: RequestOptions): APIPromise<JobHandle<BetResult>> {
    return this.ctx.submit(
      '/v3/place_bet',
      placeBetSchemaFor(req),
      req,
      BetResultSchema,
      { idempotent: false },
      options,
    );
  }

  /** POST /v3/place_bet, category `racing` (implied): a single runner or a same-race multi. */
  placeRacing(req: RacingBetRequest, options?: RequestOptions): APIPromise<JobHandle<BetResult>> {
    return this.place({ ...req, category: 'racing' } as PlaceBetRequest, options);
  }

  /** POST /v3/place_bet, category `sports` (implied): by market_ref (recommended) or by market and selection. */
  placeSports(req: SportsBetRequest, options?: RequestOptions): APIPromise<JobHandle<BetResult>> {
    return this.place({ ...req, category: 'sports' } as PlaceBetRequest, options);
  }

  /** POST /v3/stacked_srm (bookie_a sessions only): several same-race multis on one race, one bet id each. */
  placeStackedSrm(req: StackedSrmRequest, options?: RequestOptions): APIPromise<JobHandle<StackedSrmResult>> {
    return this.ctx.submit('/v3/stacked_srm', StackedSrmSchema, req, StackedSrmResult, { idempotent: false }, options);
  }
}
