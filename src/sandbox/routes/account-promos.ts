// GET /v3/account_promos (sync): active promos on the caller's bookmaker accounts; no bookmaker is contacted.
import type { AccountPromo } from '../accounts/account-promos.js';
import type { Account } from '../accounts/types.js';
import type { Route } from '../core/http.js';
import { ApiError, ok } from '../core/reply.js';

/** The public row: internal bookkeeping removed, the caller's sessions on the account added. */
export function promoView(promo: AccountPromo, account: Account, requested?: string) {
  const { state: _state, not_placeable_reason: _reason, max_stake: _max, max_reward: _reward, ...row } = promo;
  const session_ids = account.sessions
    .filter((s) => s.account_id === promo.account_id && s.active)
    .map((s) => s.session_id);
  return { ...row, session_id: requested ?? session_ids[0] ?? null, session_ids };
}

export const accountPromoRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v3/account_promos',
    handler: (ctx) => {
      const requested = ctx.query.get('session_id') || undefined;
      const bookie = ctx.query.get('bookie') || undefined;
      const own = requested ? ctx.account.sessions.find((s) => s.session_id === requested) : undefined;
      if (requested && !own) {
        // The spec: the session must be the caller's, else 403 (an id that does not exist is not the caller's).
        throw new ApiError(403, {
          error: 'session_not_owned',
          detail: `Session '${requested}' is not one of this API key's sessions; omit session_id to list every account`,
        });
      }
      const accountIds = own ? new Set([own.account_id]) : new Set(ctx.account.sessions.map((s) => s.account_id));
      const promos = ctx.sb.promos
        .active()
        .filter((p) => accountIds.has(p.account_id) && (!bookie || p.bookie === bookie))
        .map((p) => promoView(p, ctx.account, requested));
      return ok({ success: true, count: promos.length, promos });
    },
    sample: (ctx) => {
      const date = ctx.sb.clock.today();
      const promo = {
        promo_id: 1,
        session_id: '5e550000-0000-4000-8000-000000000001',
        session_ids: ['5e550000-0000-4000-8000-000000000001'],
        account_id: '00000000-0000-4000-8000-0000000000aa',
        bookie: 'bookie_c',
        promo: 'bet_boost',
        label: 'Bet boost: Home Team to win',
        summary: { label: 'Bet boost', headline: 'Home Team to win', detail: 'Boosted from 1.90 to 2.30' },
        kind: 'sports',
        sport: 'AFL',
        competition: 'afl',
        event: 'Home Team v Away Team',
        date,
        epk: `aussie_rules/au/afl/home_team_v_away_team/${date}`,
        card_id: 'card-sample-1',
        voucher_type: 'single',
        selection: 'Home Team',
        base_odds: 1.9,
        boosted_odds: 2.3,
        placeable_by_id: true,
        how_to_bet: { endpoint: '/v3/place_promo' },
      };
      return ok({ success: true, count: 1, promos: [promo] });
    },
  },
];
