import { describe, expect, it } from 'vitest';
import { eventChoices } from '../../../src/bot/catalog/handlers/choices.js';
import type { BotContext } from '../../../src/bot/context.js';

const NOW = Date.parse('2026-11-21T23:54:00Z');

function event(id: string, start: string, status: 'prematch' | 'in_play' | 'finished', books = ['bookie_a']) {
  return { event_id: id, name: id, league: 'nba', start_time: start, status, books };
}

// Only what eventChoices reads: the clock, the cached event list and the server's settings (its time zone).
function contextWith(events: ReturnType<typeof event>[], timezone = 'UTC'): BotContext {
  return {
    now: () => NOW,
    catalog: { peekEvents: async () => events },
    store: { kv: { get: async () => ({ version: 2, timezone }) } },
  } as unknown as BotContext;
}
const GUILD = { guildId: '1' };

describe('event autocomplete', () => {
  it('offers events still to start before in-play ones, and never finished ones', async () => {
    const ctx = contextWith([
      event('early_v_game', '2026-11-21T20:45:00Z', 'in_play'),
      event('done_v_game', '2026-11-21T12:00:00Z', 'finished'),
      event('late_v_game', '2026-11-22T01:00:00Z', 'prematch'),
      event('next_v_day', '2026-11-22T18:00:00Z', 'prematch'),
    ]);
    const values = (await eventChoices(ctx, '', GUILD)).map((c) => c.value);
    expect(values).toEqual(['late_v_game', 'next_v_day', 'early_v_game']);
  });

  it('leaves out events no book lists yet: they have no card to bet on', async () => {
    const ctx = contextWith([
      event('unlisted_v_game', '2026-11-22T02:00:00Z', 'prematch', []),
      event('listed_v_game', '2026-11-22T05:30:00Z', 'prematch'),
    ]);
    expect((await eventChoices(ctx, '', GUILD)).map((c) => c.value)).toEqual(['listed_v_game']);
  });

  it("says each start in the server's time zone, from today, as /events lists it", async () => {
    const games = [
      event('late_v_game', '2026-11-22T01:00:00Z', 'prematch'),
      event('far_v_game', '2026-11-24T09:00:00Z', 'prematch'),
    ];
    const names = async (zone: string) => (await eventChoices(contextWith(games, zone), '', GUILD)).map((c) => c.name);
    // 23:54 UTC: tonight's late game is tomorrow in UTC, said so.
    expect(await names('UTC')).toEqual([
      'late_v_game · NBA · tomorrow 01:00 UTC',
      'far_v_game · NBA · Tue 24 Nov 09:00 UTC',
    ]);
    // 10:54 in Sydney: the same game is today at noon there, and nothing says UTC.
    expect(await names('Australia/Sydney')).toEqual([
      'late_v_game · NBA · today 12:00 GMT+11',
      'far_v_game · NBA · Tue 24 Nov 20:00 GMT+11',
    ]);
  });
});
