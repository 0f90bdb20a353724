// Boosts and promos a bet asks for (use_boost, betboost, bet_type, promo_name, skip_if_no_promo), decided at bet
// time from the race's promos (/v3/promos), its bonus boost and the account's tokens (decision 1970).
import type { AccountPromo } from '../accounts/account-promos.js';
import {
  bonusBoost,
  boostTokenAvailable,
  coverOf,
  DAY_SAVER,
  daySaverKey,
  findMeeting,
  type PromoCover,
  type RaceType,
  racePromos,
} from '../accounts/race-promos.js';
import type { BookAccount, PromoTerms } from '../accounts/types.js';
import { addDays } from './dates.js';
import type { SimWorld } from './index.js';
import type { RacingMeeting } from './promo-sources.js';
import type { Race } from './racing.js';

export interface PromoAsk {
  useBoost: boolean;
  betboost: boolean;
  promoName: string | undefined;
  skipIfNoPromo: boolean;
}

export type PromoDecision =
  | {
      ok: true;
      boosted: boolean;
      promo: string | null;
      /** The bet_type to record: a plain bet that took a promo by name records the promo's type. */
      betType?: string;
      terms?: PromoTerms;
      /** Spends the token the promo came from; run only once the bet is placed. */
      consume?: () => void;
      /** Why a promo the bet asked for is not attached (the bet was placed without it). */
      note?: string;
    }
  | { ok: false; error: string };

/** What a racing bet's promos are decided from. */
export interface RacingPromoRequest {
  race: Race;
  bookie: string;
  market: 'win' | 'place';
  betType: string;
  ask: PromoAsk;
  /** The session's bookmaker account: its day savers. */
  book: BookAccount;
  /** Every account promo in play (only the book account's active place_bet tokens are offered). */
  accountPromos: AccountPromo[];
}

/** One promo a bet could take. */
interface Offer {
  type: string;
  /** Names promo_name matches (lower case). */
  names: string[];
  cover: PromoCover;
  maxReward: number;
  source: PromoTerms['source'];
  /** Tokens are spent only when promo_name names them; race-wide offers cost nothing. */
  token: boolean;
  /** Why this bet cannot take it (the token's conditions); null when it can. */
  problem: string | null;
  consume?: () => void;
}

function label(race: Race): string {
  return `${race.track} R${race.race_num} on ${race.date}`;
}

const RACE_TYPE_NAME: Record<RaceType, string> = { R: 'thoroughbred', G: 'greyhound', H: 'harness' };

