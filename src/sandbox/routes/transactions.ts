// POST /v3/transactions (async): the ledger of the session's bookmaker account.
import type { Route } from '../core/http.js';
import { activeSession, submitSessionJob } from './session-job.js';
import { optionalInt } from './validate.js';

export const DEFAULT_DAYS_BACK = 7;
export const DEFAULT_LIMIT = 50;

export const transactionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/transactions',
    async: true,
    handler: (ctx) => {
      const daysBack = optionalInt(ctx.body, 'days_back', { positive: true }) ?? DEFAULT_DAYS_BACK;
      const limit = optionalInt(ctx.body, 'limit', { positive: true }) ?? DEFAULT_LIMIT;
      const session = activeSession(ctx);
      return submitSessionJob(ctx, session, () => ctx.sb.ledger.transactions(session.account_id, daysBack, limit));
    },
  },
];
