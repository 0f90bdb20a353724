// Reading bet, price-check and stacked-multi bodies: every problem is a 400 (or the spec's 404/409/422)
// that names the field and says what to send. The work itself runs later, in the job.
import type { Account, Session } from '../accounts/types.js';
import { ApiError } from '../core/reply.js';
import type { Sandbox } from '../core/sandbox.js';
import { bookieOnlyFeature, isBookie, marketRefBettingEnabled } from '../world/books.js';
import { isDay } from '../world/dates.js';
import type { SimWorld } from '../world/index.js';
import { decodeMarketRef } from '../world/market-ref.js';
import type { PriceLimits } from '../world/placement.js';
import type { PromoAsk } from '../world/promo-options.js';
import { normaliseRaceType, type Race } from '../world/racing.js';
import { legPosition, type RacingLeg } from '../world/racing-bets.js';
import { checkSiteEventId } from '../world/site-event.js';
import type { RefQuery } from '../world/sports-bets.js';
import { findMarket, resolveEvent, type TextQuery } from '../world/sports-match.js';
import type { SportsLeg } from '../world/sports-multi.js';
import { optionalBool, optionalNumber, optionalString, requireInt, requireNumber, requireString } from './validate.js';

type Body = Record<string, unknown>;

const BET_TYPES = ['non_promo', 'bonus', '2', '2/3', '2/3/4', 'bonus_betboost_25pc', 'bonus_betboost_50pc', 'pump'];

export function bad(field: string, detail: string, extra: Record<string, unknown> = {}): never {
  throw new ApiError(400, { detail, field, ...extra });
}

export function activeSession(sb: Sandbox, account: Account, sessionId: string): Session {
  return sb.accounts.findSession(account, sessionId, { requireActive: true });
}

export function category(body: Body): 'racing' | 'sports' {
  // A market_ref bet is a sports bet: the spec's market_ref payload names no category.
  if ((body.category === undefined || body.category === null) && body.market_ref !== undefined) return 'sports';
  const c = requireString(body, 'category');
  if (c !== 'racing' && c !== 'sports') bad('category', `Field 'category' must be 'racing' or 'sports', got '${c}'`);
  return c;
}

export function priceLimits(body: Body): PriceLimits {
  const targetOdds = requireNumber(body, 'target_odds', { positive: true });
  const maxOdds = optionalNumber(body, 'max_odds', { positive: true }) ?? null;
  if (maxOdds !== null && maxOdds < targetOdds) {
    bad(
      'max_odds',
      `Field 'max_odds' (${maxOdds}) must be at least target_odds (${targetOdds}); send null for no ceiling`,
    );
  }
  return { targetOdds, maxOdds };
}

export function betType(body: Body): string | undefined {
  const t = optionalString(body, 'bet_type');
  if (t !== undefined && !BET_TYPES.includes(t))
    bad('bet_type', `Field 'bet_type' must be one of ${BET_TYPES.join(', ')}`);
  return t;
}

export function promoAsk(body: Body): PromoAsk {
  return {
    useBoost: optionalBool(body, 'use_boost') === true,
    betboost: optionalBool(body, 'betboost') === true,
    promoName: optionalString(body, 'promo_name'),
    skipIfNoPromo: optionalBool(body, 'skip_if_no_promo') === true,
  };
}

export function usesBonus(body: Body): boolean {
  return optionalBool(body, 'use_bonus_bet') === true || body.bet_type === 'bonus';
}

/** Sandbox ms to wait before placing (random_delay {min, max} seconds; applied only when max > 0). */
export function randomDelayMs(body: Body, draw: number): number | undefined {
  const rd = body.random_delay;
  if (rd === undefined || rd === null) return undefined;
  if (typeof rd !== 'object' || Array.isArray(rd))
    bad('random_delay', "Field 'random_delay' must be an object {min, max} in seconds");
  const min = optionalNumber(rd as Body, 'min') ?? 0;
  const max = optionalNumber(rd as Body, 'max') ?? 0;
  if (min < 0 || max < 0 || (max > 0 && max < min))
    bad('random_delay', "Field 'random_delay' needs 0 <= min <= max (seconds)");
  if (max <= 0) return undefined;
  return 300 + (min + (max - min) * draw) * 1000;
}

export interface RaceRef {
  race: Race | undefined;
  label: string;
  track: string;
  raceNum: number;
  raceType: 'R' | 'G' | 'H';
  date: string;
}

