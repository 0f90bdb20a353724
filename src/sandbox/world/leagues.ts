// The preset leagues of the spec, keyed lowercase with underscores, folded into the 16 sport groups.

export type SportGroup =
  | 'basketball'
  | 'american_football'
  | 'baseball'
  | 'ice_hockey'
  | 'aussie_rules'
  | 'rugby_league'
  | 'rugby_union'
  | 'soccer'
  | 'mma'
  | 'boxing'
  | 'tennis'
  | 'table_tennis'
  | 'darts'
  | 'snooker'
  | 'golf'
  | 'cricket';

export interface LeagueDef {
  key: string;
  /** The spec's preset name. */
  name: string;
  sport: SportGroup;
  country: string;
  /** Games on a typical day (0 = outrights only). */
  perDay: number;
  /** First and last start hour (UTC) of a day's games. */
  hours: [number, number];
  durationMin: number;
  /** Whether live scores are covered. */
  scores: boolean;
  /** Whether teams have logos. */
  logos: boolean;
  teams: readonly string[];
  /** Outright markets listed with include_outrights. */
  outrights?: readonly string[];
  draws?: boolean;
}

const NBA = [
  'Boston Celtics',
  'Brooklyn Nets',
  'New York Knicks',
  'Philadelphia 76ers',
  'Toronto Raptors',
  'Chicago Bulls',
  'Cleveland Cavaliers',
  'Detroit Pistons',
  'Indiana Pacers',
  'Milwaukee Bucks',
  'Atlanta Hawks',
  'Miami Heat',
  'Orlando Magic',
  'Denver Nuggets',
  'Minnesota Timberwolves',
  'Oklahoma City Thunder',
  'Golden State Warriors',
  'Los Angeles Lakers',
  'Phoenix Suns',
  'Sacramento Kings',
  'Dallas Mavericks',
  'Houston Rockets',
  'Memphis Grizzlies',
  'San Antonio Spurs',
];
const AFL = [
  'Adelaide Crows',
  'Brisbane Lions',
  'Carlton',
  'Collingwood',
  'Essendon',
  'Fremantle',
  'Geelong Cats',
  'Gold Coast Suns',
  'GWS Giants',
  'Hawthorn',
  'Melbourne',
  'North Melbourne',
  'Port Adelaide',
  'Richmond',
  'St Kilda',
  'Sydney Swans',
  'West Coast Eagles',
  'Western Bulldogs',
];
const NRL = [
  'Brisbane Broncos',
  'Canberra Raiders',
  'Canterbury Bulldogs',
  'Cronulla Sharks',
  'Dolphins',
  'Gold Coast Titans',
  'Manly Sea Eagles',
  'Melbourne Storm',
  'Newcastle Knights',
  'North Queensland Cowboys',
  'Parramatta Eels',
  'Penrith Panthers',
  'South Sydney Rabbitohs',
  'St George Illawarra Dragons',
  'Sydney Roosters',
  'Wests Tigers',
];
const NFL = [
  'Buffalo Bills',
  'Miami Dolphins',
  'New England Patriots',
  'New York Jets',
  'Baltimore Ravens',
  'Cincinnati Bengals',
  'Cleveland Browns',
  'Pittsburgh Steelers',
  'Houston Texans',
  'Kansas City Chiefs',
  'Denver Broncos',
  'Las Vegas Raiders',
  'Dallas Cowboys',
  'Philadelphia Eagles',
  'Green Bay Packers',
  'Detroit Lions',
  'San Francisco 49ers',
  'Seattle Seahawks',
];
const EPL = [
  'Arsenal',
  'Aston Villa',
  'Bournemouth',
  'Brentford',
  'Brighton',
  'Chelsea',
  'Crystal Palace',
  'Everton',
  'Fulham',
  'Liverpool',
  'Manchester City',
  'Manchester United',
  'Newcastle United',
  'Nottingham Forest',
  'Tottenham Hotspur',
  'West Ham United',
  'Wolverhampton',
  'Leeds United',
];
const MLB = [
  'New York Yankees',
  'Boston Red Sox',
  'Toronto Blue Jays',
  'Baltimore Orioles',
  'Houston Astros',
  'Seattle Mariners',
  'Texas Rangers',
  'Los Angeles Dodgers',
  'San Diego Padres',
  'San Francisco Giants',
  'Atlanta Braves',
  'Philadelphia Phillies',
  'New York Mets',
  'Chicago Cubs',
  'St. Louis Cardinals',
  'Milwaukee Brewers',
];
const NHL = [
  'Boston Bruins',
  'Toronto Maple Leafs',
  'Montreal Canadiens',
  'Tampa Bay Lightning',
  'Florida Panthers',
  'New York Rangers',
  'Carolina Hurricanes',
  'Pittsburgh Penguins',
  'Colorado Avalanche',
  'Dallas Stars',
  'Vegas Golden Knights',
  'Edmonton Oilers',
  'Vancouver Canucks',
  'Winnipeg Jets',
  'Minnesota Wild',
  'Chicago Blackhawks',
];
const TENNIS = [
  'Carlos Alcaraz',
  'Jannik Sinner',
  'Novak Djokovic',
  'Alexander Zverev',
  'Daniil Medvedev',
  'Taylor Fritz',
  'Casper Ruud',
  'Alex de Minaur',
  'Holger Rune',
  'Stefanos Tsitsipas',
  'Tommy Paul',
  'Ben Shelton',
  'Grigor Dimitrov',
  'Hubert Hurkacz',
  'Frances Tiafoe',
  'Lorenzo Musetti',
];
const MLS = [
  'Inter Miami',
  'LA Galaxy',
  'LAFC',
  'Seattle Sounders',
  'Atlanta United',
  'Columbus Crew',
  'FC Cincinnati',
  'New York Red Bulls',
  'Philadelphia Union',
  'Orlando City',
  'Portland Timbers',
  'Austin FC',
];
const NBL = [
  'Sydney Kings',
  'Melbourne United',
  'Perth Wildcats',
  'Brisbane Bullets',
  'Adelaide 36ers',
  'Illawarra Hawks',
  'New Zealand Breakers',
  'Tasmania JackJumpers',
  'Cairns Taipans',
  'South East Melbourne Phoenix',
];
const CRICKET = [
  'Australia',
  'England',
  'India',
  'New Zealand',
  'South Africa',
  'Pakistan',
  'Sri Lanka',
  'West Indies',
];
const RUGBY_UNION = [
  'Crusaders',
  'Blues',
  'Chiefs',
  'Hurricanes',
  'Highlanders',
  'Brumbies',
  'Waratahs',
  'Reds',
  'Western Force',
  'Fijian Drua',
];
const MMA = [
  'Alex Pereira',
  'Islam Makhachev',
  'Jon Jones',
  'Tom Aspinall',
  'Ilia Topuria',
  'Sean OMalley',
  'Leon Edwards',
  'Dricus du Plessis',
  'Israel Adesanya',
  'Max Holloway',
  'Belal Muhammad',
  'Merab Dvalishvili',
];
const BOXING = [
  'Oleksandr Usyk',
  'Tyson Fury',
  'Canelo Alvarez',
  'Terence Crawford',
  'Naoya Inoue',
  'Gervonta Davis',
  'Dmitry Bivol',
  'Artur Beterbiev',
  'Shakur Stevenson',
  'Devin Haney',
];
const DARTS = [
  'Luke Humphries',
  'Luke Littler',
  'Michael van Gerwen',
  'Michael Smith',
  'Gerwyn Price',
  'Rob Cross',
  'Nathan Aspinall',
  'Damon Heta',
];
const SNOOKER = [
  'Ronnie OSullivan',
  'Judd Trump',
  'Mark Selby',
  'Kyren Wilson',
  'Mark Allen',
  'Neil Robertson',
  'John Higgins',
  'Shaun Murphy',
];
const TABLE_TENNIS = [
  'Fan Zhendong',
  'Ma Long',
  'Wang Chuqin',
  'Tomokazu Harimoto',
  'Hugo Calderano',
  'Truls Moregard',
];
const WNBA = [
  'Las Vegas Aces',
  'New York Liberty',
  'Seattle Storm',
  'Minnesota Lynx',
  'Connecticut Sun',
  'Phoenix Mercury',
];
const KBO = ['LG Twins', 'Doosan Bears', 'KIA Tigers', 'Samsung Lions', 'Lotte Giants', 'SSG Landers'];
const NPB = [
  'Yomiuri Giants',
  'Hanshin Tigers',
  'Hiroshima Carp',
  'Yakult Swallows',
  'SoftBank Hawks',
  'Orix Buffaloes',
];
const NCAAB = ['Duke', 'North Carolina', 'Kansas', 'Kentucky', 'Gonzaga', 'UConn', 'Houston', 'Purdue'];
const NCAAF = ['Alabama', 'Georgia', 'Ohio State', 'Michigan', 'Texas', 'Oregon', 'LSU', 'Clemson'];
const CFL = [
  'Toronto Argonauts',
  'Montreal Alouettes',
  'Winnipeg Blue Bombers',
  'BC Lions',
  'Calgary Stampeders',
  'Saskatchewan Roughriders',
];
const SUPER_LEAGUE = [
  'Wigan Warriors',
  'St Helens',
  'Leeds Rhinos',
  'Warrington Wolves',
  'Hull KR',
  'Catalans Dragons',
];

