// POST /v2/session_promo_summary (sync, not deprecated). The spec names the route but not its shape; the
// sandbox answers a plain count of what the session's bookmaker account holds today (docs/spec-notes.md).
import { listBonusBets } from '../accounts/bonus.js';
import { racePromos } from '../accounts/race-promos.js';
import type { Route } from '../core/http.js';
import { ok } from '../core/reply.js';
import { checkSessionBody } from './session-job.js';
import { requireString } from './validate.js';

export const sessionPromoSummaryRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v2/session_promo_summary',
    check: checkSessionBody,
    handler: (ctx) => {
      const session = ctx.sb.accounts.findSession(ctx.account, requireString(ctx.body, 'session_id'));
      const bonus = listBonusBets(ctx.sb.accounts.bookAccountOf(session));
      const now = ctx.sb.clock.nowMs();
      const races = racePromos(ctx.sb.world.upcomingMeetings(now), session.bookie, now);
      const accountPromos = ctx.sb.promos.active().filter((p) => p.account_id === session.account_id).length;
      return ok({
        success: true,
        session_id: session.session_id,
        bookie: session.bookie,
        username: session.username,
        bonus_tokens_available: bonus.bonus_bets.filter((t) => t.status === 'AVAILABLE').length,
        total_bonus: bonus.total_bonus,
        race_promos: races.count,
        account_promos: accountPromos,
      });
    },
    sample: () =>
      ok({
        success: true,
        session_id: '5e550000-0000-4000-8000-000000000001',
        bookie: 'bookie_a',
        username: 'sample_user',
        bonus_tokens_available: 2,
        total_bonus: 30,
        race_promos: 3,
        account_promos: 1,
      }),
  },
];
