import type { APIPromise } from '../api-promise.js';
import type { JobHandle } from '../jobs.js';
import type { RequestOptions } from '../request-options.js';
import { SessionJobRequest } from '../schemas/bonus-bets.js';
import {
  BoostTokenRequest,
  BoostTokenResult,
  PromosResult,
  PromoTokensRequest,
  PromoTokensResult,
  SessionPromoSummary,
  SessionPromoSummaryRequest,
} from '../schemas/promos.js';
import type { ResourceContext } from './context.js';

export class Promos {
  constructor(private readonly ctx: ResourceContext) {}

  /** POST /v3/promos (async): today's race promos for the session's bookmaker. */
  list(req: SessionJobRequest, options?: RequestOptions): APIPromise<JobHandle<PromosResult>> {
    return this.ctx.submit('/v3/promos', SessionJobRequest, req, PromosResult, { idempotent: true }, options);
  }

  /** POST /v3/promo_tokens (async): saver tokens and bonus boost for one race. */
  tokens(req: PromoTokensRequest, options?: RequestOptions): APIPromise<JobHandle<PromoTokensResult>> {
    return this.ctx.submit(
      '/v3/promo_tokens',
      PromoTokensRequest,
      req,
      PromoTokensResult,
      { idempotent: true },
      options,
    );
  }

  /** Synchronous: whether a boost token is available for the race (POST /v2/boost_token, not deprecated). */
  boostToken(req: BoostTokenRequest, options?: RequestOptions): APIPromise<BoostTokenResult> {
    return this.ctx.post('/v2/boost_token', BoostTokenRequest, req, BoostTokenResult, { idempotent: true }, options);
  }

  /** Synchronous promo summary of a session (POST /v2/session_promo_summary, not deprecated). */
  sessionSummary(req: SessionPromoSummaryRequest, options?: RequestOptions): APIPromise<SessionPromoSummary> {
    return this.ctx.post(
      '/v2/session_promo_summary',
      SessionPromoSummaryRequest,
      req,
      SessionPromoSummary,
      { idempotent: true },
      options,
    );
  }
}
