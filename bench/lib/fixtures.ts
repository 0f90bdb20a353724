// Deterministic response bodies of realistic size: a ~300-selection market card and a 500-event page,
// shaped as the spec describes them (documented fields only, as a gateway would send them).

const SPORTS = [
  ['basketball', 'nba', 'us'],
  ['soccer', 'epl', 'gb'],
  ['aussie_rules', 'afl', 'au'],
  ['rugby_league', 'nrl', 'au'],
] as const;

function pick<T>(xs: readonly T[], i: number): T {
  return xs[i % xs.length]!;
}

export function marketCard(selections = 300): Record<string, unknown> {
  const markets: Record<string, unknown>[] = [];
  let made = 0;
  let m = 0;
  while (made < selections) {
    const tier = m < 6 ? 'popular' : m < 24 ? 'other' : 'unmapped';
    const size = Math.min(selections - made, m < 3 ? 2 : 8 + (m % 7));
    const rows = Array.from({ length: size }, (_, s) => {
      const bettable = (m + s) % 11 !== 0;
      const row: Record<string, unknown> = {
        label: `Player ${m}-${s} Over`,
        odds: Math.round((1.3 + ((m * 7 + s * 3) % 40) / 10) * 100) / 100,
        line: s % 3 === 0 ? null : 10.5 + s,
        player: s % 2 === 0 ? `Player ${m}-${s}` : null,
        slug: `player_${m}_${s}_over`,
        proposition_id: bettable ? `prop-${m}-${s}-${(m * 31 + s) % 997}` : null,
        bettable,
      };
      if (bettable) row.market_ref = `mr:${m}:${s}:${(m * 131 + s * 17) % 100_003}`;
      else row.reason = 'no_proposition_id';
      return row;
    });
    markets.push({
      market: tier === 'unmapped' ? `bookie_a_market_${m}` : `market_${m}`,
      label: `Market ${m}`,
      raw_market_name: `Bookmaker Market Title ${m}`,
      tier,
      n_bettable: rows.filter((r) => r.bettable).length,
      selections: rows,
    });
    made += size;
    m++;
  }
  return {
    epk: 'basketball/us/nba/lakers_v_celtics/2026-11-22',
    bookie: 'bookie_a',
    site_event_id: 'A-100234',
    bound: true,
    market_ref_betting_enabled: true,
    n_markets: markets.length,
    n_selections: selections,
    n_bettable_selections: selections,
    include_unbettable: true,
    filters: { tier: null, market: null, include_unbettable: true },
    markets,
  };
}

export function eventsPage(count = 500): Record<string, unknown> {
  const data = Array.from({ length: count }, (_, i) => {
    const [sport, league, country] = pick(SPORTS, i);
    const home = `Home Team ${i}`;
    const away = `Away Team ${i}`;
    const day = `2026-11-${String(15 + (i % 14)).padStart(2, '0')}`;
    const status = i % 5 === 0 ? 'finished' : i % 7 === 0 ? 'in_play' : 'prematch';
    const slug = (s: string) => s.toLowerCase().replaceAll(' ', '_');
    return {
      event_id: `${sport}/${country}/${league}/${slug(home)}_v_${slug(away)}/${day}`,
      sport,
      league,
      country,
      name: `${home} v ${away}`,
      home,
      away,
      participants: [home, away],
      competitors: [
        { id: `t${i}h`, name: home, side: 'home', logo_url: null },
        { id: `t${i}a`, name: away, side: 'away', logo_url: `https://img.example/${i}.png` },
      ],
      is_outright: false,
      start_time: `${day}T0${i % 10}:30:00Z`,
      status,
      books: ['bookie_a', 'bookie_b', 'bookie_c'].slice(0, 1 + (i % 3)),
      score:
        status === 'prematch'
          ? null
          : {
              status: status === 'finished' ? 'final' : 'live',
              home_score: i % 9,
              away_score: i % 4,
              source: 'feed',
              source_game_id: `g${i}`,
            },
      has_closing: status === 'finished' ? i % 2 === 0 : null,
      off_at: status === 'finished' ? `${day}T0${i % 10}:31:00Z` : undefined,
      off_source: status === 'finished' ? 'quorum' : undefined,
    };
  });
  return {
    count,
    truncated: true,
    next_cursor: 'c-500',
    since: '2026-11-15',
    until: '2026-11-28',
    data,
    generated_at: '2026-11-21T22:00:00Z',
  };
}