export const LEAGUES: readonly LeagueDef[] = [
  {
    key: 'nba',
    name: 'NBA',
    sport: 'basketball',
    country: 'us',
    perDay: 6,
    hours: [23, 27],
    durationMin: 150,
    scores: true,
    logos: true,
    teams: NBA,
    outrights: ['championship_winner'],
  },
  {
    key: 'afl',
    name: 'AFL',
    sport: 'aussie_rules',
    country: 'au',
    perDay: 4,
    hours: [2, 9],
    durationMin: 165,
    scores: true,
    logos: true,
    teams: AFL,
    outrights: ['premiership_winner'],
  },
  {
    key: 'nrl',
    name: 'NRL',
    sport: 'rugby_league',
    country: 'au',
    perDay: 4,
    hours: [5, 10],
    durationMin: 110,
    scores: true,
    logos: true,
    teams: NRL,
    outrights: ['premiership_winner'],
  },
  {
    key: 'nfl',
    name: 'NFL',
    sport: 'american_football',
    country: 'us',
    perDay: 4,
    hours: [17, 25],
    durationMin: 200,
    scores: true,
    logos: true,
    teams: NFL,
    outrights: ['super_bowl_winner'],
  },
  {
    key: 'soccer',
    name: 'Soccer',
    sport: 'soccer',
    country: 'gb',
    perDay: 6,
    hours: [12, 20],
    durationMin: 115,
    scores: true,
    logos: true,
    teams: EPL,
    outrights: ['league_winner'],
    draws: true,
  },
  {
    key: 'mlb',
    name: 'MLB',
    sport: 'baseball',
    country: 'us',
    perDay: 5,
    hours: [17, 26],
    durationMin: 180,
    scores: true,
    logos: true,
    teams: MLB,
    outrights: ['world_series_winner'],
  },
  {
    key: 'nhl',
    name: 'NHL',
    sport: 'ice_hockey',
    country: 'us',
    perDay: 5,
    hours: [23, 27],
    durationMin: 160,
    scores: true,
    logos: true,
    teams: NHL,
    outrights: ['stanley_cup_winner'],
  },
  {
    key: 'tennis',
    name: 'Tennis',
    sport: 'tennis',
    country: 'intl',
    perDay: 5,
    hours: [0, 20],
    durationMin: 150,
    scores: true,
    logos: false,
    teams: TENNIS,
    outrights: ['tournament_winner'],
  },
  {
    key: 'nbl',
    name: 'NBL',
    sport: 'basketball',
    country: 'au',
    perDay: 2,
    hours: [8, 10],
    durationMin: 130,
    scores: true,
    logos: true,
    teams: NBL,
  },
  {
    key: 'wnba',
    name: 'WNBA',
    sport: 'basketball',
    country: 'us',
    perDay: 1,
    hours: [23, 25],
    durationMin: 130,
    scores: true,
    logos: true,
    teams: WNBA,
  },
  {
    key: 'ncaab',
    name: 'NCAA Basketball',
    sport: 'basketball',
    country: 'us',
    perDay: 2,
    hours: [23, 26],
    durationMin: 130,
    scores: true,
    logos: true,
    teams: NCAAB,
  },
  {
    key: 'ncaaf',
    name: 'NCAA Football',
    sport: 'american_football',
    country: 'us',
    perDay: 1,
    hours: [17, 24],
    durationMin: 200,
    scores: true,
    logos: true,
    teams: NCAAF,
  },
  {
    key: 'cfl',
    name: 'CFL',
    sport: 'american_football',
    country: 'ca',
    perDay: 1,
    hours: [23, 25],
    durationMin: 190,
    scores: true,
    logos: true,
    teams: CFL,
  },
  {
    key: 'kbo',
    name: 'KBO (Baseball)',
    sport: 'baseball',
    country: 'kr',
    perDay: 1,
    hours: [9, 10],
    durationMin: 180,
    scores: true,
    logos: true,
    teams: KBO,
  },
  {
    key: 'npb',
    name: 'NPB (Baseball)',
    sport: 'baseball',
    country: 'jp',
    perDay: 1,
    hours: [9, 10],
    durationMin: 180,
    scores: true,
    logos: true,
    teams: NPB,
  },
  {
    key: 'mls',
    name: 'MLS (Soccer)',
    sport: 'soccer',
    country: 'us',
    perDay: 2,
    hours: [23, 26],
    durationMin: 115,
    scores: true,
    logos: true,
    teams: MLS,
    draws: true,
  },
  {
    key: 'cricket',
    name: 'Cricket',
    sport: 'cricket',
    country: 'intl',
    perDay: 1,
    hours: [3, 10],
    durationMin: 420,
    scores: true,
    logos: false,
    teams: CRICKET,
  },
  {
    key: 'rugby_union',
    name: 'Rugby Union',
    sport: 'rugby_union',
    country: 'intl',
    perDay: 1,
    hours: [5, 9],
    durationMin: 110,
    scores: true,
    logos: true,
    teams: RUGBY_UNION,
  },
  {
    key: 'rugby_league',
    name: 'Rugby League',
    sport: 'rugby_league',
    country: 'gb',
    perDay: 1,
    hours: [18, 20],
    durationMin: 110,
    scores: true,
    logos: true,
    teams: SUPER_LEAGUE,
  },
  {
    key: 'mma',
    name: 'MMA',
    sport: 'mma',
    country: 'us',
    perDay: 1,
    hours: [2, 5],
    durationMin: 25,
    scores: false,
    logos: false,
    teams: MMA,
  },
  {
    key: 'boxing',
    name: 'Boxing',
    sport: 'boxing',
    country: 'intl',
    perDay: 1,
    hours: [21, 23],
    durationMin: 45,
    scores: false,
    logos: false,
    teams: BOXING,
  },
  {
    key: 'darts',
    name: 'Darts',
    sport: 'darts',
    country: 'gb',
    perDay: 1,
    hours: [19, 22],
    durationMin: 60,
    scores: false,
    logos: false,
    teams: DARTS,
  },
  {
    key: 'snooker',
    name: 'Snooker',
    sport: 'snooker',
    country: 'gb',
    perDay: 1,
    hours: [13, 19],
    durationMin: 180,
    scores: false,
    logos: false,
    teams: SNOOKER,
  },
  {
    key: 'table_tennis',
    name: 'Table Tennis',
    sport: 'table_tennis',
    country: 'intl',
    perDay: 2,
    hours: [6, 16],
    durationMin: 50,
    scores: false,
    logos: false,
    teams: TABLE_TENNIS,
  },
  {
    key: 'golf',
    name: 'Golf',
    sport: 'golf',
    country: 'intl',
    perDay: 0,
    hours: [12, 12],
    durationMin: 4 * 24 * 60,
    scores: false,
    logos: false,
    teams: [],
    outrights: ['tournament_winner'],
  },
];

