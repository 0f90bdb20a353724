// A bookmaker's market card for an event: markets in three tiers with base prices (before drift).
import { roundPrice } from '../core/money.js';
import type { Bookie } from './books.js';
import { GOLFERS, squad } from './people.js';
import { hashKey, type Rng, rngFor } from './prng.js';
import { slugify } from './slug.js';
import type { SportEvent } from './sports.js';
import { dayOf, isBusyDay, teamRating } from './sports.js';

export type Tier = 'popular' | 'other' | 'unmapped';
export const TIERS: readonly Tier[] = ['popular', 'other', 'unmapped'];

/** What a selection pays on, for settlement. */
export type Outcome =
  | { kind: 'side'; side: 'home' | 'away' | 'draw' }
  | { kind: 'line'; side: 'home' | 'away'; line: number }
  | { kind: 'total'; side: 'over' | 'under'; line: number }
  | { kind: 'draw' }
  /** One of a market whose selections exclude each other: one draw per event and market decides which wins, the
   * selection whose share [from, to) of the unit interval holds it. */
  | { kind: 'one_of'; key: string; from: number; to: number };

export interface CardSelection {
  label: string;
  baseOdds: number;
  line: number | null;
  player: string | null;
  slug: string;
  propositionId: string | null;
  reason: 'no_proposition_id' | 'ambiguous_proposition_id' | null;
  /** Fair chance of winning, used to settle markets the score cannot decide. */
  chance: number;
  outcome: Outcome;
}

export interface CardMarket {
  market: string;
  label: string;
  rawName: string;
  tier: Tier;
  selections: CardSelection[];
}

interface Draft {
  label: string;
  chance: number;
  line?: number | null;
  player?: string | null;
  slug?: string;
  outcome?: Outcome;
}

const BOOK_MARGIN: Record<Bookie, number> = { bookie_a: 1.05, bookie_b: 1.07, bookie_c: 1.06 };

// Each book words the same market its own way (raw_market_name).
const RAW_NAMES: Record<string, [string, string, string]> = {
  head_to_head: ['Head To Head', 'Match Winner', 'Money Line'],
  line: ['Line', 'Handicap', 'Point Spread'],
  total_points: ['Total Points', 'Over/Under', 'Match Total'],
};

function priceOf(chance: number, margin: number, rng: Rng): number {
  const noisy = chance * margin * (1 + (rng() - 0.5) * 0.04);
  return Math.min(501, Math.max(1.01, roundPrice(1 / noisy)));
}

function halfLine(x: number): number {
  return Math.floor(x) + 0.5;
}

/** A handicap as slug words that keep its sign: -1.5 → 'minus 1.5', +1.5 → 'plus 1.5' (issue 36). */
function signedWords(line: number): string {
  return `${line < 0 ? 'minus' : 'plus'} ${Math.abs(line)}`;
}

/**
 * The name a card shows for each player of a fixture: the player's own name, or, when both squads hold someone
 * of that name, the name with the team, so that two people never share a row's label, slug or `player`.
 */
function shownSquads(seed: number, ev: SportEvent): Map<string, string[]> {
  const home = ev.home as string;
  const away = ev.away as string;
  const homeSquad = squad(seed, ev.league, home, 8);
  const awaySquad = squad(seed, ev.league, away, 8);
  const shared = new Set(homeSquad.filter((n) => awaySquad.includes(n)));
  const shown = (team: string, names: string[]) => names.map((n) => (shared.has(n) ? `${n} (${team})` : n));
  return new Map([
    [home, shown(home, homeSquad)],
    [away, shown(away, awaySquad)],
  ]);
}

class CardBuilder {
  readonly markets: CardMarket[] = [];
  readonly bookLabel: string;
  constructor(
    private readonly seed: number,
    private readonly ev: SportEvent,
    private readonly bookie: Bookie,
    private readonly rng: Rng,
  ) {
    this.bookLabel = bookie === 'bookie_a' ? 'Book A' : bookie === 'bookie_b' ? 'Book B' : 'Book C';
  }

