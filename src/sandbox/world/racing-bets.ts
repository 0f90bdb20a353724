// Racing at the bookmaker (job time): singles, same-race multis, stacked multis and price checks.

import type { AccountPromo } from '../accounts/account-promos.js';
import type { Session } from '../accounts/types.js';
import { dollarsText, priceText, roundPrice } from '../core/money.js';
import type { SimWorld } from './index.js';
import {
  accountRefusal,
  type BetBooks,
  type BookmakerRules,
  betFailure,
  betSuccess,
  commitBet,
  movedPrice,
  type PriceLimits,
  priceRefusal,
} from './placement.js';
import { hashKey } from './prng.js';
import { decideRacingPromos, type PromoAsk } from './promo-options.js';
import { findRunner, placesPaid, type Race, type Runner } from './racing.js';

/** Leg positions of a same-race multi: how many places the runner may finish within. */
const POSITIONS: Record<string, { name: string; within: number }> = {
  win: { name: 'win', within: 1 },
  top2: { name: 'top2', within: 2 },
  '2nd': { name: 'top2', within: 2 },
  top3: { name: 'top3', within: 3 },
  '3rd': { name: 'top3', within: 3 },
  top4: { name: 'top4', within: 4 },
  '4th': { name: 'top4', within: 4 },
};

export function legPosition(text: unknown, race?: Race): { name: string; within: number } | null {
  const t = typeof text === 'string' ? text.trim().toLowerCase() : text === undefined ? 'win' : '';
  if (t === 'place') return { name: 'place', within: race ? placesPaid(race) : 3 };
  return POSITIONS[t] ?? null;
}

export interface RacingLeg {
  runner: string;
  position: string;
}

/** Price of one leg: the win price scaled down for the places it may finish within. */
function legPrice(world: SimWorld, bookie: string, race: Race, runner: Runner, within: number, nowMs: number): number {
  const win = world.racePrice(bookie, race, runner.number, 'win', nowMs);
  return within === 1 ? win : Math.max(1.01, roundPrice(1 + (win - 1) / (within * 0.95)));
}

type PricedMulti =
  | { ok: true; odds: number; legs: { runner: Runner; position: string; within: number; odds: number }[] }
  | { ok: false; error: string };

/** Prices a same-race multi: the legs' product less a correlation discount. */
export function priceMulti(
  world: SimWorld,
  bookie: string,
  race: Race,
  legs: RacingLeg[],
  rules?: BookmakerRules,
): PricedMulti {
  const now = world.nowMs();
  const priced: { runner: Runner; position: string; within: number; odds: number }[] = [];
  for (const leg of legs) {
    const runner = findRunner(race, leg.runner);
    if (!runner)
      return { ok: false, error: `runner_not_found: '${leg.runner}' is not in ${race.track} R${race.race_num}` };
    if (priced.some((p) => p.runner.number === runner.number)) {
      return { ok: false, error: `duplicate_runner: ${runner.name} appears twice in one multi` };
    }
    const pos = legPosition(leg.position, race);
    if (!pos) return { ok: false, error: `position_unknown: '${leg.position}'; use win, top2, top3 or top4` };
    priced.push({
      runner,
      position: pos.name,
      within: pos.within,
      odds: legPrice(world, bookie, race, runner, pos.within, now),
    });
  }
  const product = priced.reduce((a, p) => a * p.odds, 1);
  const odds = Math.max(1.01, roundPrice(product * 0.8));
  return { ok: true, odds: rules ? movedPrice(odds, { targetOdds: 0, maxOdds: null, rules }) : odds, legs: priced };
}

function raceOpen(world: SimWorld, race: Race): string | null {
  return world.nowMs() >= race.startMs ? `race_closed: ${race.track} R${race.race_num} has already jumped` : null;
}

export interface RacingSingle extends PriceLimits {
  race: Race | undefined;
  raceLabel: string;
  runner: string;
  market: 'win' | 'place';
  stake: number;
  useBonus: boolean;
  betType: string;
  ask: PromoAsk;
}

/** What a racing single writes to: the book accounts, the ledger and the account promos (tokens it may spend). */
export interface RacingBooks extends BetBooks {
  promos: { all(): AccountPromo[] };
}

