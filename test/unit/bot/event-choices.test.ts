import { describe, expect, it } from 'vitest';
import { eventChoices } from '../../../src/bot/catalog/handlers/choices.js';
import type { BotContext } from '../../../src/bot/context.js';

const NOW = Date.parse('2026-11-21T23:54:00Z');

function event(id: string, start: string, status: 'prematch' | 'in_play' | 'finished', books = ['bookie_a']) {
  return { event_id: id, name: id, league: 'nba', start_time: start, status, books };
}

// Only what eventChoices reads: the clock and the cached event list.
function contextWith(events: ReturnType<typeof event>[]): BotContext {
  return { now: () => NOW, catalog: { peekEvents: async () => events } } as unknown as BotContext;
}

describe('event autocomplete', () => {
  it('offers events still to start before in-play ones, and never finished ones', async () => {
    const ctx = contextWith([
      event('early_v_game', '2026-11-21T20:45:00Z', 'in_play'),
      event('done_v_game', '2026-11-21T12:00:00Z', 'finished'),
      event('late_v_game', '2026-11-22T01:00:00Z', 'prematch'),
      event('next_v_day', '2026-11-22T18:00:00Z', 'prematch'),
    ]);
    const values = (await eventChoices(ctx, '')).map((c) => c.value);
    expect(values).toEqual(['late_v_game', 'next_v_day', 'early_v_game']);
  });

  it('leaves out events no book lists yet: they have no card to bet on', async () => {
    const ctx = contextWith([
      event('unlisted_v_game', '2026-11-22T02:00:00Z', 'prematch', []),
      event('listed_v_game', '2026-11-22T05:30:00Z', 'prematch'),
    ]);
    expect((await eventChoices(ctx, '')).map((c) => c.value)).toEqual(['listed_v_game']);
  });
});
