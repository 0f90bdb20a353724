// Betting over the simulated books: POST /v3/place_bet, /v3/stacked_srm, /v3/price_check and the legacy
// synchronous /api/place_bet. Bodies are checked now; the bookmaker work (live price, money, ledger) runs in the job.
import type { Session } from '../accounts/types.js';
import type { Ctx, Route } from '../core/http.js';
import { ApiError, accepted, ok, type Reply } from '../core/reply.js';
import { sampleEnvelope } from '../core/samples.js';
import type { Bookie } from '../world/books.js';
import { hashKey, unit } from '../world/prng.js';
import { normaliseRaceType } from '../world/racing.js';
import {
  placeRacingMulti,
  placeRacingSingle,
  placeStackedSrm,
  racingPrices,
  type StackedBet,
} from '../world/racing-bets.js';
import { placeSportsBet, pricedSelections, resolveRef, resolveText } from '../world/sports-bets.js';
import { placeSportsMulti } from '../world/sports-multi.js';
import {
  activeSession,
  bad,
  betType,
  category,
  legsOf,
  priceLimits,
  promoAsk,
  raceOf,
  racingMarket,
  randomDelayMs,
  refQuery,
  requireBookieA,
  requireMarketFields,
  sportsLegsOf,
  textQuery,
  usesBonus,
} from './bet-requests.js';
import { bookmakerRules } from './bookmaker-rules.js';
import { moneySchema, optionalNumber, optionalString, read, requireMoney, requireString } from './validate.js';

const FRESH_PRICE_MS = 10_000;

interface PreparedBet {
  session: Session;
  delayMs: number | undefined;
  /** Runs at the bookmaker: returns the bet result. */
  place: () => Record<string, unknown>;
}

/**
 * The place_bet body checks that need no account, in the order prepareBet makes them: sample mode runs them so a
 * sample is refused with the same 400 as the real call.
 */
function checkBetBody(ctx: Ctx): void {
  const { sb, body } = ctx;
  requireString(body, 'session_id');
  const cat = category(body);
  if (cat === 'racing' && body.market === 'each_way')
    throw new ApiError(400, { error: 'market not supported', market: 'each_way' });
  requireMoney(body, 'stake');
  priceLimits(body);
  usesBonus(body);
  promoAsk(body);
  betType(body);
  randomDelayMs(body, 0);
  if (cat === 'racing') {
    raceOf(sb.world, body);
    if (body.is_same_event_multi === true) legsOf(body.legs, 'legs', 'market');
    else {
      requireString(body, 'runner');
      racingMarket(body);
    }
    return;
  }
  if (body.is_same_event_multi === true) {
    const epk = optionalString(body, 'epk');
    const legs = sportsLegsOf(body.legs, epk);
    if (epk === undefined && legs.some((l) => !('market_ref' in l))) {
      requireString(body, 'competition');
      requireString(body, 'event');
    }
    return;
  }
  // A market_ref is read without a book: which book's session takes it is the real call's check.
  if (body.market_ref !== undefined) refQuery(sb.world, body, null);
  else requireMarketFields(sb.world, textQuery(body, true));
}

