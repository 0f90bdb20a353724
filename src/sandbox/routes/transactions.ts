// POST /v3/transactions (async): the ledger of the session's bookmaker account.
import type { Route } from '../core/http.js';
import { activeSession, checkSessionBody, submitSessionJob } from './session-job.js';
import { optionalInt } from './validate.js';

export const DEFAULT_DAYS_BACK = 7;
export const DEFAULT_LIMIT = 50;

function readPaging(body: Record<string, unknown>): { daysBack: number; limit: number } {
  return {
    daysBack: optionalInt(body, 'days_back', { positive: true }) ?? DEFAULT_DAYS_BACK,
    limit: optionalInt(body, 'limit', { positive: true }) ?? DEFAULT_LIMIT,
  };
}

export const transactionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/transactions',
    async: true,
    check: (ctx) => {
      readPaging(ctx.body);
      checkSessionBody(ctx);
    },
    handler: (ctx) => {
      const { daysBack, limit } = readPaging(ctx.body);
      const session = activeSession(ctx);
      return submitSessionJob(ctx, session, () => ctx.sb.ledger.transactions(session.account_id, daysBack, limit));
    },
  },
];
