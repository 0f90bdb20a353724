import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import { bettable } from '../../src/bot/model/markets.js';
import { updateSettings } from '../../src/bot/settings/guild-settings.js';
import type { Event } from '../../src/gateway/index.js';
import { type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
let event: Event;
let marketRefs: string[];

interface SandboxState {
  bets: Array<{ bet_id?: string; status?: string }>;
  webhookDeliveries: Array<{ correlation_id: string; url: string; state: string }>;
}
const state = async () => (await (await fetch(`${desk.sandbox.url}/_sandbox/state`)).json()) as SandboxState;

beforeAll(async () => {
  desk = await startDesk({ webhooks: true });
  const events = await desk.bot.context.catalog.loadEvents(upcomingWindow(desk.now()));
  for (const e of events.filter((x) => x.status === 'prematch' && (x.books ?? []).includes('bookie_a'))) {
    const card = await desk.bot.context.catalog.loadCard(e.event_id, 'bookie_a');
    const refs = card.markets.flatMap((m) => bettable(m)).map((s) => s.market_ref);
    if (card.bound && card.market_ref_betting_enabled && refs.length >= 2) {
      event = e;
      marketRefs = refs;
      break;
    }
  }
  expect(event).toBeDefined();
  await updateSettings(desk.bot.store, desk.ld.guildId, (s) => ({
    ...s,
    resultsChannelId: desk.ld.channelIds.results,
  }));
});
afterAll(async () => {
  await desk?.close();
});

/** A slip as /bet would make it, posted in #bets by the bot so its message can be edited. */
async function slipFor(marketRef: string, stakeCents = 500) {
  const ctx = desk.bot.context;
  const slip = await ctx.slipFactory.prepareSlip({
    guildId: desk.ld.guildId,
    channelId: desk.ld.channelIds.bets,
    userId: desk.ld.users.bettor.id,
    epk: event.event_id,
    bookie: 'bookie_a',
    marketRef,
    stakeCents,
  });
  const messageId = await ctx.poster.post(desk.ld.channelIds.bets, {
    content: 'slip',
    embeds: [{ title: 'Bet slip' }],
    components: [],
  });
  await ctx.placement.attachMessage(slip.slipId, desk.ld.channelIds.bets, messageId);
  return { slip, messageId };
}

describe('bet service and settlement against the sandbox', () => {
  it('confirms once, places one bet by market_ref, and edits the receipt in once', async () => {
    const ctx = desk.bot.context;
    const { slip, messageId } = await slipFor(marketRefs[0] as string);
    const edits: string[] = [];
    desk.ld.events.on('messageUpdate', (e: { message: { id: string; embeds: Array<{ title?: string }> } }) => {
      if (e.message.id === messageId) edits.push(e.message.embeds[0]?.title ?? '');
    });
    const where = { channelId: desk.ld.channelIds.bets, messageId };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => ctx.placement.confirm(slip.slipId, desk.ld.users.bettor.id, where)),
    );
    expect(results.filter((r) => r.kind === 'recorded')).toHaveLength(1);
    await until('the receipt', () => edits.some((t) => t.startsWith('Bet placed')), { timeoutMs: 15_000 });
    await ctx.tracker.idle();
    await new Promise((r) => setTimeout(r, 300));
    expect(edits.filter((t) => t.startsWith('Bet placed'))).toHaveLength(1);
    expect(edits.indexOf('Bet submitted')).toBeLessThan(edits.findIndex((t) => t.startsWith('Bet placed')));
    expect((await state()).bets).toHaveLength(1);
    // The bet carried our callback_url, and the signed delivery was accepted by the receiver.
    const submitted = results.find((r) => r.kind === 'recorded');
    const cid = submitted?.kind === 'recorded' ? (submitted.record.correlationId ?? '') : '';
    const delivery = await until(
      'the webhook delivered to the receiver',
      async () => (await state()).webhookDeliveries.find((d) => d.correlation_id === cid && d.state === 'delivered'),
      { timeoutMs: 15_000 },
    );
    expect(delivery.url).toBe(`${desk.env.WEBHOOK_PUBLIC_URL}/webhooks/gateway`);
  });

  it('refuses with the new price instead of placing when the price fell past the tolerance', async () => {
    const ctx = desk.bot.context;
    const { slip, messageId } = await slipFor(marketRefs[1] as string);
    // The user was shown a far higher price than the live one: as if the market moved against them.
    await desk.bot.store.query(
      `UPDATE slips SET payload = json_set(payload, '$.shownOdds', 50) WHERE slip_id = ?`,
      slip.slipId,
    );
    const before = (await state()).bets.length;
    const r = await ctx.placement.confirm(slip.slipId, desk.ld.users.bettor.id, {
      channelId: desk.ld.channelIds.bets,
      messageId,
    });
    expect(r.kind).toBe('closed');
    if (r.kind === 'closed') {
      expect(r.message).toMatch(/price moved to \d+\.\d\d/);
      // The live price rides along, for the closed slip's "Bet again at <price>" button.
      expect(r.message).toContain(`price moved to ${r.priceMoved?.toFixed(2)}`);
    }
    expect((await state()).bets).toHaveLength(before);
  });

  it('posts one settlement notice per settled bet, also after a restart', async () => {
    const res = await fetch(`${desk.sandbox.url}/_sandbox/settle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ epk: event.event_id }),
    });
    expect(res.status).toBe(200);
    const notices = () =>
      desk.ld
        .messages(desk.ld.channelIds.results)
        .filter((m) => /^(Won|Lost|Void|Cashed out)/.test(m.embeds[0]?.title ?? ''));
    expect(await desk.bot.settlement.tickFresh()).toBe(1);
    await until('the settlement notice', () => notices().length === 1, { timeoutMs: 15_000 });
    expect(await desk.bot.settlement.tick()).toBe(0);
    await desk.restart();
    expect(await desk.bot.settlement.tick()).toBe(0);
    expect(notices()).toHaveLength(1);
    expect(JSON.stringify(notices()[0]?.embeds)).toContain('P&L');
  });

  it('refuses a slip on a book whose chosen session is inactive, saying how to fix it', async () => {
    const ctx = desk.bot.context;
    await updateSettings(desk.bot.store, desk.ld.guildId, (s) => ({
      ...s,
      sessions: { ...s.sessions, bookie_a: '5e55a1fa-0000-4000-8000-0000000000b2' },
    }));
    await expect(ctx.slipFactory.sessionFor(desk.ld.guildId, 'bookie_a')).rejects.toThrow(/no longer exists|inactive/);
    const sessions = await ctx.gateway.sessions.list();
    const idle = sessions.find((x) => !x.active);
    expect(idle).toBeDefined();
    await updateSettings(desk.bot.store, desk.ld.guildId, (s) => ({
      ...s,
      sessions: { ...s.sessions, [idle?.bookie ?? '']: idle?.session_id ?? '' },
    }));
    await expect(ctx.slipFactory.sessionFor(desk.ld.guildId, idle?.bookie ?? '')).rejects.toThrow(
      /is inactive.*\/settings/,
    );
  });
});