  add(market: string, label: string, tier: Tier, drafts: Draft[], opts: { allUnbettable?: boolean } = {}): void {
    const margin = BOOK_MARGIN[this.bookie];
    const bookIndex = this.bookie === 'bookie_a' ? 0 : this.bookie === 'bookie_b' ? 1 : 2;
    // A book that says "Total Points" says "Total Goals" on a football match.
    const named = RAW_NAMES[market]?.[bookIndex];
    const rawName = named === 'Total Points' && label === 'Total Goals' ? label : (named ?? label);
    const shares = exclusiveShares(this.ev.epk, market, drafts);
    const selections = drafts.map((d, i): CardSelection => {
      const slug = d.slug ?? slugify(d.label);
      const r = this.rng();
      const reason =
        opts.allUnbettable || r < 0.06 ? 'no_proposition_id' : r < 0.08 ? 'ambiguous_proposition_id' : null;
      return {
        label: d.label,
        baseOdds: priceOf(d.chance, margin, this.rng),
        line: d.line ?? null,
        player: d.player ?? null,
        slug,
        propositionId:
          reason === 'no_proposition_id'
            ? null
            : `${this.bookie.slice(-1)}p${hashKey(this.seed, 'prop', this.bookie, this.ev.epk, market, slug).toString(36)}`,
        reason,
        chance: d.chance,
        outcome: shares?.[i] ?? d.outcome ?? { kind: 'draw' },
      };
    });
    this.markets.push({ market, label, rawName, tier, selections });
  }
}

/**
 * A market the score cannot decide whose selections cover every result once (no player, chances adding up to 1):
 * each selection's share of one draw, so exactly one of them wins, the same one at every book. Else null (each
 * selection then stands alone: a player's props, or a market that does not cover every result).
 */
function exclusiveShares(epk: string, market: string, drafts: readonly Draft[]): Outcome[] | null {
  if (drafts.length < 2 || drafts.some((d) => d.player || (d.outcome && d.outcome.kind !== 'draw'))) return null;
  const sum = drafts.reduce((s, d) => s + d.chance, 0);
  if (Math.abs(sum - 1) > 0.01) return null;
  let from = 0;
  return drafts.map((d, i) => {
    const to = i === drafts.length - 1 ? 1 : from + d.chance / sum;
    const share: Outcome = { kind: 'one_of', key: `${epk}|${market}`, from, to };
    from = to;
    return share;
  });
}

function overUnder(line: number, player: string | null, prefix: string, lean = 0): Draft[] {
  const who = player ? `${player} ` : '';
  return [
    {
      label: `${who}Over ${line}`,
      chance: 0.5 + lean,
      line,
      player,
      slug: slugify(`${prefix}${who}over ${line}`),
      outcome: { kind: 'total', side: 'over', line },
    },
    {
      label: `${who}Under ${line}`,
      chance: 0.5 - lean,
      line,
      player,
      slug: slugify(`${prefix}${who}under ${line}`),
      outcome: { kind: 'total', side: 'under', line },
    },
  ];
}

/** Sports scored in goals: their totals read "Total Goals" and their margins are a goal or two, not points. */
const GOAL_SPORTS = new Set(['soccer', 'ice_hockey']);

// Typical totals and line sizes per sport.
const TOTALS: Record<string, [number, number]> = {
  basketball: [222, 14],
  american_football: [45, 10],
  baseball: [8.5, 3],
  ice_hockey: [6, 2],
  aussie_rules: [165, 40],
  rugby_league: [42, 16],
  rugby_union: [48, 16],
  soccer: [2.5, 1],
  tennis: [22.5, 5],
  cricket: [310, 60],
};

