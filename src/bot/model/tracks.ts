import { dayIn } from './dates.js';

/** Race types as the gateway names them: thoroughbred (R), greyhound (G), harness (H). */
export const RACE_TYPES = { '(R)': 'thoroughbred', '(G)': 'greyhound', '(H)': 'harness' } as const;
export type RaceType = keyof typeof RACE_TYPES;

/**
 * Tracks racing every day in the sandbox and common ones elsewhere, with their race type: a greyhound or harness
 * track asked for as thoroughbred (the default) is "no such race". Any other name can still be typed.
 */
export const KNOWN_TRACKS: ReadonlyArray<{ track: string; raceType: RaceType; tz: string }> = [
  { track: 'Flemington', raceType: '(R)', tz: 'Australia/Melbourne' },
  { track: 'Randwick', raceType: '(R)', tz: 'Australia/Sydney' },
  { track: 'Caulfield', raceType: '(R)', tz: 'Australia/Melbourne' },
  { track: 'Rosehill', raceType: '(R)', tz: 'Australia/Sydney' },
  { track: 'Moonee Valley', raceType: '(R)', tz: 'Australia/Melbourne' },
  { track: 'Wentworth Park', raceType: '(G)', tz: 'Australia/Sydney' },
  { track: 'The Meadows', raceType: '(G)', tz: 'Australia/Melbourne' },
  { track: 'Menangle', raceType: '(H)', tz: 'Australia/Sydney' },
  { track: 'Albion Park', raceType: '(H)', tz: 'Australia/Brisbane' },
];

/** Races offered in autocomplete for a meeting (a race's date is the track's local day). */
export const RACES_OFFERED = 10;

/** The track's local day at `now`: a race's date is the track's, not the viewer's (unknown tracks: `fallbackTz`). */
export function trackDay(track: string, now: number, fallbackTz: string): string {
  return dayIn(now, trackZone(track, fallbackTz));
}

/** The track's time zone (unknown tracks: `fallbackTz`, the server's). */
export function trackZone(track: string, fallbackTz: string): string {
  return KNOWN_TRACKS.find((t) => t.track.toLowerCase() === track.toLowerCase())?.tz ?? fallbackTz;
}

/** Autocomplete values carry the race type: "Wentworth Park (G)". */
export function trackValue(track: string, raceType: RaceType): string {
  return `${track} ${raceType}`;
}

/**
 * The track and race type for a /price racing: an explicit race_type wins, then one carried in the track value
 * ("Wentworth Park (G)"), then the known track's own, else thoroughbred.
 */
export function resolveTrack(typed: string, explicit?: string | null): { track: string; raceType: RaceType } {
  const m = /^(.*?)\s*(\([RGH]\))$/i.exec(typed.trim());
  const track = (m?.[1] ?? typed).trim();
  const carried = m?.[2]?.toUpperCase() as RaceType | undefined;
  const known = KNOWN_TRACKS.find((t) => t.track.toLowerCase() === track.toLowerCase());
  const raceType = (explicit as RaceType | null | undefined) ?? carried ?? known?.raceType ?? '(R)';
  return { track: known?.track ?? track, raceType };
}
