// POST /v3/withdraw_balance (async): moves cash out of the bookmaker account.
import type { Route } from '../core/http.js';
import { sampleEnvelope } from '../core/samples.js';
import { activeSession, checkSessionBody, submitSessionJob } from './session-job.js';
import { requireMoney } from './validate.js';

export const withdrawRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/withdraw_balance',
    write: true,
    async: true,
    check: (ctx) => {
      requireMoney(ctx.body, 'amount');
      checkSessionBody(ctx);
    },
    handler: (ctx) => {
      const amount = requireMoney(ctx.body, 'amount');
      const session = activeSession(ctx);
      return submitSessionJob(ctx, session, () => ctx.sb.ledger.withdraw(session.account_id, amount), { amount });
    },
    sample: (ctx) => sampleEnvelope(ctx, { amount: typeof ctx.body?.amount === 'number' ? ctx.body.amount : 50 }),
  },
];