const PROPS: Record<string, { market: string; label: string; tier: Tier; base: number; players: number }[]> = {
  basketball: [
    { market: 'points', label: 'Player Points', tier: 'popular', base: 24, players: 5 },
    { market: 'rebounds', label: 'Player Rebounds', tier: 'other', base: 9, players: 5 },
    { market: 'assists', label: 'Player Assists', tier: 'other', base: 7, players: 5 },
    { market: 'threes', label: 'Player Threes', tier: 'other', base: 3, players: 4 },
    { market: 'pra', label: 'Points + Rebounds + Assists', tier: 'other', base: 36, players: 4 },
  ],
  aussie_rules: [
    { market: 'disposals', label: 'Player Disposals', tier: 'popular', base: 27, players: 8 },
    { market: 'marks', label: 'Player Marks', tier: 'other', base: 7, players: 6 },
    { market: 'tackles', label: 'Player Tackles', tier: 'other', base: 5, players: 6 },
  ],
  rugby_league: [{ market: 'nrl_tackles', label: 'Player Tackles', tier: 'other', base: 34, players: 6 }],
  american_football: [
    { market: 'player_passing_yards', label: 'Passing Yards', tier: 'popular', base: 255, players: 1 },
    { market: 'player_rushing_yards', label: 'Rushing Yards', tier: 'other', base: 70, players: 2 },
    { market: 'player_receiving_yards', label: 'Receiving Yards', tier: 'other', base: 65, players: 3 },
  ],
  baseball: [{ market: 'player_hits', label: 'Player Hits', tier: 'other', base: 1, players: 5 }],
  ice_hockey: [{ market: 'player_shots', label: 'Player Shots On Goal', tier: 'other', base: 3, players: 5 }],
};

const SCORERS: Record<string, { market: string; label: string; thresholds: number[]; players: number; tier: Tier }> = {
  aussie_rules: {
    market: 'goalscorer_threshold_afl',
    label: 'Goal Scorer',
    thresholds: [1, 2, 3],
    players: 6,
    tier: 'popular',
  },
  rugby_league: {
    market: 'try_scorer_threshold',
    label: 'Try Scorer',
    thresholds: [1, 2],
    players: 8,
    tier: 'popular',
  },
  soccer: { market: 'goalscorer_threshold', label: 'Goal Scorer', thresholds: [1, 2], players: 6, tier: 'popular' },
  american_football: {
    market: 'anytime_touchdown_scorer',
    label: 'Anytime Touchdown Scorer',
    thresholds: [1],
    players: 6,
    tier: 'popular',
  },
  ice_hockey: {
    market: 'anytime_goal_scorer',
    label: 'Anytime Goal Scorer',
    thresholds: [1],
    players: 6,
    tier: 'other',
  },
};

const TEAM_SPORTS = new Set(Object.keys(TOTALS));

