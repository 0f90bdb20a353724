import { randomUUID } from 'node:crypto';
import type { APIPromise } from '../api-promise.js';
import type { JobHandle } from '../jobs.js';
import type { RequestOptions } from '../request-options.js';
import {
  AccountPromosQuery,
  AccountPromosResult,
  type PlacePromoRequest,
  PlacePromoRequest as PlacePromoSchema,
  PromoBetResult,
} from '../schemas/account-promos.js';
import type { ResourceContext } from './context.js';

/** A place_promo job handle plus the idempotency key it was sent with (keep it to resend safely). */
export type PromoJobHandle = JobHandle<PromoBetResult> & { readonly idempotencyKey: string };

export class AccountPromos {
  constructor(private readonly ctx: ResourceContext) {}

  /** GET /v3/account_promos: active promos of the key's accounts (no bookmaker is contacted). */
  list(query: AccountPromosQuery = {}, options?: RequestOptions): APIPromise<AccountPromosResult> {
    return this.ctx.get('/v3/account_promos', AccountPromosQuery, query, AccountPromosResult, options);
  }

  /**
   * POST /v3/place_promo: places a bet-boost card by id. Always sends an idempotency key (generated when absent)
   * so that a caller who resends after a lost answer gets the same job back instead of a second bet.
   */
  place(req: PlacePromoRequest, options?: RequestOptions): APIPromise<PromoJobHandle> {
    const idempotencyKey = req.idempotency_key ?? randomUUID();
    const body = { ...req, idempotency_key: idempotencyKey };
    return this.ctx
      .submit('/v3/place_promo', PlacePromoSchema, body, PromoBetResult, { idempotent: false }, options)
      .map((handle) => Object.assign(handle, { idempotencyKey }));
  }
}
