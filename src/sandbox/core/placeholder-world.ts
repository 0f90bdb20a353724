// A minimal World used only when the generated world module is unavailable: fixed meetings, no events.
import type { PromoSportsEvent, RacingMeeting, World } from './sandbox.js';

const TRACKS = [
  { track: 'Flemington', race_type: 'R', country: 'au' },
  { track: 'Randwick', race_type: 'R', country: 'au' },
  { track: 'Wentworth Park', race_type: 'G', country: 'au' },
  { track: 'Menangle', race_type: 'H', country: 'au' },
] as const;

/** Races every half hour from 01:30 UTC. */
function meetings(date: string): RacingMeeting[] {
  const first = Date.parse(`${date}T01:30:00Z`);
  return TRACKS.map((t) => ({
    ...t,
    races: 8,
    date,
    starts: Array.from({ length: 8 }, (_, i) => first + i * 1_800_000),
  }));
}

export function createPlaceholderWorld(today: () => string): World {
  return {
    tick() {},
    settle() {
      return { settled: 0 };
    },
    racingMeetings(date) {
      return meetings(date);
    },
    upcomingMeetings() {
      return meetings(today());
    },
    sportsEventsForPromos(): PromoSportsEvent[] {
      const date = today();
      return [
        {
          epk: `aussie_rules/au/afl/sydney_swans_v_carlton/${date}`,
          sport: 'AFL',
          competition: 'afl',
          event: 'Sydney Swans v Carlton',
          date,
          selection: 'Sydney Swans',
          base_odds: 1.85,
        },
        {
          epk: `rugby_league/au/nrl/penrith_panthers_v_melbourne_storm/${date}`,
          sport: 'NRL',
          competition: 'nrl',
          event: 'Penrith Panthers v Melbourne Storm',
          date,
          selection: 'Melbourne Storm',
          base_odds: 2.1,
        },
      ];
    },
  };
}
