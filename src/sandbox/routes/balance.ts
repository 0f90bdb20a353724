// Balances (sync): /v3/balance and the legacy /api/balance. Read from the cache; any owned session, even idle.
import { balanceRecord } from '../accounts/balances.js';
import type { Ctx, Route } from '../core/http.js';
import { ok } from '../core/reply.js';
import { SAMPLE_SESSION } from '../core/samples.js';
import { checkSessionBody } from './session-job.js';
import { requireString } from './validate.js';

function record(ctx: Ctx) {
  const session = ctx.sb.accounts.findSession(ctx.account, requireString(ctx.body, 'session_id'));
  return balanceRecord(session, ctx.sb.accounts.bookAccountOf(session), ctx.sb.clock.nowMs());
}

const SAMPLE_BALANCE = { balance: 125.5, bonus_balance: 25, withdrawable_balance: 100.5 };

export const balanceRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/balance',
    check: checkSessionBody,
    handler: (ctx) => ok(record(ctx)),
    sample: (ctx) => ok({ ...SAMPLE_SESSION, ...SAMPLE_BALANCE, retrieved_at: ctx.sb.clock.now().toISOString() }),
  },
  {
    method: 'POST',
    path: '/api/balance',
    check: checkSessionBody,
    handler: (ctx) => {
      const r = record(ctx);
      return ok({ bookie: r.bookie, username: r.username, balance: r.balance, bonus_balance: r.bonus_balance });
    },
    sample: () =>
      ok({
        bookie: SAMPLE_SESSION.bookie,
        username: SAMPLE_SESSION.username,
        balance: SAMPLE_BALANCE.balance,
        bonus_balance: SAMPLE_BALANCE.bonus_balance,
      }),
  },
];
