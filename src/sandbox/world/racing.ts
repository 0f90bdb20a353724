// Racing: four meetings every day, races 1 to 8, seeded fields, prices and finishing orders.

import { TZDate } from '@date-fns/tz';
import { roundPrice } from '../core/money.js';
import { MINUTE_MS } from './dates.js';
import { runnerNames } from './people.js';
import { intBetween, rngFor } from './prng.js';
import { looseName } from './slug.js';

export type RaceType = 'R' | 'G' | 'H';

export interface TrackDef {
  track: string;
  race_type: RaceType;
  country: string;
  /** The track's time zone: a race's date is the track's local date. */
  tz: string;
  /** First race, minutes after local midnight, and the gap between races. */
  firstMin: number;
  gapMin: number;
  /** How long after the jump the result is official. */
  resultMin: number;
}

// Local times; under Australian daylight time (October to April) the first races jump at 01:30, 01:50, 07:10
// and 08:40 UTC.
export const TRACKS: readonly TrackDef[] = [
  {
    track: 'Flemington',
    race_type: 'R',
    country: 'au',
    tz: 'Australia/Melbourne',
    firstMin: 750,
    gapMin: 35,
    resultMin: 4,
  },
  { track: 'Randwick', race_type: 'R', country: 'au', tz: 'Australia/Sydney', firstMin: 770, gapMin: 35, resultMin: 4 },
  {
    track: 'Wentworth Park',
    race_type: 'G',
    country: 'au',
    tz: 'Australia/Sydney',
    firstMin: 1180,
    gapMin: 18,
    resultMin: 2,
  },
  {
    track: 'Menangle',
    race_type: 'H',
    country: 'au',
    tz: 'Australia/Sydney',
    firstMin: 1090,
    gapMin: 25,
    resultMin: 5,
  },
];

/** When race `raceNum` of the track's meeting on its local `date` jumps (UTC ms). */
export function raceStartMs(def: TrackDef, raceNum: number, date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const minutes = def.firstMin + (raceNum - 1) * def.gapMin;
  return new TZDate(y, m - 1, d, Math.floor(minutes / 60), minutes % 60, def.tz).getTime();
}

/** The track's local date (YYYY-MM-DD) at UTC ms `ms`. */
export function localDay(def: TrackDef, ms: number): string {
  const t = new TZDate(ms, def.tz);
  return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
}

export const RACES_PER_MEETING = 8;

export interface Runner {
  number: number;
  name: string;
  /** Fair chance of winning. */
  chance: number;
  win: number;
  place: number;
}

export interface Race {
  key: string;
  track: string;
  race_num: number;
  race_type: RaceType;
  country: string;
  date: string;
  startMs: number;
  resultMs: number;
  runners: Runner[];
}

export function raceKey(track: string, raceNum: number, type: RaceType, country: string, date: string): string {
  return `${track}/${raceNum}/${type}/${country}/${date}`;
}

/** Accepts 'R', '(R)', 'r'; default thoroughbred. Null for anything else. */
export function normaliseRaceType(text: unknown): RaceType | null {
  if (text === undefined || text === null || text === '') return 'R';
  if (typeof text !== 'string') return null;
  const t = text.replace(/[()\s]/g, '').toUpperCase();
  return t === 'R' || t === 'G' || t === 'H' ? t : null;
}

export function buildRace(seed: number, def: TrackDef, raceNum: number, date: string): Race {
  const key = raceKey(def.track, raceNum, def.race_type, def.country, date);
  const rng = rngFor(seed, 'race', key);
  const count = def.race_type === 'G' ? 8 : intBetween(rng, 6, 12);
  const names = runnerNames(seed, key, count);
  const weights = names.map(() => (0.35 + rng()) ** 3);
  const total = weights.reduce((a, w) => a + w, 0);
  const placeShare = count >= 8 ? 3 : 2;
  const runners = names.map((name, i): Runner => {
    const chance = (weights[i] as number) / total;
    const win = Math.min(151, Math.max(1.1, roundPrice(1 / (chance * 1.16))));
    const place = Math.max(1.01, roundPrice(1 + (win - 1) / (placeShare + 0.6)));
    return { number: i + 1, name, chance, win, place };
  });
  const startMs = raceStartMs(def, raceNum, date);
  return {
    key,
    track: def.track,
    race_num: raceNum,
    race_type: def.race_type,
    country: def.country,
    date,
    startMs,
    resultMs: startMs + def.resultMin * MINUTE_MS,
    runners,
  };
}

/** Finishing order (runner numbers), drawn with each runner's chance. */
export function finishingOrder(seed: number, race: Race): number[] {
  const rng = rngFor(seed, 'result', race.key);
  const left = [...race.runners];
  const order: number[] = [];
  while (left.length > 0) {
    const total = left.reduce((a, r) => a + r.chance, 0);
    let x = rng() * total;
    let idx = left.length - 1;
    for (let i = 0; i < left.length; i++) {
      x -= (left[i] as Runner).chance;
      if (x <= 0) {
        idx = i;
        break;
      }
    }
    order.push((left[idx] as Runner).number);
    left.splice(idx, 1);
  }
  return order;
}

/** Places that pay a place bet: 3 with eight or more runners, else 2. */
export function placesPaid(race: Race): number {
  return race.runners.length >= 8 ? 3 : 2;
}

export function findTrack(track: string): TrackDef | undefined {
  const t = looseName(track);
  return TRACKS.find((d) => looseName(d.track) === t);
}

export function findRunner(race: Race, name: string): Runner | undefined {
  const n = looseName(name);
  return (
    race.runners.find((r) => looseName(r.name) === n) ?? race.runners.find((r) => String(r.number) === name.trim())
  );
}
