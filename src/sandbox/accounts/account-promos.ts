// Account promos held by bookmaker accounts (GET /v3/account_promos, POST /v3/place_promo).
// Built from the world's upcoming fixtures, so the same seed and start time give the same cards; a card whose
// event starts is withdrawn and a like card on a later fixture takes its place (replacementCard).
import { priceText, roundPrice } from '../core/money.js';
import type { PromoRace, PromoSportsEvent, RacingMeeting } from '../world/promo-sources.js';
import { BOOK_ACCOUNT_IDS } from './fixtures.js';

export type HowToBet =
  | { endpoint: '/v3/place_promo' }
  | { endpoint: '/v3/place_bet'; promo_name: string; note: string }
  | { endpoint: null; note: string };

export interface AccountPromo {
  promo_id: number;
  account_id: string;
  bookie: string;
  promo: string;
  label: string;
  summary: { label: string; headline: string; detail: string };
  kind: 'racing' | 'sports' | 'deposit';
  track?: string;
  race_num?: number;
  race_type?: string;
  sport?: string;
  competition?: string;
  event?: string;
  date?: string;
  epk?: string;
  card_id?: string;
  voucher_type?: string;
  selection?: string;
  base_odds?: number;
  boosted_odds?: number;
  placeable_by_id: boolean;
  how_to_bet: HowToBet;
  /** Why it cannot be placed by id (the 422 message), when it cannot. */
  not_placeable_reason?: string;
  /** Largest stake the bookmaker takes on the card. */
  max_stake?: number;
  /** The most a money-back token pays back, in dollars. */
  max_reward?: number;
  state: 'active' | 'used';
}

const BOOST = 1.2;

function sportsCard(
  id: number,
  account_id: string,
  bookie: string,
  ev: PromoSportsEvent,
  captured: boolean,
): AccountPromo {
  const boosted = roundPrice(ev.base_odds * BOOST);
  return {
    promo_id: id,
    account_id,
    bookie,
    promo: 'bet_boost',
    label: `Bet boost: ${ev.selection} to win`,
    summary: {
      label: 'Bet boost',
      headline: `${ev.selection} to win: ${ev.event}`,
      detail: captured
        ? `Boosted from ${priceText(ev.base_odds)} to ${priceText(boosted)}, max stake $50`
        : 'Boosted price shows once the card is captured',
    },
    kind: 'sports',
    sport: ev.sport,
    competition: ev.competition,
    event: ev.event,
    date: ev.date,
    epk: ev.epk,
    card_id: `card-${bookie}-${id}`,
    voucher_type: 'single',
    selection: ev.selection,
    base_odds: ev.base_odds,
    ...(captured ? { boosted_odds: boosted } : {}),
    placeable_by_id: captured,
    how_to_bet: captured
      ? { endpoint: '/v3/place_promo' }
      : { endpoint: null, note: 'The boosted price has not been captured yet; check again later' },
    ...(captured ? {} : { not_placeable_reason: 'the boosted price has not been captured yet' }),
    max_stake: 50,
    state: 'active',
  };
}

/** A captured single bet-boost card on the race favourite: placeable by id like a sports single. */
function racingCard(id: number, account_id: string, bookie: string, race: PromoRace): AccountPromo | undefined {
  const favourite = [...race.runners].sort((a, b) => a.win - b.win)[0];
  if (!favourite) return undefined;
  const boosted = roundPrice(favourite.win * BOOST);
  return {
    promo_id: id,
    account_id,
    bookie,
    promo: 'bet_boost',
    label: `Bet boost: ${favourite.name} to win ${race.track} R${race.race_num}`,
    summary: {
      label: 'Bet boost',
      headline: `${favourite.name} to win: ${race.track} race ${race.race_num}`,
      detail: `Boosted from ${priceText(favourite.win)} to ${priceText(boosted)}, max stake $50`,
    },
    kind: 'racing',
    track: race.track,
    race_num: race.race_num,
    race_type: race.race_type,
    date: race.date,
    epk: race.epk,
    card_id: `card-${bookie}-${id}`,
    voucher_type: 'single',
    selection: favourite.name,
    base_odds: favourite.win,
    boosted_odds: boosted,
    placeable_by_id: true,
    how_to_bet: { endpoint: '/v3/place_promo' },
    max_stake: 50,
    state: 'active',
  };
}

