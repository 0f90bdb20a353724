import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/bot/catalog/catalog.js';
import { eventsForDay } from '../../../src/bot/catalog/events-query.js';
import type { Event } from '../../../src/gateway/index.js';

// Issue 45: at 12:46 UTC, `/events league:NBA` listed five games finished in the small hours and tonight's games were
// under date:tomorrow, so finding tonight meant knowing where the gateway's (UTC) day ends. With no date, the listing
// is what is in play or starts within a day of the moment asked.
const NOW = Date.parse('2026-11-28T12:46:00Z');

const game = (name: string, start: string, status: Event['status']): Event =>
  ({
    event_id: name,
    name,
    league: 'nba',
    sport: 'basketball',
    start_time: start,
    status,
    books: ['bookie_a'],
  }) as Event;

const day = [
  game('early_finished', '2026-11-28T00:30:00Z', 'finished'),
  game('late_finished', '2026-11-28T03:00:00Z', 'finished'),
  game('afternoon_in_play', '2026-11-28T11:30:00Z', 'in_play'),
  game('tonight_first', '2026-11-29T00:00:00Z', 'prematch'),
  game('tonight_late', '2026-11-29T03:00:00Z', 'prematch'),
  game('next_night', '2026-11-30T00:00:00Z', 'prematch'),
];
const catalog = { loadEvents: async () => day } as unknown as Catalog;

describe('/events with no date', () => {
  it("lists tonight's games and the one in play, not the small hours' finished ones nor the next night's", async () => {
    const listed = await eventsForDay({ catalog }, { league: 'nba', day: '2026-11-28', timezone: 'UTC', from: NOW });
    expect(listed.map((e) => e.name)).toEqual(['afternoon_in_play', 'tonight_first', 'tonight_late']);
  });

  it('with a date, still lists that whole day in the server zone', async () => {
    const listed = await eventsForDay({ catalog }, { league: 'nba', day: '2026-11-28', timezone: 'UTC' });
    expect(listed.map((e) => e.name)).toEqual(['early_finished', 'late_finished', 'afternoon_in_play']);
  });
});
