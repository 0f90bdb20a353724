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

  get(req: BalanceRequest): Promise<BalanceRecord> {
    return this.ctx.post('/v3/balance', BalanceRequest, req, BalanceRecordSchema, { idempotent: true });
  }

  /** @deprecated POST /api/balance (legacy shape); use get(). */
  getLegacy(req: BalanceRequest): Promise<LegacyBalance> {
    return this.ctx.post('/api/balance', BalanceRequest, req, LegacyBalance, { idempotent: true });
  }
}
