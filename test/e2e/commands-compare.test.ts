import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/choices.js';
import type { Event } from '../../src/gateway/index.js';
import { controls, type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
let event: Event;

beforeAll(async () => {
  desk = await startDesk();
  const events = await desk.bot.context.catalog.loadEvents(upcomingWindow(Date.now()));
  const all3 = events.filter(
    (e) => e.status === 'prematch' && ['bookie_a', 'bookie_b', 'bookie_c'].every((b) => (e.books ?? []).includes(b)),
  );
  for (const e of all3) {
    const cards = await Promise.all(
      ['bookie_a', 'bookie_b', 'bookie_c'].map((b) => desk.bot.context.catalog.loadCard(e.event_id, b)),
    );
    if (cards.every((c) => c.markets.some((m) => m.market === 'head_to_head' && m.selections.length >= 2))) {
      event = e;
      break;
    }
  }
  expect(event).toBeDefined();
});
afterAll(async () => {
  await desk?.close();
});

async function compare(options: Record<string, string>) {
  const ix = await desk.ld.sendCommand({
    user: desk.ld.users.bettor,
    channelId: desk.ld.channelIds.bets,
    name: 'compare',
    options,
  });
  return until('the /compare reply', () => ix.responses().find((m) => m.embeds.length > 0 && !((m.flags ?? 0) & 128)), {
    timeoutMs: 30_000,
  });
}

describe('/compare', () => {
  it('prices the market live at all three books, marks one best per selection, and offers Bet at best', async () => {
    const reply = await compare({ event: event.event_id, market: 'head_to_head' });
    const fields = (reply.embeds[0] as { fields: Array<{ name: string; value: string }> }).fields;
    expect(fields.length).toBeGreaterThanOrEqual(2);
    for (const f of fields) {
      for (const b of ['bookie_a', 'bookie_b', 'bookie_c']) expect(f.value).toContain(b);
      expect(f.value.match(/⭐/g)).toHaveLength(1);
    }
    const buttons = controls(reply).filter((c) => c.custom_id?.startsWith('v1:cmp:bet:'));
    expect(buttons).toHaveLength(fields.length);
  });

  it('marks the highest live price as the best', async () => {
    const reply = await compare({ event: event.event_id, market: 'head_to_head' });
    const f = (reply.embeds[0] as { fields: Array<{ value: string }> }).fields[0]?.value ?? '';
    const prices = [...f.matchAll(/bookie_\w: (\d+\.\d\d)/g)].map((m) => Number(m[1]));
    const best = Number(/⭐ \*\*bookie_\w: (\d+\.\d\d)/.exec(f)?.[1]);
    expect(best).toBe(Math.max(...prices));
  });

  it('refuses a market no book names, saying unmapped markets cannot be compared', async () => {
    const reply = await compare({ event: event.event_id, market: 'no_such_market' });
    expect(JSON.stringify(reply.embeds)).toContain('cannot be compared');
  });
});
