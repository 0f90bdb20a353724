import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import type { Event } from '../../src/gateway/index.js';
import { controls, type Desk, startDesk } from '../support/bot-desk.js';
import { waitForModal } from '../support/flows.js';
import { responseMatching, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

async function drift(desk: Desk, body: Record<string, unknown>) {
  const r = await fetch(`${desk.sandbox.url}/_sandbox/world/drift`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
}

let desk: Desk;
let event: Event;

beforeAll(async () => {
  desk = await startDesk();
  const events = await desk.bot.context.catalog.loadEvents(upcomingWindow(desk.now()));
  const all3 = events.filter(
    // bookie_c takes no basketball bets in the sandbox: another sport keeps every book's price answerable.
    (e) =>
      e.status === 'prematch' &&
      e.sport !== 'basketball' &&
      ['bookie_a', 'bookie_b', 'bookie_c'].every((b) => (e.books ?? []).includes(b)),
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
  // bookie_b (market_ref betting off in the sandbox) gets the longest price of the first selection.
  const card = await desk.bot.context.catalog.loadCard(event.event_id, 'bookie_b');
  const first = card.markets.find((m) => m.market === 'head_to_head')?.selections.find((s) => s.bettable);
  await drift(desk, {
    factor: 3,
    bookie: 'bookie_b',
    epk: event.event_id,
    market: 'head_to_head',
    selection: first?.slug,
  });
}, 60_000);
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

  it('marks the highest live price among the books that can take the bet as the best', async () => {
    const reply = await compare({ event: event.event_id, market: 'head_to_head' });
    const f = (reply.embeds[0] as { fields: Array<{ value: string }> }).fields[0]?.value ?? '';
    const bettable = f.split('\n').filter((l) => !/cannot bet here/.test(l));
    const prices = bettable.flatMap((l) => [...l.matchAll(/bookie_\w: (\d+\.\d\d)/g)].map((m) => Number(m[1])));
    const best = Number(/⭐ \*\*bookie_\w: (\d+\.\d\d)/.exec(f)?.[1]);
    expect(best).toBe(Math.max(...prices));
  });

  it('prices bookie_b for comparison but says it cannot take the bet, and never offers Bet at best there', async () => {
    const reply = await compare({ event: event.event_id, market: 'head_to_head' });
    const text = JSON.stringify(reply.embeds);
    expect(text).toMatch(
      /bookie_b: \d+\.\d\d(?: · edge [+-]\d+\.\d%)? \(cannot bet here: not taking bets on this event\)/,
    );
    expect(text).not.toMatch(/⭐ \*\*bookie_b/);
    const labels = controls(reply).map((c) => c.label ?? '');
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.filter((l) => l.includes('bookie_b'))).toEqual([]);
  });

  it('Bet at best routes the stake to a book that can take it and posts the slip there', async () => {
    const reply = await compare({ event: event.event_id, market: 'head_to_head' });
    const button = controls(reply).find((c) => c.custom_id?.startsWith('v1:cmp:bet:'));
    const { bettor } = desk.ld.users;
    const modal = waitForModal(desk, bettor.id);
    await desk.ld.clickButton({ user: bettor, message: reply.id, customId: button?.custom_id as string });
    const opened = await modal;
    const handle = await desk.ld.submitModal({
      user: bettor,
      channelId: desk.ld.channelIds.bets,
      customId: opened.customId,
      fields: { [opened.stakeField]: '2' },
    });
    await responseMatching(handle, /posted below/, 30_000);
    const slip = await until('the slip', () =>
      desk.ld
        .messages(desk.ld.channelIds.bets)
        .find((m) => /Bet slip/.test(textOf(m)) && (m.content ?? '').includes(bettor.id)),
    );
    expect(textOf(slip)).toMatch(/Book\nbookie_[ac]/);
    expect(textOf(slip)).toMatch(/Left out: [^\n]*bookie_b \(not taking bets on this event\)/);
  }, 60_000);

  it('refuses a market no book names, saying unmapped markets cannot be compared', async () => {
    const reply = await compare({ event: event.event_id, market: 'no_such_market' });
    expect(JSON.stringify(reply.embeds)).toContain('cannot be compared');
  });
});
