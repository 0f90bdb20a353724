// Sports fixtures: a pure function of the seed and the day, so any day can be rebuilt on demand.
import { BOOKIES, type Bookie, siteEventIdFormat } from './books.js';
import { DAY_MS, dayOf, dayStartMs, HOUR_MS, MINUTE_MS } from './dates.js';
import { LEAGUES, type LeagueDef, type SportGroup } from './leagues.js';
import { hashKey, intBetween, type Rng, rngFor, shuffle, unit } from './prng.js';
import { slugify } from './slug.js';

export interface BookLink {
  bookie: Bookie;
  /** The bookmaker's own id for this event. */
  siteEventId: string;
  /** Sandbox time from which the event is linked to the book (before it: unbound). */
  linkedFromMs: number;
}

export interface Competitor {
  id: string;
  name: string;
  side: 'home' | 'away';
  logo_url: string | null;
}

export interface SportEvent {
  epk: string;
  sport: SportGroup;
  league: string;
  country: string;
  name: string;
  home: string | null;
  away: string | null;
  competitors: Competitor[];
  isOutright: boolean;
  outrightKey: string | null;
  startMs: number;
  durationMs: number;
  links: BookLink[];
  /** 0..1 chance that home wins (from the teams' ratings). */
  homeWinChance: number;
  def: LeagueDef;
}

/** A team's fixed rating in [0, 1) for the seed: favourites stay favourites all week. */
export function teamRating(seed: number, league: string, team: string): number {
  return unit(seed, 'rating', league, team);
}

function competitor(def: LeagueDef, name: string, side: 'home' | 'away'): Competitor {
  const slug = slugify(name);
  return {
    id: `${def.key}-${slug}`,
    name,
    side,
    logo_url: def.logos ? `https://sandbox.invalid/logos/${def.key}/${slug}.png` : null,
  };
}

function bookLinks(seed: number, epk: string, startMs: number, rng: Rng): BookLink[] {
  // About one event in thirty has no book at all (off_source 'scheduled').
  if (rng() < 0.03) return [];
  const links: BookLink[] = [];
  for (const bookie of BOOKIES) {
    if (rng() >= 0.88) continue;
    // Some books link upcoming events only a day before the start: `unbound` until then.
    const late = unit(seed, 'late-link', epk, bookie) < 0.2;
    links.push({
      bookie,
      siteEventId: siteEventIdFormat(bookie, hashKey(seed, 'site', epk, bookie) % 100_000_000),
      linkedFromMs: late ? startMs - DAY_MS : Number.NEGATIVE_INFINITY,
    });
  }
  return links;
}

function epkOf(def: LeagueDef, slot: string, day: string): string {
  return `${def.sport}/${def.country}/${def.key}/${slot}/${day}`;
}

function leagueDay(seed: number, def: LeagueDef, day: string): SportEvent[] {
  if (def.perDay === 0 || def.teams.length < 2) return [];
  const rng = rngFor(seed, 'day', def.key, day);
  const maxGames = Math.floor(def.teams.length / 2);
  // Main leagues play every day; small ones skip some days.
  const drawn = Math.min(
    maxGames,
    def.perDay >= 4 ? def.perDay + intBetween(rng, -1, 1) : intBetween(rng, 0, def.perDay),
  );
  // A busy day: every team of the league plays (the first games are the ones a usual day would have).
  const games = isBusyDay(def, day) ? maxGames : drawn;
  const teams = shuffle(rng, def.teams);
  const span = (def.hours[1] - def.hours[0]) * 4;
  const events: SportEvent[] = [];
  for (let g = 0; g < games; g++) {
    const home = teams[2 * g] as string;
    const away = teams[2 * g + 1] as string;
    const quarter = def.hours[0] * 4 + Math.floor(rng() * (span + 1));
    const startMs = dayStartMs(day) + ((quarter * 15 * MINUTE_MS) % DAY_MS);
    const epk = epkOf(def, `${slugify(home)}_v_${slugify(away)}`, day);
    const rh = teamRating(seed, def.key, home);
    const ra = teamRating(seed, def.key, away);
    events.push({
      epk,
      sport: def.sport,
      league: def.key,
      country: def.country,
      name: `${home} v ${away}`,
      home,
      away,
      competitors: [competitor(def, home, 'home'), competitor(def, away, 'away')],
      isOutright: false,
      outrightKey: null,
      startMs,
      durationMs: def.durationMin * MINUTE_MS,
      links: bookLinks(seed, epk, startMs, rng),
      homeWinChance: Math.min(0.85, Math.max(0.15, 0.53 + (rh - ra) * 0.6)),
      def,
    });
  }
  return events;
}

/** The NBA plays a full slate (12 games) every Sunday (UTC): a league-day with more than ten events. */
export function isBusyDay(def: LeagueDef, day: string): boolean {
  return def.key === 'nba' && new Date(dayStartMs(day)).getUTCDay() === 0;
}

/** Every fixture (not outrights) starting on a day, in start order. */
export function sportsDay(seed: number, day: string): SportEvent[] {
  const out: SportEvent[] = [];
  for (const def of LEAGUES) out.push(...leagueDay(seed, def, day));
  return out.sort((a, b) => a.startMs - b.startMs || (a.epk < b.epk ? -1 : 1));
}

function titleCase(key: string): string {
  return key
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** Futures markets: one per outright key of a league, settling on `day` (fixed relative to the clock's start). */
export function outrights(seed: number, day: string): SportEvent[] {
  const out: SportEvent[] = [];
  for (const def of LEAGUES) {
    for (const key of def.outrights ?? []) {
      const epk = epkOf(def, `outright_${key}`, day);
      const startMs = dayStartMs(day) + 12 * HOUR_MS;
      out.push({
        epk,
        sport: def.sport,
        league: def.key,
        country: def.country,
        name: `${def.name} ${titleCase(key)}`,
        home: null,
        away: null,
        competitors: [],
        isOutright: true,
        outrightKey: key,
        startMs,
        durationMs: def.key === 'golf' ? def.durationMin * MINUTE_MS : HOUR_MS,
        links: bookLinks(seed, epk, startMs, rngFor(seed, 'outright', epk)),
        homeWinChance: 0.5,
        def,
      });
    }
  }
  return out;
}

/** The day part of an epk. */
export function epkDay(epk: string): string | null {
  const day = epk.split('/').at(-1) ?? '';
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null;
}

export { dayOf };