export function placeRacingSingle(
  books: RacingBooks,
  world: SimWorld,
  session: Session,
  req: RacingSingle,
): Record<string, unknown> {
  const race = req.race;
  if (!race) return betFailure(`race_not_found: no race ${req.raceLabel}`, req.stake, null);
  const closed = raceOpen(world, race);
  if (closed) return betFailure(closed, req.stake, null);
  const runner = findRunner(race, req.runner);
  if (!runner) {
    return betFailure(
      `runner_not_found: '${req.runner}' is not in ${race.track} R${race.race_num}; runners: ${race.runners.map((r) => r.name).join(', ')}`,
      req.stake,
      null,
    );
  }
  const promos = decideRacingPromos(world, {
    race,
    bookie: session.bookie,
    market: req.market,
    betType: req.betType,
    ask: req.ask,
    book: books.accounts.bookAccountOf(session),
    accountPromos: books.promos.all(),
  });
  if (!promos.ok) return betFailure(promos.error, req.stake, null);
  const refused = accountRefusal(req, req.stake);
  if (refused) return betFailure(refused.error, req.stake, null, refused.extra);
  const price = movedPrice(world.racePrice(session.bookie, race, runner.number, req.market), req);
  const betType = promos.betType ?? req.betType;
  const extra = {
    bookie: session.bookie,
    track: race.track,
    race_num: race.race_num,
    runner: runner.name,
    market: req.market,
    boosted: promos.boosted,
    bet_type: betType,
    promo_name: promos.promo,
    ...(promos.note ? { promo_note: promos.note } : {}),
  };
  const refusal = priceRefusal(price, req);
  if (refusal) return betFailure(refusal, req.stake, price, extra);
  const done = commitBet(books, world, session, {
    stake: req.stake,
    odds: price,
    useBonus: req.useBonus,
    betType,
    promoName: promos.promo,
    ...(promos.terms ? { promoTerms: promos.terms } : {}),
    raceKey: race.key,
    selections: [{ event: `${race.track} R${race.race_num}`, selection: runner.name, market: req.market, odds: price }],
    how: {
      kind: 'racing',
      raceKey: race.key,
      legs: [{ runner: runner.number, within: req.market === 'win' ? 1 : placesPaid(race) }],
    },
  });
  if (!done.ok) return betFailure(done.error, req.stake, price, extra);
  promos.consume?.();
  return betSuccess(done.betId, price, req.stake, {
    ...extra,
    is_bonus_bet: req.useBonus,
    bonus_token_id: done.bonusTokenId,
  });
}

export interface RacingMulti extends PriceLimits {
  race: Race | undefined;
  raceLabel: string;
  legs: RacingLeg[];
  stake: number;
  useBonus: boolean;
}

function legRows(race: Race, legs: { runner: Runner; position: string; odds: number }[], bookie: string, seed: number) {
  return legs.map((l) => ({
    runner: l.runner.name,
    position: l.position,
    number: l.runner.number,
    odds: l.odds,
    proposition_id: `${bookie.slice(-1)}r${hashKey(seed, 'srm-prop', race.key, l.runner.number, l.position).toString(36)}`,
  }));
}

/** A same-race multi through POST /v3/place_bet (is_same_event_multi). */
/** How a same-race multi is recorded in the ledger and settled: one selection and one settled leg per leg. */
function srmRecord(race: Race, legs: { runner: Runner; position: string; odds: number; within: number }[]) {
  return {
    betType: 'srm',
    raceKey: race.key,
    selections: legs.map((l) => ({
      event: `${race.track} R${race.race_num}`,
      selection: l.runner.name,
      market: l.position,
      odds: l.odds,
    })),
    how: {
      kind: 'racing' as const,
      raceKey: race.key,
      legs: legs.map((l) => ({ runner: l.runner.number, within: l.within })),
    },
  };
}

export function placeRacingMulti(
  books: BetBooks,
  world: SimWorld,
  session: Session,
  req: RacingMulti,
): Record<string, unknown> {
  const race = req.race;
  if (!race) return betFailure(`race_not_found: no race ${req.raceLabel}`, req.stake, null);
  const closed = raceOpen(world, race);
  if (closed) return betFailure(closed, req.stake, null);
  const refused = accountRefusal(req, req.stake);
  if (refused) return betFailure(refused.error, req.stake, null, refused.extra);
  const priced = priceMulti(world, session.bookie, race, req.legs, req.rules);
  if (!priced.ok) return betFailure(priced.error, req.stake, null);
  const extra = {
    bookie: session.bookie,
    track: race.track,
    race_num: race.race_num,
    market: 'srm',
    legs: legRows(race, priced.legs, session.bookie, world.seed),
  };
  const refusal = priceRefusal(priced.odds, req);
  if (refusal) return betFailure(refusal, req.stake, priced.odds, extra);
  const done = commitBet(books, world, session, {
    stake: req.stake,
    odds: priced.odds,
    useBonus: req.useBonus,
    ...srmRecord(race, priced.legs),
  });
  if (!done.ok) return betFailure(done.error, req.stake, priced.odds, extra);
  return betSuccess(done.betId, priced.odds, req.stake, {
    ...extra,
    is_bonus_bet: req.useBonus,
    bonus_token_id: done.bonusTokenId,
  });
}