function fixtureCard(b: CardBuilder, seed: number, ev: SportEvent, rng: Rng): void {
  const home = ev.home as string;
  const away = ev.away as string;
  const p = ev.homeWinChance;
  if (ev.def.draws) {
    const draw = 0.26;
    b.add('head_to_head', 'Head to Head', 'popular', [
      { label: home, chance: p * (1 - draw), slug: 'home', outcome: { kind: 'side', side: 'home' } },
      { label: 'Draw', chance: draw, slug: 'draw', outcome: { kind: 'side', side: 'draw' } },
      { label: away, chance: (1 - p) * (1 - draw), slug: 'away', outcome: { kind: 'side', side: 'away' } },
    ]);
  } else {
    b.add('head_to_head', 'Head to Head', 'popular', [
      { label: home, chance: p, slug: 'home', outcome: { kind: 'side', side: 'home' } },
      { label: away, chance: 1 - p, slug: 'away', outcome: { kind: 'side', side: 'away' } },
    ]);
  }
  const totals = TOTALS[ev.sport];
  if (totals && TEAM_SPORTS.has(ev.sport)) {
    const [total, spread] = totals;
    const homeLine = -halfLine((p - 0.5) * spread);
    const lineDrafts = (hl: number): Draft[] => [
      {
        label: `${home} ${hl > 0 ? '+' : ''}${hl}`,
        chance: 0.5,
        line: hl,
        slug: slugify(`home ${signedWords(hl)}`),
        outcome: { kind: 'line', side: 'home', line: hl },
      },
      {
        label: `${away} ${-hl > 0 ? '+' : ''}${-hl}`,
        chance: 0.5,
        line: -hl,
        slug: slugify(`away ${signedWords(-hl)}`),
        outcome: { kind: 'line', side: 'away', line: -hl },
      },
    ];
    b.add('line', 'Line', 'popular', lineDrafts(homeLine));
    const mainTotal = halfLine(total + (rng() - 0.5) * spread * 0.3);
    const goals = GOAL_SPORTS.has(ev.sport);
    b.add('total_points', goals ? 'Total Goals' : 'Total Points', 'popular', overUnder(mainTotal, null, ''));
    const step = Math.max(0.5, Math.round(spread / 4));
    const alt: Draft[] = [];
    const altLines: Draft[] = [];
    for (let k = -3; k <= 3; k++) {
      if (k === 0) continue;
      const lean = Math.max(-0.4, Math.min(0.4, -k * 0.09));
      alt.push(...overUnder(mainTotal + k * step, null, 'alt ', lean));
      const hl = homeLine + k * step;
      for (const d of lineDrafts(hl))
        altLines.push({
          ...d,
          chance: d.outcome?.kind === 'line' && d.outcome.side === 'home' ? 0.5 + k * 0.08 : 0.5 - k * 0.08,
        });
    }
    b.add('alternate_total_points', goals ? 'Alternate Total Goals' : 'Alternate Total Points', 'other', alt);
    b.add('alternate_line', 'Alternate Line', 'other', altLines);
  }

  const teams: [string, 'home' | 'away'][] = [
    [home, 'home'],
    [away, 'away'],
  ];
  const squads = shownSquads(seed, ev);
  for (const prop of PROPS[ev.sport] ?? []) {
    const drafts: Draft[] = [];
    for (const [team] of teams) {
      (squads.get(team) ?? []).slice(0, prop.players).forEach((player, rank) => {
        const line = halfLine(Math.max(0.5, prop.base * (1 - rank * 0.15)));
        drafts.push(...overUnder(line, player, `${prop.market} `));
      });
    }
    b.add(prop.market, prop.label, prop.tier, drafts);
  }
  const scorer = SCORERS[ev.sport];
  if (scorer) {
    const drafts: Draft[] = [];
    for (const [team] of teams) {
      (squads.get(team) ?? []).slice(0, scorer.players).forEach((player, rank) => {
        for (const n of scorer.thresholds) {
          const chance = Math.max(0.03, (0.55 - rank * 0.07) / n ** 1.6);
          drafts.push({
            label: n === 1 ? player : `${player} ${n}+`,
            chance,
            line: n,
            player,
            slug: slugify(`${player} ${n} plus`),
          });
        }
      });
    }
    b.add(scorer.market, scorer.label, scorer.tier, drafts);
  }
  if (ev.def.draws) {
    b.add('both_teams_to_score', 'Both Teams To Score', 'other', [
      { label: 'Yes', chance: 0.55, slug: 'yes' },
      { label: 'No', chance: 0.45, slug: 'no' },
    ]);
  }
  if (ev.sport === 'mma' || ev.sport === 'boxing') {
    b.add('method_of_victory', 'Method of Victory', 'other', [
      { label: `${home} by KO/TKO`, chance: p * 0.5 },
      { label: `${home} on Points`, chance: p * 0.5 },
      { label: `${away} by KO/TKO`, chance: (1 - p) * 0.5 },
      { label: `${away} on Points`, chance: (1 - p) * 0.5 },
    ]);
  }
  // Bookmaker-specific markets nobody has named yet: compared across books at your peril.
  const bands = GOAL_SPORTS.has(ev.sport) ? ['1', '2+'] : ['1-12', '13+'];
  const special = `${ev.def.name} Winning Margin (${b.bookLabel})`;
  b.add(
    slugify(special),
    special,
    'unmapped',
    teams.flatMap(([team, side]) =>
      bands.map((band, i) => ({
        label: `${team} by ${band}`,
        chance: (side === 'home' ? p : 1 - p) * (i === 0 ? 0.6 : 0.4),
      })),
    ),
  );
  b.add(slugify(`${ev.def.name} First Score Special`), `First Score Special`, 'unmapped', [
    { label: `${home} to score first`, chance: 0.5 },
    { label: `${away} to score first`, chance: 0.5 },
  ]);
  // A market with nothing placeable: shown only with include_unbettable=true.
  b.add(
    'same_game_specials',
    'Same Game Specials',
    'unmapped',
    [
      { label: `${home} & Over`, chance: 0.3 },
      { label: `${away} & Under`, chance: 0.3 },
    ],
    { allUnbettable: true },
  );
  // Added last so the markets above keep their draws: basketball's deeper card.
  if (ev.sport === 'basketball') basketballExtras(b, seed, ev, rng);
}

