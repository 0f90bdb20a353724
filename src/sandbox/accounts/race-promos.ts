// Race promos for the meetings still to run, promo tokens for one race, and boost-token availability. All derived
// from the world's meetings and fixed hashes, so the same seed and day give the same offers.
import { ApiError } from '../core/reply.js';
import { hashString } from '../core/rng.js';
import type { RacingMeeting } from '../world/promo-sources.js';

export type RaceType = 'R' | 'G' | 'H';

/** Accepts `(R)`, `R`, `r`; default thoroughbred. 400 naming the field otherwise. */
export function parseRaceType(value: unknown, field = 'race_type'): RaceType {
  if (value === undefined || value === null || value === '') return 'R';
  const code = typeof value === 'string' ? value.replace(/[()\s]/g, '').toUpperCase() : '';
  if (code === 'R' || code === 'G' || code === 'H') return code;
  throw new ApiError(400, { detail: `Field '${field}' must be (R), (G) or (H), got ${JSON.stringify(value)}`, field });
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');

interface PromoRace {
  meeting: RacingMeeting;
  race_num: number;
}

/** The races of the meetings that carry a promo at `bookie` (about a third), by the meeting's local date. */
function promoRaces(meetings: RacingMeeting[], bookie: string): PromoRace[] {
  const out: PromoRace[] = [];
  for (const meeting of meetings) {
    for (let race = 1; race <= meeting.races; race++) {
      if (hashString(`${bookie}|${meeting.track}|${race}|${meeting.date}`) % 3 === 0)
        out.push({ meeting, race_num: race });
    }
  }
  return out;
}

const OFFERS = [
  { promo_type: '2/3', offer_name: 'Money back if 2nd or 3rd', offer_type: 'stake_back', max_reward: 50 },
  { promo_type: '2', offer_name: 'Money back if 2nd', offer_type: 'stake_back', max_reward: 100 },
  {
    promo_type: 'bonus_betboost_25pc',
    offer_name: '25% winnings boost as a bonus bet',
    offer_type: 'bet_boost',
    max_reward: 25,
  },
];

/** Eight-dog greyhound fields pay money back down to 4th where other races stop at 3rd. */
const GREYHOUND_STAKE_BACK = {
  promo_type: '2/3/4',
  offer_name: 'Money back if 2nd, 3rd or 4th',
  offer_type: 'stake_back',
  max_reward: 50,
};

function offerFor(bookie: string, meeting: RacingMeeting, race: number) {
  const offer = OFFERS[hashString(`offer|${bookie}|${meeting.track}|${race}`) % OFFERS.length]!;
  return meeting.race_type === 'G' && offer.promo_type === '2/3' ? GREYHOUND_STAKE_BACK : offer;
}

/** What a promo type pays: the stake back on those finishing places, or a share of the winnings as a bonus bet. */
export type PromoCover = { kind: 'refund'; places: number[] } | { kind: 'bonus_share'; share: number };

/** The cover a promo type (a place_bet `bet_type` or a promo's type) names; null for any other type. */
export function coverOf(type: string | undefined): PromoCover | null {
  if (type === '2') return { kind: 'refund', places: [2] };
  if (type === '2/3') return { kind: 'refund', places: [2, 3] };
  if (type === '2/3/4') return { kind: 'refund', places: [2, 3, 4] };
  const boost = /^bonus_betboost_(\d+)pc$/.exec(type ?? '');
  return boost ? { kind: 'bonus_share', share: Number(boost[1]) / 100 } : null;
}

/** The saver token every account holds for each racing day: a 2/3 on any thoroughbred race, win bets only. */
export const DAY_SAVER = { type: '2/3', max_reward: 20, race_type: 'R' as RaceType, market: 'win' };

/** Key of an account's used day saver, as `BookAccount.usedSavers` holds it. */
export const daySaverKey = (date: string) => `${DAY_SAVER.type}|${DAY_SAVER.race_type}|${date}`;

/**
 * Race promos of the meetings at `bookie`; with `nowMs`, only races still to run. A promo is valid until its
 * race jumps.
 */
export function racePromos(meetings: RacingMeeting[], bookie: string, nowMs?: number) {
  const races = promoRaces(meetings, bookie).filter(
    ({ meeting, race_num }) => nowMs === undefined || (meeting.starts[race_num - 1] ?? 0) > nowMs,
  );
  const promos = races.map(({ meeting, race_num }) => {
    const offer = offerFor(bookie, meeting, race_num);
    const date = meeting.date;
    return {
      track: meeting.track,
      race_num,
      race_type: meeting.race_type,
      promo_type: offer.promo_type,
      max_reward: offer.max_reward,
      token_group_id: `tg-${bookie}-${slug(meeting.track)}-${race_num}-${date}`,
      valid_till: new Date(meeting.starts[race_num - 1] ?? Date.parse(`${date}T23:59:00Z`)).toISOString(),
      event_url: `/racing/${meeting.country}/${slug(meeting.track)}/${date}/race-${race_num}`,
      offer_name: offer.offer_name,
      offer_type: offer.offer_type,
    };
  });
  return { success: true, promos, count: promos.length };
}

export function findMeeting(
  meetings: RacingMeeting[],
  track: string,
  raceNum: number,
  raceType: RaceType,
  country?: string,
): RacingMeeting | undefined {
  const name = track.trim().toLowerCase();
  return meetings.find(
    (m) =>
      m.track.toLowerCase() === name &&
      m.race_type === raceType &&
      raceNum >= 1 &&
      raceNum <= m.races &&
      (!country || m.country.toLowerCase() === country.toLowerCase()),
  );
}

/** Promo tokens for a race; `saverUsed` says whether the account has spent its day saver for a date. */
export function promoTokens(
  meetings: RacingMeeting[],
  bookie: string,
  track: string,
  raceNum: number,
  raceType: RaceType,
  country?: string,
  saverUsed: (date: string) => boolean = () => false,
) {
  const meeting = findMeeting(meetings, track, raceNum, raceType, country);
  if (!meeting) {
    return {
      success: false,
      error: 'race_not_found',
      message: `No race ${track} R${raceNum} (${raceType}); use a track and race number from /v3/promos`,
    };
  }
  const date = meeting.date;
  const carries = promoRaces([meeting], bookie).some((p) => p.race_num === raceNum);
  const raceSpecific = carries
    ? [
        {
          type: offerFor(bookie, meeting, raceNum).promo_type,
          max_reward: offerFor(bookie, meeting, raceNum).max_reward,
          is_race_specific: true,
          usage_restrictions: `Only on ${meeting.track} race ${raceNum} on ${date}`,
        },
      ]
    : [];
  const general = saverUsed(date)
    ? []
    : [
        {
          type: DAY_SAVER.type,
          max_reward: DAY_SAVER.max_reward,
          is_race_specific: false,
          usage_restrictions: `Any thoroughbred race on ${date}, win bets only`,
        },
      ];
  return {
    success: true,
    saver_tokens: [...raceSpecific, ...general],
    bonus_boost: bonusBoost(bookie, meeting.track, raceNum, date),
  };
}

/** The race's bonus boost (promo_tokens' `bonus_boost`): a share of the winnings paid as a bonus bet. */
export function bonusBoost(bookie: string, track: string, raceNum: number, date: string) {
  const h = hashString(`boost|${bookie}|${track}|${raceNum}|${date}`);
  return { available: h % 2 === 0, boost_percentage: h % 4 === 0 ? 50 : 25, max_reward: 50 };
}

export function boostTokenAvailable(bookie: string, date: string, track: string, raceNum: number): boolean {
  return hashString(`boost-token|${bookie}|${track.toLowerCase()}|${raceNum}|${date}`) % 2 === 0;
}