export function raceOf(world: SimWorld, body: Body): RaceRef {
  const track = requireString(body, 'track');
  const raceNum = requireInt(body, 'race_num', { positive: true });
  const raceType = normaliseRaceType(body.race_type);
  if (!raceType) bad('race_type', "Field 'race_type' must be '(R)', '(G)' or '(H)'");
  const date = requireString(body, 'date');
  if (!isDay(date)) bad('date', "Field 'date' must be a day written YYYY-MM-DD");
  const country = optionalString(body, 'country');
  return {
    race: world.race(track, raceNum, raceType, date, country),
    label: `${track} R${raceNum} (${raceType}) on ${date}`,
    track,
    raceNum,
    raceType,
    date,
  };
}

/** Multi legs: at least two, each a runner and a position (win default; top2/top3/top4; place). */
export function legsOf(value: unknown, field: string, positionKey: 'market' | 'position'): RacingLeg[] {
  if (!Array.isArray(value) || value.length < 2)
    bad(field, `Field '${field}' needs at least 2 legs, each {runner, ${positionKey}}`);
  return value.map((leg, i) => {
    if (typeof leg !== 'object' || leg === null)
      bad(`${field}[${i}]`, `Leg ${i + 1} must be an object {runner, ${positionKey}}`);
    const l = leg as Body;
    const runner = l.runner;
    if (typeof runner !== 'string' || runner.trim() === '')
      bad(`${field}[${i}].runner`, `Leg ${i + 1} needs a runner name`);
    const position = l[positionKey];
    if (position === 'each_way') throw new ApiError(400, { error: 'market not supported', market: 'each_way' });
    if (position !== undefined && !legPosition(position)) {
      bad(
        `${field}[${i}].${positionKey}`,
        `Leg ${i + 1}: '${String(position)}' is not a position; use win, place, top2, top3 or top4`,
      );
    }
    return { runner, position: typeof position === 'string' ? position : 'win' };
  });
}

export function racingMarket(body: Body): 'win' | 'place' {
  const market = requireString(body, 'market');
  if (market === 'each_way') throw new ApiError(400, { error: 'market not supported', market: 'each_way' });
  if (market !== 'win' && market !== 'place') bad('market', `Field 'market' must be 'win' or 'place', got '${market}'`);
  return market;
}

export function requireBookieA(session: Session, what: string): void {
  if (!bookieOnlyFeature(session.bookie)) {
    bad('session_id', `${what} is offered for bookie_a sessions only; this session is on ${session.bookie}`);
  }
}

/**
 * market_ref + epk + sport (+ site_event_id): checked now, so a bad token, a disabled book (422) or a
 * site_event_id conflict (409) are refused before anything is sent. `bookie` null: skip the book checks.
 */
export function refQuery(world: SimWorld, body: Body, bookie: string | null): RefQuery & { refBookie: string } {
  const marketRef = requireString(body, 'market_ref');
  const epk = requireString(body, 'epk');
  requireString(body, 'sport');
  const siteEventId = optionalString(body, 'site_event_id');
  const parts = decodeMarketRef(marketRef);
  if (!parts || !isBookie(parts.bookie)) {
    bad('market_ref', "Field 'market_ref' is not one this service issued; copy it from GET /v3/markets");
  }
  if (parts.epk !== epk) bad('market_ref', `This market_ref belongs to event '${parts.epk}', not '${epk}'`);
  if (bookie !== null && parts.bookie !== bookie) {
    bad('market_ref', `This market_ref is from ${parts.bookie}'s card; place it with a ${parts.bookie} session`);
  }
  if (bookie !== null && !marketRefBettingEnabled(bookie)) {
    throw new ApiError(422, {
      error: 'market_ref_betting_disabled',
      detail: `market_ref betting is disabled for ${bookie} (market_ref_betting_enabled is false); bet by market and selection`,
    });
  }
  const ev = world.findEvent(epk);
  if (!ev)
    throw new ApiError(404, { detail: `Unknown event '${epk}': send an event_id from GET /odds/v1/events`, epk });
  if (siteEventId !== undefined) {
    const d = checkSiteEventId(
      world.link(ev, parts.bookie),
      siteEventId,
      (id) => world.eventBySiteId(parts.bookie, id) !== undefined,
    );
    if (d.check === 'conflict') {
      throw new ApiError(409, {
        error: 'site_event_id_conflict',
        detail: `The event is linked to ${parts.bookie} event '${d.spine}', not '${siteEventId}'; drop site_event_id. Nothing was sent.`,
        spine_site_event_id: d.spine,
      });
    }
  }
  return { market_ref: marketRef, epk, site_event_id: siteEventId, refBookie: parts.bookie };
}