export const LEAGUE_BY_KEY: ReadonlyMap<string, LeagueDef> = new Map(LEAGUES.map((l) => [l.key, l]));

export const SPORT_GROUPS: readonly SportGroup[] = [
  'basketball',
  'american_football',
  'baseball',
  'ice_hockey',
  'aussie_rules',
  'rugby_league',
  'rugby_union',
  'soccer',
  'mma',
  'boxing',
  'tennis',
  'table_tennis',
  'darts',
  'snooker',
  'golf',
  'cricket',
];

// Other spellings callers use (the spec's preset names, group names) → our keys.
const ALIASES: Record<string, string> = {
  ncaa_basketball: 'ncaab',
  ncaa_football: 'ncaaf',
  kbo_baseball: 'kbo',
  npb_baseball: 'npb',
  mls_soccer: 'mls',
  epl: 'soccer',
  premier_league: 'soccer',
};

/** Our league key for a caller's spelling ('NBA', 'Rugby Union', 'MLS (Soccer)'), or null. */
export function leagueKey(text: string): string | null {
  const k = text
    .trim()
    .toLowerCase()
    .replace(/[()]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  if (LEAGUE_BY_KEY.has(k)) return k;
  return ALIASES[k] ?? null;
}

export function sportKey(text: string): SportGroup | null {
  const k = text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
  return (SPORT_GROUPS as readonly string[]).includes(k) ? (k as SportGroup) : null;
}