/** Checks a place_bet body (400/404/409/422 now) and returns the work to run later. */
function prepareBet(ctx: Ctx): PreparedBet {
  const { sb, body } = ctx;
  const world = sb.world;
  const sessionId = requireString(body, 'session_id');
  const cat = category(body);
  if (cat === 'racing' && body.market === 'each_way')
    throw new ApiError(400, { error: 'market not supported', market: 'each_way' });
  const session = activeSession(sb, ctx.account, sessionId);
  const stake = requireMoney(body, 'stake');
  const rules = bookmakerRules(sb, ctx.path, sessionId);
  const limits = { ...priceLimits(body), ...(rules ? { rules } : {}) };
  const useBonus = usesBonus(body);
  const ask = promoAsk(body);
  const type = betType(body) ?? (useBonus ? 'bonus' : 'non_promo');
  const delayMs = randomDelayMs(body, unit(world.seed, 'delay', world.nowMs()));
  // The world is read again when the job runs: a reset in between must not place into the old one.
  const live = () => sb.world;

  if (cat === 'racing') {
    const race = raceOf(world, body);
    if (body.is_same_event_multi === true) {
      requireBookieA(session, 'A same-race multi');
      const legs = legsOf(body.legs, 'legs', 'market');
      return {
        session,
        delayMs,
        place: () =>
          placeRacingMulti(sb, live(), session, {
            ...limits,
            race: race.race,
            raceLabel: race.label,
            legs,
            stake,
            useBonus,
          }),
      };
    }
    const runner = requireString(body, 'runner');
    const market = racingMarket(body);
    return {
      session,
      delayMs,
      place: () =>
        placeRacingSingle(sb, live(), session, {
          ...limits,
          race: race.race,
          raceLabel: race.label,
          runner,
          market,
          stake,
          useBonus,
          betType: type,
          ask,
        }),
    };
  }
  if (body.is_same_event_multi === true) {
    requireBookieA(session, 'A same-game multi');
    const epk = optionalString(body, 'epk');
    const legs = sportsLegsOf(body.legs, epk);
    // Legs named by market and selection need the event (rule 1); market_ref legs name it themselves.
    if (epk === undefined && legs.some((l) => !('market_ref' in l))) {
      requireString(body, 'competition');
      requireString(body, 'event');
    }
    const competition = optionalString(body, 'competition');
    const event = optionalString(body, 'event');
    return {
      session,
      delayMs,
      place: () =>
        placeSportsMulti(sb, live(), session, {
          ...limits,
          ...(epk ? { epk } : {}),
          ...(competition ? { competition } : {}),
          ...(event ? { event } : {}),
          legs,
          stake,
          useBonus,
        }),
    };
  }
  if (body.market_ref !== undefined) {
    const ref = refQuery(world, body, session.bookie);
    return {
      session,
      delayMs,
      place: () => placeSportsBet(sb, live(), session, { ...limits, stake, useBonus, betType: type, ref, ask }),
    };
  }
  const text = textQuery(body, true);
  requireMarketFields(world, text);
  return {
    session,
    delayMs,
    place: () => placeSportsBet(sb, live(), session, { ...limits, stake, useBonus, betType: type, text, ask }),
  };
}

function placeBet(ctx: Ctx): Reply {
  const bet = prepareBet(ctx);
  const envelope = ctx.sb.jobs.submit({
    account: ctx.account,
    path: ctx.path,
    session: bet.session,
    callbackUrl: ctx.body.callback_url,
    work: bet.place,
    ...(bet.delayMs !== undefined ? { delayMs: bet.delayMs } : {}),
  });
  return accepted(envelope);
}

/** The older synchronous shape: placed (or refused) before the answer. */
function legacyPlaceBet(ctx: Ctx): Reply {
  const bet = prepareBet(ctx);
  const r = bet.place();
  if (r.success === true) {
    return ok({
      success: true,
      bet_id: r.bet_id,
      bookie_bet_id: `${bet.session.bookie}-${hashKey(ctx.sb.world.seed, 'bookie-bet', String(r.bet_id)).toString(10)}`,
      stake: r.stake,
      odds: r.odds,
      potential_return: r.potential_return,
      status: 'placed',
    });
  }
  const br = r.bet_result as { odds: number | null; stake: number };
  return ok({ success: false, bet_id: null, stake: br.stake, odds: br.odds, error: r.error, status: 'rejected' });
}

/** The stacked_srm body checks that need no account (sample mode runs them too). */
function checkStackedBody(ctx: Ctx): void {
  requireString(ctx.body, 'session_id');
  raceOf(ctx.sb.world, ctx.body);
  stackedBets(ctx.body);
  randomDelayMs(ctx.body, 0);
}