/** Sports text fields (rule 1): competition + event + market (+ selection, player, line, epk). */
export function textQuery(body: Body, needSelection: boolean): TextQuery {
  const q: TextQuery = {
    competition: requireString(body, 'competition'),
    event: requireString(body, 'event'),
    market: requireString(body, 'market'),
  };
  const selection = needSelection ? requireString(body, 'selection') : optionalString(body, 'selection');
  if (selection !== undefined) q.selection = selection;
  const player = optionalString(body, 'player');
  if (player !== undefined) q.player = player;
  const line = body.line;
  if (line !== undefined && line !== null) {
    if (
      !(typeof line === 'number' || (typeof line === 'string' && line.trim() !== '' && Number.isFinite(Number(line))))
    ) {
      bad('line', "Field 'line' must be a number (or a numeric string for scorer thresholds)");
    }
    q.line = line as number | string;
  }
  const epk = optionalString(body, 'epk');
  if (epk !== undefined) q.epk = epk;
  const start = optionalString(body, 'start_time_iso');
  if (start !== undefined) q.start_time_iso = start;
  return q;
}

/**
 * The sports bet table: `player` is required for player props and `line` for over/under and handicap markets
 * (an N+ selection names its line, rule 3). Which kind a market is comes from the event's cards, under our key or
 * a book's own title (rule 7); when the event does not resolve, placement reports event_not_found instead.
 */
export function requireMarketFields(world: SimWorld, q: TextQuery): void {
  const now = world.nowMs();
  const ev = resolveEvent(world.allEvents(now), q, (epk) => world.findEvent(epk), now);
  if (!ev) return;
  for (const link of ev.links) {
    const found = findMarket(world.card(ev, link.bookie), q.market ?? '');
    if (!found) continue;
    const selections = found.market.selections;
    if (!q.player && selections.some((s) => s.player !== null)) {
      bad('player', `Field 'player' is required for the player market '${q.market}': send the player's name`);
    }
    const lined = selections.some((s) => s.outcome.kind === 'line' || s.outcome.kind === 'total');
    const plusForm = /^\d+(?:\.\d+)?\+$/.test((q.selection ?? '').trim());
    if (q.line === undefined && lined && !plusForm) {
      bad(
        'line',
        `Field 'line' is required for the over/under or handicap market '${q.market}': send the line, e.g. 45.5`,
      );
    }
    return;
  }
}

/** Checks the legs now (400 naming the leg); the selections are resolved when the job runs. */
export function sportsLegsOf(value: unknown, epk: string | undefined): SportsLeg[] {
  if (!Array.isArray(value) || value.length < 2) {
    bad('legs', "Field 'legs' needs at least 2 legs, each {market_ref} or {market, selection, player?, line?}");
  }
  return value.map((leg, i): SportsLeg => {
    const field = `legs[${i}]`;
    if (typeof leg !== 'object' || leg === null || Array.isArray(leg)) {
      bad(field, `Leg ${i + 1} must be an object {market_ref} or {market, selection}`);
    }
    const l = leg as Record<string, unknown>;
    if (l.market_ref !== undefined) {
      const ref = optionalString(l, 'market_ref') ?? '';
      const parts = decodeMarketRef(ref);
      if (!parts)
        bad(`${field}.market_ref`, `Leg ${i + 1}: not a market_ref this service issued; copy it from GET /v3/markets`);
      if (parts.bookie !== 'bookie_a')
        bad(
          `${field}.market_ref`,
          `Leg ${i + 1}: the market_ref is from ${parts.bookie}'s card; same-game multis are bookie_a's`,
        );
      if (epk !== undefined && parts.epk !== epk)
        bad(`${field}.market_ref`, `Leg ${i + 1}: the market_ref belongs to another event than epk`);
      return { market_ref: ref };
    }
    const market = l.market;
    const selection = l.selection;
    if (typeof market !== 'string' || market === '')
      bad(`${field}.market`, `Leg ${i + 1} needs a market (or a market_ref)`);
    if (typeof selection !== 'string' || selection === '') bad(`${field}.selection`, `Leg ${i + 1} needs a selection`);
    const out: SportsLeg = { market, selection };
    if (typeof l.player === 'string') out.player = l.player;
    if (typeof l.line === 'number' || typeof l.line === 'string') out.line = l.line;
    return out;
  });
}
