/** Race types as the gateway names them: thoroughbred (R), greyhound (G), harness (H). */
export const RACE_TYPES = { '(R)': 'thoroughbred', '(G)': 'greyhound', '(H)': 'harness' } as const;
export type RaceType = keyof typeof RACE_TYPES;

/**
 * Tracks racing every day in the sandbox and common ones elsewhere, with their race type: a greyhound or harness
 * track asked for as thoroughbred (the default) is "no such race". Any other name can still be typed.
 */
export const KNOWN_TRACKS: ReadonlyArray<{ track: string; raceType: RaceType }> = [
  { track: 'Flemington', raceType: '(R)' },
  { track: 'Randwick', raceType: '(R)' },
  { track: 'Caulfield', raceType: '(R)' },
  { track: 'Rosehill', raceType: '(R)' },
  { track: 'Moonee Valley', raceType: '(R)' },
  { track: 'Wentworth Park', raceType: '(G)' },
  { track: 'The Meadows', raceType: '(G)' },
  { track: 'Menangle', raceType: '(H)' },
  { track: 'Albion Park', raceType: '(H)' },
];

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