function stackedSrm(ctx: Ctx): Reply {
  const { sb, body } = ctx;
  const world = sb.world;
  const session = activeSession(sb, ctx.account, requireString(body, 'session_id'));
  requireBookieA(session, 'stacked_srm');
  const race = raceOf(world, body);
  const bets = stackedBets(body);
  const delayMs = randomDelayMs(body, unit(world.seed, 'delay', world.nowMs()));
  const rules = bookmakerRules(sb, ctx.path, session.session_id);
  const envelope = sb.jobs.submit({
    account: ctx.account,
    path: ctx.path,
    session,
    callbackUrl: body.callback_url,
    work: () => placeStackedSrm(sb, sb.world, session, race.race, race.label, bets, rules),
    ...(delayMs !== undefined ? { delayMs } : {}),
  });
  return accepted(envelope);
}

/** The multis of a stacked_srm body: at least two, each a whole-cent stake and two or more legs. */
function stackedBets(body: Record<string, unknown>): StackedBet[] {
  const raw = body.bets;
  if (!Array.isArray(raw) || raw.length < 2) {
    bad('bets', "Field 'bets' needs at least 2 multis; a single multi goes to /v3/place_bet with is_same_event_multi");
  }
  return raw.map((b: unknown, i: number) => {
    if (typeof b !== 'object' || b === null) bad(`bets[${i}]`, `Bet ${i + 1} must be an object {stake, legs}`);
    const bet = b as Record<string, unknown>;
    if (typeof bet.stake !== 'number' || !(bet.stake > 0))
      bad(`bets[${i}].stake`, `Bet ${i + 1} needs a positive stake`);
    const stake = read(moneySchema, bet.stake, `bets[${i}].stake`);
    const legs = legsOf(bet.legs, `bets[${i}].legs`, 'position');
    const targetOdds = optionalNumber(bet, 'target_odds', { positive: true }) ?? null;
    const type = optionalString(bet, 'bet_type');
    if (type !== undefined && type !== 'non_promo' && type !== 'bonus')
      bad(`bets[${i}].bet_type`, "bet_type must be 'non_promo' or 'bonus'");
    return { stake, legs, targetOdds, useBonus: bet.use_bonus_bet === true || type === 'bonus' };
  });
}

function sessionIdsOf(body: Record<string, unknown>): string[] {
  const ids = body.session_ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((x) => typeof x !== 'string' || x === '')) {
    throw new ApiError(400, {
      error: 'session_ids is required',
      detail: 'Send session_ids as a list of one or more session ids',
    });
  }
  return [...new Set(ids as string[])];
}

function sessionsOf(ctx: Ctx): Session[] {
  return sessionIdsOf(ctx.body).map((id) => activeSession(ctx.sb, ctx.account, id));
}

/** The price_check body checks that need no account (sample mode runs them too). */
function checkPriceCheckBody(ctx: Ctx): void {
  const { sb, body } = ctx;
  sessionIdsOf(body);
  if (category(body) === 'racing') raceOf(sb.world, body);
  else if (body.market_ref !== undefined) refQuery(sb.world, body, null);
  else textQuery(body, false);
}

function racingPriceCheck(ctx: Ctx, sessions: Session[]): Reply {
  const { sb, body } = ctx;
  const race = raceOf(sb.world, body);
  if (!race.race) throw new ApiError(404, { error: 'race_not_found', detail: `No race ${race.label}` });
  const found = race.race;
  const runner = optionalString(body, 'runner');
  const queries = sessions.map((session) => {
    const env = sb.jobs.submit({
      account: ctx.account,
      path: ctx.path,
      session,
      callbackUrl: body.callback_url,
      work: () => racingPrices(sb.world, session, found, runner),
    });
    return { session_id: session.session_id, correlation_id: env.correlation_id };
  });
  return accepted({
    status: 'pending',
    category: 'racing',
    race: { track: found.track, race_num: found.race_num, race_type: `(${found.race_type})`, date: found.date },
    queries,
  });
}

