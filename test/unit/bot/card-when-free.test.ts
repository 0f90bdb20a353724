import { describe, expect, it } from 'vitest';
import { cardWhenFree } from '../../../src/bot/card-ref.js';
import { CardLimitError } from '../../../src/bot/catalog.js';
import type { BotContext } from '../../../src/bot/context.js';

const ref = { epk: 'basketball/us/nba/a_v_b/2026-11-22', bookie: 'bookie_a', eventName: 'A v B' };

// Only what cardWhenFree reads: the catalog's card loader.
function contextWhoseLoads(...outcomes: (Error | string)[]): BotContext {
  const loadCard = async () => {
    const next = outcomes.shift();
    if (next instanceof Error) throw next;
    return { epk: ref.epk, bookie: ref.bookie, markets: [], note: next };
  };
  return { catalog: { loadCard } } as unknown as BotContext;
}

describe('a card read over the gateway card limit', () => {
  it('tells the user how long it waits, then serves the card', async () => {
    const queued: number[] = [];
    const card = await cardWhenFree(contextWhoseLoads(new CardLimitError(40), 'the card'), ref, async (ms) => {
      queued.push(ms);
    });
    expect(queued).toEqual([40]);
    expect(card).toMatchObject({ note: 'the card' });
  });

  it('gives up with the limit message when the wait is beyond its patience', async () => {
    const queued: number[] = [];
    const read = cardWhenFree(contextWhoseLoads(new CardLimitError(10 * 60_000)), ref, async (ms) => {
      queued.push(ms);
    });
    await expect(read).rejects.toThrow(/card limit is reached; try again in about 600 s/);
    expect(queued).toEqual([]);
  });

  it('does not retry other failures', async () => {
    const read = cardWhenFree(contextWhoseLoads(new Error('gateway down'), 'never'), ref, async () => undefined);
    await expect(read).rejects.toThrow('gateway down');
  });
});