function basketballExtras(b: CardBuilder, seed: number, ev: SportEvent, rng: Rng): void {
  const home = ev.home as string;
  const away = ev.away as string;
  const squads = shownSquads(seed, ev);
  for (const prop of [
    { market: 'steals', label: 'Player Steals', base: 2 },
    { market: 'blocks', label: 'Player Blocks', base: 1.5 },
  ]) {
    const drafts: Draft[] = [];
    for (const team of [home, away]) {
      (squads.get(team) ?? []).slice(0, 3).forEach((player, rank) => {
        drafts.push(...overUnder(halfLine(Math.max(0.5, prop.base * (1 - rank * 0.2))), player, `${prop.market} `));
      });
    }
    b.add(prop.market, prop.label, 'other', drafts);
  }
  const [total, spread] = TOTALS.basketball as [number, number];
  const halfTotal = halfLine(total / 2 + (rng() - 0.5) * 4);
  b.add('first_half_total', 'First Half Total', 'other', overUnder(halfTotal, null, 'first half '));
  const hl = -halfLine((ev.homeWinChance - 0.5) * spread * 0.5);
  b.add('first_half_line', 'First Half Line', 'other', [
    {
      label: `${home} ${hl > 0 ? '+' : ''}${hl}`,
      chance: 0.5,
      line: hl,
      slug: slugify(`first half home ${signedWords(hl)}`),
      outcome: { kind: 'draw' },
    },
    {
      label: `${away} ${-hl > 0 ? '+' : ''}${-hl}`,
      chance: 0.5,
      line: -hl,
      slug: slugify(`first half away ${signedWords(-hl)}`),
      outcome: { kind: 'draw' },
    },
  ]);
}

function outrightCard(b: CardBuilder, seed: number, ev: SportEvent): void {
  const field = ev.league === 'golf' ? GOLFERS : ev.def.teams;
  const weights = field.map((t) => 0.2 + teamRating(seed, ev.league, t) ** 2);
  const sum = weights.reduce((a, w) => a + w, 0);
  b.add(
    'outright_winner',
    'Outright Winner',
    'popular',
    field.map((t, i) => ({ label: t, chance: (weights[i] as number) / sum })),
  );
}

/** The card a book holds for an event (base prices; drift is applied when read). */
export function buildCard(seed: number, ev: SportEvent, bookie: Bookie): CardMarket[] {
  const rng = rngFor(seed, 'card', ev.epk, bookie);
  const b = new CardBuilder(seed, ev, bookie, rng);
  if (ev.isOutright) outrightCard(b, seed, ev);
  else fixtureCard(b, seed, ev, rng);
  // Books skip a few of the less popular markets, except on a deep card (every NBA game of a busy day).
  const deep = !ev.isOutright && isBusyDay(ev.def, dayOf(ev.startMs));
  return b.markets.filter(
    (m) =>
      deep ||
      m.tier === 'popular' ||
      m.market === 'same_game_specials' ||
      rngFor(seed, 'carry', ev.epk, bookie, m.market)() < 0.85,
  );
}

/** A book that takes no bets on the sport still prices it, but holds no proposition id to place with (decision 1995). */
export function withoutIds(card: readonly CardMarket[]): CardMarket[] {
  return card.map((m) => ({
    ...m,
    selections: m.selections.map((s) => ({ ...s, propositionId: null, reason: 'no_proposition_id' as const })),
  }));
}