function sportsPriceCheck(ctx: Ctx, sessions: Session[]): Reply {
  const { sb, body } = ctx;
  const world = sb.world;
  const byRef = body.market_ref !== undefined;
  const ref = byRef ? refQuery(world, body, null) : undefined;
  const text = byRef ? undefined : textQuery(body, false);
  const resolve = (session: Session) => {
    const w = sb.world;
    const bookie = session.bookie as Bookie;
    if (ref && ref.refBookie !== bookie) {
      return {
        ok: false as const,
        error: `market_ref_other_book: this market_ref is from ${ref.refBookie}'s card, not ${bookie}'s`,
      };
    }
    return ref ? resolveRef(w, bookie, ref) : resolveText(w, bookie, text ?? {}, true);
  };
  const answer = (session: Session) => {
    const r = resolve(session);
    const base = { category: 'sports', session_id: session.session_id, bookie: session.bookie };
    if (!r.ok)
      return { status: 'failure', ...base, selections: [], error: r.error, ...(r.softMiss ? { soft_miss: true } : {}) };
    return { status: 'success', ...base, selections: pricedSelections(sb.world, session.bookie, r) };
  };
  const now = world.nowMs();
  const queries = sessions.map((session) => {
    // Fast path: every price of the answer was read under 10 s ago, so it comes back resolved now.
    const r = resolve(session);
    if (r.ok && r.selections.length > 0) {
      const cached = r.selections.map((sel) =>
        world.recentPrices.get(`${session.bookie}|${r.ev.epk}|${r.market.market}|${sel.slug}`),
      );
      if (cached.every((c) => c !== undefined && now - c.atMs < FRESH_PRICE_MS)) {
        const resolved = answer(session) as { selections: { price: number }[] };
        resolved.selections.forEach((s, i) => {
          s.price = (cached[i] as { price: number }).price;
        });
        return { session_id: session.session_id, correlation_id: null, ...resolved };
      }
    }
    const env = sb.jobs.submit({
      account: ctx.account,
      path: ctx.path,
      session,
      callbackUrl: body.callback_url,
      work: () => answer(session),
    });
    return { session_id: session.session_id, correlation_id: env.correlation_id };
  });
  return accepted({ status: 'pending', category: 'sports', queries });
}

function priceCheck(ctx: Ctx): Reply {
  const sessions = sessionsOf(ctx);
  return category(ctx.body) === 'racing' ? racingPriceCheck(ctx, sessions) : sportsPriceCheck(ctx, sessions);
}

function priceCheckSample(ctx: Ctx): Reply {
  const env = sampleEnvelope(ctx).body as { correlation_id: string; session_id: string };
  const queries = [{ session_id: env.session_id, correlation_id: env.correlation_id }];
  if (ctx.body?.category === 'sports') return accepted({ status: 'pending', category: 'sports', queries });
  // The racing 202 names the race it resolved, as the real one does.
  const b = ctx.body ?? {};
  const race = {
    track: typeof b.track === 'string' ? b.track : 'Flemington',
    race_num: Number.isInteger(b.race_num) ? b.race_num : 1,
    race_type: `(${normaliseRaceType(b.race_type) ?? 'R'})`,
    date: typeof b.date === 'string' ? b.date : ctx.sb.clock.today(),
  };
  return accepted({ status: 'pending', category: 'racing', race, queries });
}

function legacySample(ctx: Ctx): Reply {
  return ok({
    success: true,
    bet_id: 'sample-bet-1',
    bookie_bet_id: 'bookie_a-0000000',
    stake: typeof ctx.body?.stake === 'number' ? ctx.body.stake : 10,
    odds: 2.5,
    potential_return: 25,
    status: 'placed',
  });
}

export const bettingRoutes: Route[] = [
  { method: 'POST', path: '/v3/place_bet', write: true, async: true, check: checkBetBody, handler: placeBet },
  { method: 'POST', path: '/v3/stacked_srm', write: true, async: true, check: checkStackedBody, handler: stackedSrm },
  {
    method: 'POST',
    path: '/v3/price_check',
    async: true,
    check: checkPriceCheckBody,
    handler: priceCheck,
    sample: priceCheckSample,
  },
  {
    method: 'POST',
    path: '/api/place_bet',
    write: true,
    check: checkBetBody,
    handler: legacyPlaceBet,
    sample: legacySample,
  },
];
