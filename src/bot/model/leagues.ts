import { UserFacingError } from './user-facing-error.js';

/**
 * The spec's preset leagues (GET events, "Preset leagues accepted for sports"), keyed as the gateway lists them
 * (lowercase, underscores): names for members instead of codes, and league choices before any event was read.
 */
export const PRESET_LEAGUES: ReadonlyArray<{ key: string; name: string }> = [
  { key: 'afl', name: 'AFL' },
  { key: 'nrl', name: 'NRL' },
  { key: 'nba', name: 'NBA' },
  { key: 'nbl', name: 'NBL' },
  { key: 'nfl', name: 'NFL' },
  { key: 'soccer', name: 'Soccer' },
  { key: 'tennis', name: 'Tennis' },
  { key: 'mlb', name: 'MLB' },
  { key: 'nhl', name: 'NHL' },
  { key: 'cricket', name: 'Cricket' },
  { key: 'golf', name: 'Golf' },
  { key: 'mma', name: 'MMA' },
  { key: 'boxing', name: 'Boxing' },
  { key: 'rugby_union', name: 'Rugby Union' },
  { key: 'rugby_league', name: 'Rugby League' },
  { key: 'wnba', name: 'WNBA' },
  { key: 'darts', name: 'Darts' },
  { key: 'npb', name: 'NPB (Baseball)' },
  { key: 'kbo', name: 'KBO (Baseball)' },
  { key: 'cpbl', name: 'CPBL (Baseball)' },
  { key: 'mls', name: 'MLS (Soccer)' },
  { key: 'table_tennis', name: 'Table Tennis' },
  { key: 'snooker', name: 'Snooker' },
  { key: 'ncaab', name: 'NCAA Basketball' },
  { key: 'ncaaf', name: 'NCAA Football' },
  { key: 'ncaa_hockey', name: 'NCAA Hockey' },
  { key: 'cfl', name: 'CFL' },
  { key: 'ufl', name: 'UFL' },
];

const NAMES = new Map(PRESET_LEAGUES.map((l) => [l.key, l.name]));

/** A league's name for members: the preset name, else the key made readable ("super_rugby" → "Super Rugby"). */
export function leagueName(key: string): string {
  const known = NAMES.get(key.toLowerCase());
  if (known) return known;
  return key
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => (w.length <= 3 ? w.toUpperCase() : w[0]?.toUpperCase() + w.slice(1)))
    .join(' ');
}

/** The league key for what a member typed: a key ("rugby_union") or a name ("Rugby Union", "nba"). */
export function leagueKeyOf(typed: string): string {
  const text = typed.trim().toLowerCase();
  const byName = PRESET_LEAGUES.find((l) => l.name.toLowerCase() === text);
  return byName ? byName.key : text.replace(/\s+/g, '_');
}

/**
 * A list of leagues as a member types it (keys or preset names, comma separated: "nrl, Rugby Union") as the
 * gateway's league keys, each once; refused naming what is unknown and the keys to pick from.
 */
export function parseLeagueList(text: string): string[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) throw new UserFacingError('Name at least one league, e.g. `nrl` or `nrl, afl`.');
  const known = new Set(PRESET_LEAGUES.map((l) => l.key));
  const unknown = parts.filter((p) => !known.has(leagueKeyOf(p)));
  if (unknown.length > 0) {
    throw new UserFacingError(
      `Unknown league: ${unknown.map((u) => `\`${u.slice(0, 30)}\``).join(', ')}. Use keys separated by commas, from: ${[...known].join(', ')}.`,
    );
  }
  return [...new Set(parts.map(leagueKeyOf))];
}