export interface StackedBet {
  stake: number;
  legs: RacingLeg[];
  targetOdds: number | null;
  useBonus: boolean;
}

/** POST /v3/stacked_srm: price every multi first (any floor missed aborts all), allocate tokens, then place each. */
export function placeStackedSrm(
  books: BetBooks,
  world: SimWorld,
  session: Session,
  race: Race | undefined,
  raceLabel: string,
  bets: StackedBet[],
  rules?: BookmakerRules,
) {
  const abort = (error: string) => ({ success: false, placed: 0, failed: 0, results: [], error });
  if (!race) return abort(`race_not_found: no race ${raceLabel}`);
  const closed = raceOpen(world, race);
  if (closed) return abort(closed);
  if (rules?.restricted) {
    return abort(accountRefusal({ targetOdds: 0, maxOdds: null, rules }, 0)?.error ?? 'account_restricted');
  }
  const priced = bets.map((b) => priceMulti(world, session.bookie, race, b.legs, rules));
  for (const [i, p] of priced.entries()) {
    if (!p.ok) return abort(`bet ${i + 1}: ${p.error}`);
    const target = bets[i]?.targetOdds;
    if (target != null && p.odds < target) {
      return abort(
        `odds_below_target: bet ${i + 1} is priced ${priceText(p.odds)}, below its target_odds ${priceText(target)}; nothing was placed`,
      );
    }
  }
  // Bonus tokens are allocated serially before anything is placed: one missing token rejects the stack.
  const book = books.accounts.bookAccount(session.account_id);
  const tokens = new Map<number, string>();
  for (const [i, b] of bets.entries()) {
    if (!b.useBonus) continue;
    const token = book.bonusTokens
      .filter((t) => t.status === 'AVAILABLE' && ![...tokens.values()].includes(t.id) && t.amount <= b.stake + 0.005)
      .sort((x, y) => y.amount - x.amount)[0];
    if (!token)
      return abort(
        `no_bonus_token: bet ${i + 1} needs an AVAILABLE bonus token worth at most ${dollarsText(b.stake)}; nothing was placed`,
      );
    tokens.set(i, token.id);
  }
  const results = bets.map((b, i) => {
    const p = priced[i] as Extract<PricedMulti, { ok: true }>;
    const base = {
      odds: p.odds,
      stake: b.stake,
      market: 'srm',
      track: race.track,
      race_num: race.race_num,
      legs: legRows(race, p.legs, session.bookie, world.seed),
    };
    const overLimit = rules ? accountRefusal({ targetOdds: 0, maxOdds: null, rules }, b.stake) : null;
    if (overLimit) return { success: false, bet_id: null, ...base, error: overLimit.error };
    const done = commitBet(books, world, session, {
      stake: b.stake,
      odds: p.odds,
      useBonus: b.useBonus,
      ...(tokens.has(i) ? { tokenId: tokens.get(i) } : {}),
      ...srmRecord(race, p.legs),
    });
    return done.ok
      ? { success: true, bet_id: done.betId, ...base, error: null }
      : { success: false, bet_id: null, ...base, error: done.error };
  });
  const placed = results.filter((r) => r.success).length;
  return { success: placed > 0, placed, failed: results.length - placed, results };
}

/** One session's answer to a racing price check. */
export function racingPrices(world: SimWorld, session: Session, race: Race, runnerFilter: string | undefined) {
  const runners = runnerFilter
    ? [findRunner(race, runnerFilter)].filter((r): r is Runner => r !== undefined)
    : race.runners;
  const base = { category: 'racing', session_id: session.session_id, bookie: session.bookie };
  if (runners.length === 0) {
    return {
      status: 'failure',
      ...base,
      selections: [],
      error: `runner_not_found: '${runnerFilter}' is not in ${race.track} R${race.race_num}`,
    };
  }
  const now = world.nowMs();
  return {
    status: 'success',
    ...base,
    selections: runners.map((r) => ({
      runner: r.name,
      number: r.number,
      prices: [
        { market: 'win', price: world.racePrice(session.bookie, race, r.number, 'win', now) },
        { market: 'place', price: world.racePrice(session.bookie, race, r.number, 'place', now) },
      ],
    })),
  };
}
