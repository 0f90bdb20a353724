// A minimal World used only when the generated world module is unavailable: fixed meetings, no events.
import type { PromoSportsEvent, RacingMeeting, World } from './sandbox.js';

const MEETINGS: RacingMeeting[] = [
  { track: 'Flemington', race_type: 'R', country: 'au', races: 8 },
  { track: 'Randwick', race_type: 'R', country: 'au', races: 8 },
  { track: 'Wentworth Park', race_type: 'G', country: 'au', races: 8 },
  { track: 'Menangle', race_type: 'H', country: 'au', races: 8 },
];

export function createPlaceholderWorld(today: () => string): World {
  return {
    tick() {},
    settle() {
      return { settled: 0 };
    },
    racingMeetings() {
      return MEETINGS;
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
