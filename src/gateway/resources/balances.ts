import type { APIPromise } from '../api-promise.js';
import type { RequestOptions } from '../request-options.js';
import {
  type BalanceRecord,
  BalanceRecord as BalanceRecordSchema,
  BalanceRequest,
  LegacyBalance,
} from '../schemas/balances.js';
import type { ResourceContext } from './context.js';

/** Balances are synchronous reads from the gateway's cache: never polled. */
export class Balances {
  constructor(private readonly ctx: ResourceContext) {}

  /** POST /v3/balance: the session's cached balance record. */
  get(req: BalanceRequest, options?: RequestOptions): APIPromise<BalanceRecord> {
    return this.ctx.post('/v3/balance', BalanceRequest, req, BalanceRecordSchema, { idempotent: true }, options);
  }

  /** @deprecated POST /api/balance (legacy shape); use get(). */
  getLegacy(req: BalanceRequest, options?: RequestOptions): APIPromise<LegacyBalance> {
    return this.ctx.post('/api/balance', BalanceRequest, req, LegacyBalance, { idempotent: true }, options);
  }
}