/** Bet-boost cards for a bookie_c account: two captured singles, one uncaptured, one multi, one outright. */
function betBoostCards(
  firstId: number,
  account_id: string,
  bookie: string,
  events: PromoSportsEvent[],
): AccountPromo[] {
  const cards: AccountPromo[] = [];
  let id = firstId;
  const [e1, e2, e3, e4] = events;
  if (e1) cards.push(sportsCard(id++, account_id, bookie, e1, true));
  if (e2) cards.push(sportsCard(id++, account_id, bookie, e2, true));
  if (e3) cards.push(sportsCard(id++, account_id, bookie, e3, false));
  if (e3 && e4) {
    cards.push({
      promo_id: id++,
      account_id,
      bookie,
      promo: 'bet_boost',
      label: `Boosted multi: ${e3.selection} + ${e4.selection}`,
      summary: { label: 'Bet boost multi', headline: `${e3.event} and ${e4.event}`, detail: 'Two-leg boosted multi' },
      kind: 'sports',
      sport: e3.sport,
      competition: e3.competition,
      event: `${e3.event} + ${e4.event}`,
      date: e3.date,
      card_id: `card-${bookie}-${id - 1}`,
      voucher_type: 'multi',
      selection: `${e3.selection} + ${e4.selection}`,
      base_odds: roundPrice(e3.base_odds * e4.base_odds),
      boosted_odds: roundPrice(e3.base_odds * e4.base_odds * BOOST),
      placeable_by_id: false,
      how_to_bet: { endpoint: null, note: 'Multi cards are placed at the bookmaker, not through the API' },
      not_placeable_reason: 'multi cards are not placeable by id',
      state: 'active',
    });
  }
  cards.push({
    promo_id: id++,
    account_id,
    bookie,
    promo: 'bet_boost',
    label: 'Boosted outright: premiership winner',
    summary: { label: 'Bet boost outright', headline: 'Premiership winner', detail: 'Boosted futures price' },
    kind: 'sports',
    sport: 'AFL',
    competition: 'afl',
    event: 'AFL Premiership outright',
    card_id: `card-${bookie}-${id - 1}`,
    voucher_type: 'outright',
    selection: 'Field',
    base_odds: 6,
    boosted_odds: 7.5,
    placeable_by_id: false,
    how_to_bet: { endpoint: null, note: 'Outright cards are placed at the bookmaker, not through the API' },
    not_placeable_reason: 'outright cards are not placeable by id',
    state: 'active',
  });
  return cards;
}

function racingToken(
  id: number,
  account_id: string,
  bookie: string,
  meeting: RacingMeeting,
  date: string,
): AccountPromo {
  return {
    promo_id: id,
    account_id,
    bookie,
    promo: '2/3',
    label: `Money back 2nd or 3rd: ${meeting.track} R4`,
    summary: {
      label: 'Money back',
      headline: `${meeting.track} race 4`,
      detail: 'Stake back in cash (up to $50) if your runner finishes 2nd or 3rd',
    },
    kind: 'racing',
    track: meeting.track,
    race_num: 4,
    race_type: meeting.race_type,
    date,
    placeable_by_id: false,
    how_to_bet: {
      endpoint: '/v3/place_bet',
      promo_name: '2/3',
      note: 'Choose a runner and send promo_name "2/3" with bet_type "2/3" to /v3/place_bet',
    },
    not_placeable_reason: 'this token needs a chosen runner: place it with /v3/place_bet and promo_name',
    max_reward: 50,
    state: 'active',
  };
}

function depositOffer(id: number, account_id: string, bookie: string): AccountPromo {
  return {
    promo_id: id,
    account_id,
    bookie,
    promo: 'bonus',
    label: 'Deposit $100, get a $20 bonus bet',
    summary: {
      label: 'Deposit bonus',
      headline: 'Deposit match',
      detail: '20% of a deposit up to $100 as a bonus bet',
    },
    kind: 'deposit',
    placeable_by_id: false,
    how_to_bet: { endpoint: null, note: 'A deposit offer: claim it by depositing at the bookmaker' },
    not_placeable_reason: 'a deposit offer is not a bet',
    state: 'active',
  };
}

/**
 * A like card on a later fixture for a bet-boost single whose event has started: same account, kind and capture
 * state, a new promo_id. `event` is used for a sports card, `race` for a racing one.
 */
export function replacementCard(
  gone: AccountPromo,
  id: number,
  from: { event?: PromoSportsEvent; race?: PromoRace },
): AccountPromo | undefined {
  if (gone.kind === 'racing' && gone.promo === 'bet_boost')
    return from.race && racingCard(id, gone.account_id, gone.bookie, from.race);
  if (gone.kind === 'sports' && gone.voucher_type === 'single' && gone.epk)
    return from.event && sportsCard(id, gone.account_id, gone.bookie, from.event, gone.placeable_by_id);
  return undefined;
}

export function buildAccountPromos(
  meetings: RacingMeeting[],
  events: PromoSportsEvent[],
  boostRace?: PromoRace,
): AccountPromo[] {
  const A = BOOK_ACCOUNT_IDS;
  const out: AccountPromo[] = [...betBoostCards(1001, A.alpha_c, 'bookie_c', events)];
  const meeting = meetings.find((m) => m.race_type === 'R') ?? meetings[0];
  if (meeting) out.push(racingToken(2001, A.alpha_a, 'bookie_a', meeting, meeting.date));
  out.push(depositOffer(3001, A.alpha_b, 'bookie_b'));
  out.push(...betBoostCards(4001, A.bravo_c, 'bookie_c', events.slice(4)));
  const raceCard = boostRace && racingCard(5001, A.alpha_c, 'bookie_c', boostRace);
  if (raceCard) out.push(raceCard);
  return out;
}
