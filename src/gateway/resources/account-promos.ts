import { randomUUID } from 'node:crypto';
import type { JobHandle } from '../jobs.js';
import {
  AccountPromosQuery,
  AccountPromosResult,
  type PlacePromoRequest,
  PlacePromoRequest as PlacePromoSchema,
  PromoBetResult,
} from '../schemas/account-promos.js';
import { parseRequest } from '../validate.js';
import type { ResourceContext } from './context.js';

export class AccountPromos {
  constructor(private readonly ctx: ResourceContext) {}

  async list(query: AccountPromosQuery = {}): Promise<AccountPromosResult> {
    const q = parseRequest(AccountPromosQuery, query, 'GET /v3/account_promos');
    return this.ctx.transport.request({
      method: 'GET',
      path: '/v3/account_promos',
      query: q,
      schema: AccountPromosResult,
      idempotent: true,
    });
  }

  /**
   * Places a bet-boost card by id. Always sends an idempotency key (generated when absent) so that a caller who
   * resends after a lost answer gets the same job back instead of a second bet. Keep the key to resend safely.
   */
  async place(req: PlacePromoRequest): Promise<JobHandle<PromoBetResult> & { idempotencyKey: string }> {
    const idempotencyKey = req.idempotency_key ?? randomUUID();
    const body = { ...req, idempotency_key: idempotencyKey };
    const handle = await this.ctx.submit('/v3/place_promo', PlacePromoSchema, body, PromoBetResult, {
      idempotent: false,
    });
    return Object.assign(handle, { idempotencyKey });
  }
}
