import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import type { Event } from '../../src/gateway/index.js';
import { type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
let events: Event[];

beforeAll(async () => {
  desk = await startDesk();
  events = (await desk.bot.context.catalog.loadEvents(upcomingWindow(desk.now()))).filter((e) =>
    (e.books ?? []).includes('bookie_a'),
  );
  expect(events.length).toBeGreaterThan(1);
});
afterAll(async () => {
  await desk?.close();
});

async function faults(config: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${desk.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

async function markets(epk: string) {
  const { ld } = desk;
  const ix = await ld.sendCommand({
    user: ld.users.bettor,
    channelId: ld.channelIds.bets,
    name: 'markets',
    options: { event: epk, bookie: 'bookie_a' },
  });
  await ix.acknowledged;
  return until(
    'the /markets answer',
    () => ix.responses().find((m) => !((m.flags ?? 0) & 128) && ((m.content ?? '').length > 0 || m.embeds.length > 0)),
    { timeoutMs: 30_000 },
  );
}

describe('the gateway failing under the bot', () => {
  it('answers a /markets the gateway fails with 5xx with a private retry message, and recovers after', async () => {
    const [failing, later] = events as [Event, Event];
    await faults({ errorRates: { '/v3/markets': 1 } });
    const reply = await markets(failing.event_id);
    expect(JSON.stringify(reply.embeds)).toContain(
      'The gateway is having trouble (server error). Try again in a minute.',
    );
    expect(reply.visibleTo).toBe(desk.ld.users.bettor.id);

    await faults({});
    const card = await markets(later.event_id);
    expect(JSON.stringify(card.embeds)).not.toContain('server error');
    expect(card.components?.length ?? 0).toBeGreaterThan(0);
    expect(desk.logs.join('\n')).not.toContain('sandbox-key-alpha');
  });
});