function placesText(places: number[]): string {
  const names = places.map((p) => `${p}${p === 2 ? 'nd' : p === 3 ? 'rd' : 'th'}`);
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

function coverText(cover: PromoCover): string {
  return cover.kind === 'refund'
    ? `stake back if ${placesText(cover.places)}`
    : `${Math.round(cover.share * 100)}% of the winnings as a bonus bet`;
}

/** Whether an offer pays what the bet asks: the places asked all refunded, or at least the share asked. */
function fits(offer: PromoCover, asked: PromoCover | null): boolean {
  if (!asked) return true;
  if (asked.kind === 'refund') return offer.kind === 'refund' && asked.places.every((p) => offer.places.includes(p));
  return offer.kind === 'bonus_share' && offer.share >= asked.share;
}

/**
 * The meeting of the next running of a race (the spec's promo_tokens and boost_token name no date): the
 * track's next racing day, or the day after when that race has already jumped.
 */
export function nextRunningMeeting(
  world: SimWorld,
  track: string,
  raceNum: number,
  raceType: RaceType,
  country?: string,
): RacingMeeting | undefined {
  const now = world.nowMs();
  const meeting = findMeeting(world.upcomingMeetings(now), track, raceNum, raceType, country);
  if (!meeting || (meeting.starts[raceNum - 1] ?? 0) > now) return meeting;
  return findMeeting(world.racingMeetings(addDays(meeting.date, 1)), track, raceNum, raceType, country);
}

/** Race-wide offers: the race's promos of /v3/promos and its bonus boost of /v3/promo_tokens. */
function raceOffers(world: SimWorld, req: RacingPromoRequest): Offer[] {
  const { race, bookie } = req;
  const out: Offer[] = [];
  for (const p of racePromos(world.racingMeetings(race.date), bookie).promos) {
    const cover = coverOf(p.promo_type);
    if (p.track !== race.track || p.race_num !== race.race_num || !cover) continue;
    out.push({
      type: p.promo_type,
      names: [p.promo_type, p.offer_type, p.offer_name].map((x) => x.toLowerCase()),
      cover,
      maxReward: p.max_reward,
      source: 'race_promo',
      token: false,
      problem: null,
    });
  }
  const boost = bonusBoost(bookie, race.track, race.race_num, race.date);
  if (boost.available) {
    const type = `bonus_betboost_${boost.boost_percentage}pc`;
    out.push({
      type,
      names: [type],
      cover: { kind: 'bonus_share', share: boost.boost_percentage / 100 },
      maxReward: boost.max_reward,
      source: 'bonus_boost',
      token: false,
      problem: null,
    });
  }
  return out;
}

/** The account's racing tokens placed through place_bet (how_to_bet names a promo_name), for this race or not. */
function accountTokens(req: RacingPromoRequest): Offer[] {
  const { race } = req;
  return req.accountPromos
    .filter((p) => p.account_id === req.book.account_id && p.state === 'active' && p.kind === 'racing')
    .flatMap((p): Offer[] => {
      const cover = coverOf(p.promo);
      if (!cover || p.how_to_bet.endpoint !== '/v3/place_bet') return [];
      const sameRace =
        p.track === race.track &&
        p.race_num === race.race_num &&
        p.date === race.date &&
        p.race_type === race.race_type;
      return [
        {
          type: p.promo,
          names: [p.promo, p.how_to_bet.promo_name].map((x) => x.toLowerCase()),
          cover,
          maxReward: p.max_reward ?? 0,
          source: 'account_promo',
          token: true,
          problem: sameRace
            ? null
            : `promo ${p.promo_id} (${p.promo}) is for ${p.track} R${p.race_num} on ${p.date}, not ${label(race)}`,
          consume: () => {
            p.state = 'used';
          },
        },
      ];
    });
}

/** The day saver of /v3/promo_tokens: a 2/3 on any thoroughbred race of its day, win bets only, used once. */
function daySaver(world: SimWorld, req: RacingPromoRequest): Offer[] {
  const { race, book } = req;
  const day = nextRunningMeeting(world, race.track, race.race_num, race.race_type)?.date;
  if (!day || book.usedSavers?.includes(daySaverKey(day))) return [];
  const saver = `the ${DAY_SAVER.type} saver token of ${day}`;
  const problem =
    race.race_type !== DAY_SAVER.race_type
      ? `${saver} is for thoroughbred races only; ${label(race)} is a ${RACE_TYPE_NAME[race.race_type]} race`
      : race.date !== day
        ? `${saver} covers thoroughbred races on ${day} only (the day /v3/promo_tokens lists it for); ${race.track} R${race.race_num} runs on ${race.date}`
        : req.market !== DAY_SAVER.market
          ? `${saver} takes win bets only; this is a ${req.market} bet`
          : null;
  return [
    {
      type: DAY_SAVER.type,
      names: [DAY_SAVER.type],
      cover: coverOf(DAY_SAVER.type) as PromoCover,
      maxReward: DAY_SAVER.max_reward,
      source: 'saver_token',
      token: true,
      problem,
      consume: () => {
        book.usedSavers = [...(book.usedSavers ?? []), daySaverKey(day)];
      },
    },
  ];
}

export function decideRacingPromos(world: SimWorld, req: RacingPromoRequest): PromoDecision {
  const { race, bookie, ask } = req;
  const boostable = boostTokenAvailable(bookie, race.date, race.track, race.race_num);
  if (ask.useBoost && !boostable) {
    return {
      ok: false,
      error: `boost_not_available: ${bookie} has no boost token for ${label(race)}; nothing was placed`,
    };
  }
  const boosted = boostable && (ask.useBoost || ask.betboost);
  const asked = coverOf(req.betType);
  const wanted = ask.promoName?.trim().toLowerCase();
  if (wanted === undefined && asked === null && !ask.skipIfNoPromo) return { ok: true, boosted, promo: null };

  // A token is spent only when promo_name names it; a free race-wide offer is taken before any token.
  const offers = [...raceOffers(world, req), ...accountTokens(req), ...daySaver(world, req)].filter((o) =>
    wanted === undefined ? !o.token : o.names.includes(wanted),
  );
  const hit = offers.find((o) => o.problem === null && fits(o.cover, asked));
  const what = ask.promoName ?? (asked ? req.betType : 'promo');
  if (!hit) {
    const why = offers.map(
      (o) => o.problem ?? `the ${o.type} promo pays ${coverText(o.cover)}, not the ${req.betType} asked`,
    );
    // A bet that names a promo it breaks the rules of is refused: placing it plain would drop the cover unseen.
    if (wanted !== undefined && why.length > 0) {
      return { ok: false, error: `promo_conditions_not_met: ${why.join('; ')}; nothing was placed` };
    }
    const none = `no ${what} on ${label(race)} at ${bookie}${why.length > 0 ? ` (${why.join('; ')})` : ''}`;
    if (ask.skipIfNoPromo) return { ok: false, error: `promo_not_available: ${none}; nothing was placed` };
    return { ok: true, boosted, promo: null, note: `${none}: placed without a promo` };
  }
  const cover = asked ?? hit.cover;
  const terms: PromoTerms = {
    ...(cover.kind === 'refund' ? { refund_places: cover.places } : { bonus_share: cover.share }),
    max_reward: hit.maxReward,
    source: hit.source,
  };
  return {
    ok: true,
    boosted,
    promo: ask.promoName ?? hit.type,
    betType: req.betType === 'non_promo' ? hit.type : req.betType,
    terms,
    ...(hit.consume ? { consume: hit.consume } : {}),
  };
}

/** Sports carry no boost tokens or race promos: strict asks are refused, opportunistic ones place plainly. */
export function decideSportsPromos(ask: PromoAsk): PromoDecision {
  if (ask.useBoost)
    return { ok: false, error: 'boost_not_available: boost tokens apply to racing only; nothing was placed' };
  if (ask.skipIfNoPromo) {
    return {
      ok: false,
      error: `promo_not_available: no ${ask.promoName ?? 'promo'} for this sports bet; nothing was placed`,
    };
  }
  return { ok: true, boosted: false, promo: null };
}
