import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import { bettable } from '../../src/bot/model/markets.js';
import type { Event, TransactionsResult } from '../../src/gateway/index.js';
import { type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
let event: Event;
let betIds: string[] = [];

beforeAll(async () => {
  desk = await startDesk();
  const ctx = desk.bot.context;
  const events = await ctx.catalog.loadEvents(upcomingWindow(desk.now()));
  let refs: string[] = [];
  for (const e of events.filter((x) => x.status === 'prematch' && (x.books ?? []).includes('bookie_a'))) {
    const card = await ctx.catalog.loadCard(e.event_id, 'bookie_a');
    refs = card.markets.flatMap((m) => bettable(m)).map((s) => s.market_ref as string);
    if (card.bound && card.market_ref_betting_enabled && refs.length >= 3) {
      event = e;
      break;
    }
  }
  expect(event).toBeDefined();
  // Three bets through the bet service, as the slip's Confirm places them.
  for (const [i, marketRef] of refs.slice(0, 3).entries()) {
    const slip = await ctx.slipFactory.prepareSlip({
      guildId: desk.ld.guildId,
      channelId: desk.ld.channelIds.bets,
      userId: desk.ld.users.bettor.id,
      epk: event.event_id,
      bookie: 'bookie_a',
      marketRef,
      stakeCents: (5 + i) * 100,
    });
    const messageId = await ctx.poster.post(desk.ld.channelIds.bets, { embeds: [{ title: 'slip' }], components: [] });
    await ctx.placement.attachMessage(slip.slipId, desk.ld.channelIds.bets, messageId);
    const r = await ctx.placement.confirm(slip.slipId, desk.ld.users.bettor.id, {
      channelId: desk.ld.channelIds.bets,
      messageId,
    });
    expect(r.kind).toBe('recorded');
  }
  const placed = async () =>
    desk.bot.store.query<{ bet_id: string }>("SELECT bet_id FROM bet_records WHERE state = 'placed'");
  betIds = (
    await until('three bets placed', async () => ((await placed()).length === 3 ? placed() : undefined), {
      timeoutMs: 15_000,
    })
  ).map((r) => r.bet_id);
  const res = await fetch(`${desk.sandbox.url}/_sandbox/settle`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ epk: event.event_id }),
  });
  expect(res.status).toBe(200);
  await desk.bot.settlement.tickFresh();
});
afterAll(async () => {
  await desk?.close();
});

async function run(name: string, options: Record<string, string | number>) {
  const ix = await desk.ld.sendCommand({
    user: desk.ld.users.bettor,
    channelId: desk.ld.channelIds.bets,
    name,
    options,
  });
  return until(`the /${name} reply`, () => ix.responses().find((m) => m.embeds.length > 0 && !((m.flags ?? 0) & 128)), {
    timeoutMs: 30_000,
  });
}

/** The sandbox's own P&L of our bets, from its transactions, in cents. */
async function sandboxProfitCents(): Promise<number> {
  const sessions = await desk.bot.context.gateway.sessions.list();
  const session = sessions.find((s) => s.bookie === 'bookie_a' && s.active);
  const handle = await desk.bot.context.gateway.transactions.list({
    session_id: session?.session_id ?? '',
    limit: 200,
  });
  const out = await handle.wait({ signal: AbortSignal.timeout(20_000) });
  expect(out.status).toBe('completed');
  const txs = out.status === 'completed' ? (out.result as TransactionsResult).transactions : [];
  return txs.filter((t) => betIds.includes(t.id)).reduce((s, t) => s + Math.round((t.pnl ?? 0) * 100), 0);
}

const money = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;

describe('/stats and /leaderboard over the bets the desk placed', () => {
  it('/stats shows the profit the sandbox’s transactions show, and attaches the chart', async () => {
    const reply = await run('stats', { days: 7 });
    const embed = reply.embeds[0] as { fields?: Array<{ name: string; value: string }>; image?: { url: string } };
    const profit = embed.fields?.find((f) => f.name === 'Profit')?.value;
    expect(profit).toBe(money(await sandboxProfitCents()));
    expect(embed.image?.url).toBe('attachment://stats.png');
  });

  it('/stats counts every settled bet without a captured close against the capture rate', async () => {
    const reply = await run('stats', { days: 7, book: 'bookie_a' });
    const fields = (reply.embeds[0] as { fields?: Array<{ name: string; value: string }> }).fields ?? [];
    const settled = await desk.bot.store.query(
      "SELECT bet_id FROM bet_records WHERE state = 'settled' AND settled_status <> 'void'",
    );
    expect(fields.find((f) => f.name === 'Close captured')?.value).toContain(`of ${settled.length} settled`);
  });

  it('/stats for a member with no bets says so instead of failing', async () => {
    const reply = await run('stats', { member: desk.ld.users.viewer.id });
    expect(JSON.stringify(reply.embeds)).toContain('No bets in this window');
  });

  it('/stats tells skill from luck by the number of bets with a close it has against the minimum asked', async () => {
    const closes = await desk.bot.store.query('SELECT bet_id FROM bet_records WHERE close_odds IS NOT NULL');
    // The minimum asked is always above what the desk has (and at least the 2 an interval needs).
    const reply = await run('stats', { days: 7, min_bets: closes.length + 2 });
    const fields = (reply.embeds[0] as { fields?: Array<{ name: string; value: string }> }).fields ?? [];
    expect(fields.find((f) => f.name === 'Skill or luck?')?.value).toBe(
      `too few bets to tell: ${closes.length} of the ${closes.length + 2} needed (bets with a close)`,
    );
  });

  it('/leaderboard leaves out members under the minimum number of bets with a close', async () => {
    const closes = await desk.bot.store.query('SELECT bet_id FROM bet_records WHERE close_odds IS NOT NULL');
    const reply = await run('leaderboard', { min_bets: closes.length + 1 });
    expect(JSON.stringify(reply.embeds)).toContain(`Not ranked yet`);
    expect(JSON.stringify(reply.embeds)).toContain(`<@${desk.ld.users.bettor.id}> (${closes.length})`);
  });
});
