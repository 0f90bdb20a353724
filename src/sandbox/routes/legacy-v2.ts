// Deprecated v2 routes. Before the sunset (by the sandbox clock) they answer the v3 result inline with
// Deprecation/Sunset/Link headers; after it, 410. /v2/place_bet is 410 except its stacked_srm branch.
// Each inline answer runs the v3 route itself (same checks, same result) and waits for its job.

import { NO_PERMISSION } from '../accounts/errors.js';
import type { Ctx, Route } from '../core/http.js';
import type { Envelope } from '../core/jobs.js';
import { ApiError, ok, type Reply } from '../core/reply.js';
import { queryInt } from './validate.js';

export const SUNSET = new Date('2026-05-17T00:00:00Z');
export const SUNSET_HEADER = 'Sun, 17 May 2026 00:00:00 GMT';
const V2_DAYS_BACK_MAX = 30;
const V2_LIMIT_MAX = 500;

function deprecationHeaders(successor: string): Record<string, string> {
  return { Deprecation: 'true', Sunset: SUNSET_HEADER, Link: `<${successor}>; rel=successor-version` };
}

function gone(successor: string): ApiError {
  return new ApiError(410, { error: 'deprecated', use: `POST ${successor}` });
}

type Lookup = (path: string) => Route | undefined;

/** Runs the v3 route with `body` and waits for its job; the poll result (or the v3 error) answers inline. */
async function runInline(ctx: Ctx, lookup: Lookup, successor: string, body: Record<string, unknown>): Promise<unknown> {
  const route = lookup(successor);
  if (!route) throw new ApiError(503, { detail: `${successor} is not available in this sandbox build` });
  if (route.write && !ctx.account.canBet) throw new ApiError(403, NO_PERMISSION);
  const { callback_url: _ignored, ...rest } = body;
  const reply = await route.handler({ ...ctx, path: successor, body: rest });
  if (reply.status !== 202) throw new ApiError(reply.status, reply.body, reply.headers);
  const entry = await ctx.sb.jobs.settled(ctx.account, (reply.body as Envelope).correlation_id);
  if (entry.status !== 'completed') {
    throw new ApiError(504, { detail: `The bookmaker did not answer in time (job ${entry.status}); retry later` });
  }
  return entry.result;
}

function inlineRoute(
  lookup: Lookup,
  path: string,
  successor: string,
  opts: { write?: boolean; reshape?: (result: unknown) => unknown } = {},
): Route {
  return {
    method: 'POST',
    path,
    ...(opts.write ? { write: true } : {}),
    // Sample mode checks the body as the v3 route does (after the sunset the answer is 410 whatever the body).
    check: (ctx) => {
      if (ctx.sb.clock.nowMs() < SUNSET.getTime()) lookup(successor)?.check?.({ ...ctx, path: successor });
    },
    handler: async (ctx): Promise<Reply> => {
      if (ctx.sb.clock.nowMs() >= SUNSET.getTime()) throw gone(successor);
      const result = await runInline(ctx, lookup, successor, ctx.body);
      return ok(opts.reshape ? opts.reshape(result) : result, deprecationHeaders(successor));
    },
    sample: (ctx) => inlineSample(ctx, successor),
  };
}

/** Sample mode follows the real route's status: the inline result with the sunset headers, then 410. */
function inlineSample(ctx: Ctx, successor: string): Reply {
  if (ctx.sb.clock.nowMs() >= SUNSET.getTime()) throw gone(successor);
  return ok(sampleResult(successor, ctx.sb.clock.now()), deprecationHeaders(successor));
}

