// POST /api/bet_status: poll any mix of correlation ids; only the caller's own jobs are visible.
import type { Route } from '../core/http.js';
import { ok } from '../core/reply.js';
import { requireStringArray } from './validate.js';

export const betStatusRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/bet_status',
    check: (ctx) => {
      requireStringArray(ctx.body, 'correlation_ids');
    },
    handler: (ctx) => {
      // The spec sets no limit on the count; the 1 MB body limit bounds it (about 25,000 ids).
      const ids = requireStringArray(ctx.body, 'correlation_ids');
      return ok({ statuses: ctx.sb.jobs.status(ctx.account, ids) });
    },
    sample: (ctx) => {
      const ids: unknown[] = Array.isArray(ctx.body?.correlation_ids) ? ctx.body.correlation_ids : [];
      const now = ctx.sb.clock.nowMs();
      return ok({
        statuses: ids
          .filter((id): id is string => typeof id === 'string')
          .map((correlation_id) => ({
            correlation_id,
            status: 'completed',
            session_id: '5e550000-0000-4000-8000-000000000001',
            bookie: 'bookie_a',
            username: 'sample_user',
            submitted_at: new Date(now - 2_000).toISOString(),
            timeout_at: new Date(now + 298_000).toISOString(),
            result: { success: true },
          })),
      });
    },
  },
];
