import type { JobHandle } from '../jobs.js';
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

  list(req: SessionJobRequest): Promise<JobHandle<PromosResult>> {
    return this.ctx.submit('/v3/promos', SessionJobRequest, req, PromosResult, { idempotent: true });
  }

  tokens(req: PromoTokensRequest): Promise<JobHandle<PromoTokensResult>> {
    return this.ctx.submit('/v3/promo_tokens', PromoTokensRequest, req, PromoTokensResult, { idempotent: true });
  }

  /** Synchronous: whether a boost token is available for the race (POST /v2/boost_token, not deprecated). */
  boostToken(req: BoostTokenRequest): Promise<BoostTokenResult> {
    return this.ctx.post('/v2/boost_token', BoostTokenRequest, req, BoostTokenResult, { idempotent: true });
  }

  /** Synchronous promo summary of a session (POST /v2/session_promo_summary, not deprecated). */
  sessionSummary(req: SessionPromoSummaryRequest): Promise<SessionPromoSummary> {
    return this.ctx.post('/v2/session_promo_summary', SessionPromoSummaryRequest, req, SessionPromoSummary, {
      idempotent: true,
    });
  }
}
