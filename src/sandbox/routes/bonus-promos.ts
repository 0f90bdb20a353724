// Bonus tokens and race promos: /v3/bonus_bets, /v3/split_bonus_bet, /v3/promos, /v3/promo_tokens (async),
// /v2/boost_token (sync). The result builders are shared with the inline v2 routes.
import { listBonusBets, splitBonusBet } from '../accounts/bonus.js';
import { boostTokenAvailable, daySaverKey, parseRaceType, promoTokens, racePromos } from '../accounts/race-promos.js';
import type { Session } from '../accounts/types.js';
import type { Ctx, Route } from '../core/http.js';
import { ApiError, ok } from '../core/reply.js';
import { nextRunningMeeting } from '../world/promo-options.js';
import { activeSession, checkSessionBody, submitSessionJob } from './session-job.js';
import { optionalString, requireInt, requireMoney, requireString } from './validate.js';

export function bonusBetsResult(ctx: Ctx, session: Session) {
  return listBonusBets(ctx.sb.accounts.bookAccountOf(session));
}

export function splitResult(ctx: Ctx, session: Session, maxAmount: number) {
  return splitBonusBet(ctx.sb.accounts.bookAccountOf(session), maxAmount);
}

export function promosResult(ctx: Ctx, session: Session) {
  const now = ctx.sb.clock.nowMs();
  return racePromos(ctx.sb.world.upcomingMeetings(now), session.bookie, now);
}

/** Validates the promo_tokens body at submit time; the returned function computes the result. */
export function promoTokensRequest(ctx: Ctx, session: Session): () => ReturnType<typeof promoTokens> {
  const { track, raceNum, raceType } = readRaceFields(ctx.body);
  const country = optionalString(ctx.body, 'country');
  return () => {
    const meeting = nextRunningMeeting(ctx.sb.world, track, raceNum, raceType, country);
    const used = ctx.sb.accounts.bookAccountOf(session).usedSavers ?? [];
    return promoTokens(meeting ? [meeting] : [], session.bookie, track, raceNum, raceType, country, (date) =>
      used.includes(daySaverKey(date)),
    );
  };
}

/** track, race_num and race_type of a promo_tokens or boost_token body. */
function readRaceFields(body: Record<string, unknown>) {
  return {
    track: requireString(body, 'track'),
    raceNum: requireInt(body, 'race_num', { positive: true }),
    raceType: parseRaceType(body.race_type),
  };
}

export const bonusPromoRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/bonus_bets',
    async: true,
    check: checkSessionBody,
    handler: (ctx) => {
      const session = activeSession(ctx);
      return submitSessionJob(ctx, session, () => bonusBetsResult(ctx, session));
    },
  },
  {
    method: 'POST',
    path: '/v3/split_bonus_bet',
    write: true,
    async: true,
    check: (ctx) => {
      requireMoney(ctx.body, 'max_amount');
      checkSessionBody(ctx);
    },
    handler: (ctx) => {
      const maxAmount = requireMoney(ctx.body, 'max_amount');
      const session = activeSession(ctx);
      return submitSessionJob(ctx, session, () => splitResult(ctx, session, maxAmount));
    },
  },
  {
    method: 'POST',
    path: '/v3/promos',
    async: true,
    check: checkSessionBody,
    handler: (ctx) => {
      const session = activeSession(ctx);
      return submitSessionJob(ctx, session, () => promosResult(ctx, session));
    },
  },
  {
    method: 'POST',
    path: '/v3/promo_tokens',
    async: true,
    check: (ctx) => {
      checkSessionBody(ctx);
      readRaceFields(ctx.body);
      optionalString(ctx.body, 'country');
    },
    handler: (ctx) => {
      const session = activeSession(ctx);
      return submitSessionJob(ctx, session, promoTokensRequest(ctx, session));
    },
  },
  {
    method: 'POST',
    path: '/v2/boost_token',
    check: (ctx) => {
      checkSessionBody(ctx);
      readRaceFields(ctx.body);
    },
    handler: (ctx) => {
      const session = activeSession(ctx);
      const { track, raceNum, raceType } = readRaceFields(ctx.body);
      const meeting = nextRunningMeeting(ctx.sb.world, track, raceNum, raceType);
      if (!meeting) {
        throw new ApiError(404, {
          error: 'race_not_found',
          detail: `No race ${track} R${raceNum} (${raceType}); use a track and race number from /v3/promos`,
        });
      }
      return ok({
        success: true,
        boost_token_available: boostTokenAvailable(session.bookie, meeting.date, meeting.track, raceNum),
      });
    },
    sample: () => ok({ success: true, boost_token_available: true }),
  },
];