/** What each v3 job returns, as a sample (v2 names for the split). */
function sampleResult(successor: string, now: Date): unknown {
  const date = now.toISOString().slice(0, 10);
  const iso = now.toISOString();
  switch (successor) {
    case '/v3/transactions':
      return {
        success: true,
        transactions: [
          {
            id: 'sample-bet-1',
            type: 'bet',
            status: 'pending',
            stake: 10,
            odds: null,
            pnl: 0,
            is_bonus_bet: false,
            placed_at: iso,
            settled_at: null,
            selections: [
              { event: 'Flemington R1', selection: 'Sample Runner', market: 'win', odds: 3.5, result: 'pending' },
            ],
          },
        ],
        total_count: 1,
        has_more: false,
      };
    case '/v3/promos':
      return {
        success: true,
        promos: [
          {
            track: 'Flemington',
            race_num: 1,
            race_type: 'R',
            promo_type: '2/3',
            max_reward: 50,
            token_group_id: 'tg-sample-1',
            valid_till: iso,
            event_url: `/racing/au/flemington/${date}/race-1`,
            offer_name: 'Money back if 2nd or 3rd',
            offer_type: 'stake_back',
          },
        ],
        count: 1,
      };
    case '/v3/bonus_bets':
      return {
        success: true,
        bonus_bets: [
          {
            id: 'bt-sample-1',
            amount: 20,
            status: 'AVAILABLE',
            split_options: [2, 4, 5, 10],
            split_amounts: [10, 5, 4, 2],
            expiry: iso,
            description: '$20 bonus bet',
          },
        ],
        total_bonus: 20,
        count: 1,
      };
    case '/v3/promo_tokens':
      return {
        success: true,
        saver_tokens: [{ type: '2/3', max_reward: 20, is_race_specific: true, usage_restrictions: 'Sample race only' }],
        bonus_boost: { available: true, boost_percentage: 25, max_reward: 50 },
      };
    case '/v3/split_bonus_bet':
      return {
        success: true,
        message: 'Split into 2 pieces',
        original_amount: 20,
        new_amount: 10,
        num_pieces: 2,
        token_id: 'bt-sample-1',
      };
    default:
      return {
        success: true,
        placed: 2,
        failed: 0,
        results: [1, 2].map((n) => ({
          success: true,
          bet_id: `sample-srm-${n}`,
          odds: 6.5,
          stake: 5,
          market: 'srm',
          track: 'Flemington',
          race_num: 1,
          legs: [
            { runner: 'Sample Runner', position: 'win', number: 1, odds: 3.5, proposition_id: 'sample-prop-1' },
            { runner: 'Other Runner', position: 'top3', number: 2, odds: 1.9, proposition_id: 'sample-prop-2' },
          ],
          error: null,
        })),
      };
  }
}

/** v2 split names: new_amount and num_pieces where v3 says new_amount_per_bet and num_splits. */
export function toV2Split(result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const { new_amount_per_bet, num_splits, ...rest } = result as Record<string, unknown>;
  if (new_amount_per_bet === undefined) return rest;
  return { ...rest, new_amount: new_amount_per_bet, num_pieces: num_splits };
}

export function legacyRoutes(v3: Route[]): Route[] {
  const lookup: Lookup = (path) => v3.find((r) => r.path === path && r.method === 'POST');
  return [
    {
      method: 'POST',
      path: '/v2/place_bet',
      check: (ctx) => {
        if (ctx.body.category !== 'stacked_srm' || ctx.sb.clock.nowMs() >= SUNSET.getTime()) return;
        const { category: _category, ...body } = ctx.body as Record<string, unknown>;
        lookup('/v3/stacked_srm')?.check?.({ ...ctx, path: '/v3/stacked_srm', body });
      },
      handler: async (ctx) => {
        if (ctx.body.category !== 'stacked_srm') throw gone('/v3/place_bet');
        if (ctx.sb.clock.nowMs() >= SUNSET.getTime()) throw gone('/v3/stacked_srm');
        const { category: _category, ...body } = ctx.body as Record<string, unknown>;
        const result = await runInline(ctx, lookup, '/v3/stacked_srm', body);
        return ok(result, deprecationHeaders('/v3/stacked_srm'));
      },
      sample: (ctx) => {
        if (ctx.body.category !== 'stacked_srm') throw gone('/v3/place_bet');
        return inlineSample(ctx, '/v3/stacked_srm');
      },
    },
    {
      method: 'GET',
      path: '/v2/transactions',
      handler: async (ctx) => {
        const successor = '/v3/transactions';
        if (ctx.sb.clock.nowMs() >= SUNSET.getTime()) throw gone(successor);
        const daysBack = queryInt(ctx.query, 'days_back', { positive: true }) ?? 7;
        const limit = queryInt(ctx.query, 'limit', { positive: true }) ?? 50;
        if (daysBack > V2_DAYS_BACK_MAX) {
          throw new ApiError(400, { detail: `days_back is at most ${V2_DAYS_BACK_MAX} on v2`, field: 'days_back' });
        }
        if (limit > V2_LIMIT_MAX)
          throw new ApiError(400, { detail: `limit is at most ${V2_LIMIT_MAX} on v2`, field: 'limit' });
        const body = { session_id: ctx.query.get('session_id') ?? undefined, days_back: daysBack, limit };
        return ok(await runInline(ctx, lookup, successor, body), deprecationHeaders(successor));
      },
      sample: (ctx) => inlineSample(ctx, '/v3/transactions'),
    },
    inlineRoute(lookup, '/v2/promos', '/v3/promos'),
    inlineRoute(lookup, '/v2/bonus_bets', '/v3/bonus_bets'),
    inlineRoute(lookup, '/v2/promo_tokens', '/v3/promo_tokens'),
    inlineRoute(lookup, '/v2/split_bonus_bet', '/v3/split_bonus_bet', { write: true, reshape: toV2Split }),
  ];
}
