// "Bet at best" under /compare bets through the session an admin chose for the book, as best-price /bet does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import { type Event, GatewayClient } from '../../src/gateway/index.js';
import { control, type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

// The bravo account: its bookie_c login has a second machine (a laptop, offline until it connects).
const BRAVO = 'sandbox-key-bravo';

let desk: Desk;
let event: Event;
let first: string;
let second: string;
/** The head-to-head selection both bookie_c sessions price: /compare is asked for it alone. */
let wanted: string;

beforeAll(async () => {
  desk = await startDesk({ env: { GATEWAY_API_KEY: BRAVO } });
  const gateway = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: BRAVO, poller: { now: desk.now } });
  try {
    // The laptop connects and its session starts: bookie_c has two active sessions.
    const c = (await gateway.sessions.list()).filter((s) => s.bookie === 'bookie_c');
    first = c.find((s) => s.active)?.session_id ?? '';
    second = c.find((s) => !s.active)?.session_id ?? '';
    expect(first && second).toBeTruthy();
    const connected = await fetch(`${desk.sandbox.url}/_sandbox/clients/connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_id: second }),
    });
    expect(connected.status).toBe(200);
    await gateway.sessions.start({ session_id: second });
    await until(
      'the second bookie_c session to be active',
      async () => (await gateway.sessions.list()).find((s) => s.session_id === second)?.active,
      { timeoutMs: 30_000 },
    );
  } finally {
    await gateway.close();
  }
  await desk.bot.store.kv.delete('cache:sessions');
  desk.bot.context.catalog.hot.forget();
  const events = await desk.bot.context.catalog.loadEvents(upcomingWindow(desk.now()));
  // An event whose head-to-head both bookie_c sessions price now.
  const { slipFactory, catalog } = desk.bot.context;
  for (const e of events.filter((x) => x.status === 'prematch' && (x.books ?? []).includes('bookie_c'))) {
    const card = await catalog.loadCard(e.event_id, 'bookie_c');
    const sel = card.markets.find((m) => m.market === 'head_to_head')?.selections.find((x) => x.bettable);
    if (!card.bound || !card.market_ref_betting_enabled || !sel?.market_ref) continue;
    const priced = await Promise.all(
      [first, second].map((id) =>
        slipFactory.livePrice(id, e.sport, e.event_id, sel.market_ref as string).catch(() => 0),
      ),
    );
    if (priced.every((p) => p > 0)) {
      event = e;
      wanted = sel.slug ?? sel.label;
      break;
    }
  }
  expect(event).toBeDefined();
  // Equal prices at one book: /compare marks the session listed first (its documented tie rule).
  const listed = (await catalog.loadSessions()).filter((x) => x.active && x.bookie === 'bookie_c');
  [first, second] = listed.map((x) => x.session_id) as [string, string];
  // bookie_c's prices lengthened: both its sessions price best, and the first listed is marked.
  const res = await fetch(`${desk.sandbox.url}/_sandbox/world/drift`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ factor: 1.5, bookie: 'bookie_c', epk: event.event_id }),
  });
  expect(res.status).toBe(200);
  // Prices read in the last 10 s come back from the gateway's fast path: move past the reads above.
  const advanced = await fetch(`${desk.sandbox.url}/_sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms: 11_000 }),
  });
  expect(advanced.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await desk?.close();
});

/** Runs an admin or bettor slash command and waits for its first reply with content or an embed. */
async function command(user: 'admin' | 'bettor', name: string, options: Record<string, string>, subcommand?: string) {
  const { ld } = desk;
  const ix = await ld.sendCommand({
    user: ld.users[user],
    channelId: ld.channelIds.bets,
    name,
    options,
    ...(subcommand ? { subcommand } : {}),
  });
  return until(name, () => ix.responses().find((m) => m.embeds.length > 0 || /Saved/.test(m.content ?? '')), {
    timeoutMs: 30_000,
  });
}

describe('/compare Bet at best', () => {
  it('posts the slip through the session an admin chose for the book, not the other session of that book', async () => {
    const { ld } = desk;
    await command('admin', 'settings', { bookie: 'bookie_c', session: second }, 'session');
    // The selection bookie_c prices (a book may leave another out of its card).
    const reply = await command('bettor', 'compare', {
      event: event.event_id,
      market: 'head_to_head',
      selection: wanted,
    });
    const fields = (reply.embeds[0] as { fields: Array<{ value: string }> }).fields;
    expect(fields[0]?.value).toMatch(/⭐ \*\*bookie_c:/);

    const bet = control(reply, 'v1:cmp:bet:');
    const modalSeen = new Promise<{ custom_id: string }>((resolve) =>
      ld.events.once('modal', (e) => resolve({ custom_id: String(e.modal.custom_id) })),
    );
    await ld.clickButton({ user: ld.users.bettor, message: reply, customId: bet?.custom_id ?? '' });
    const modal = await modalSeen;
    const earlier = new Set(ld.messages(ld.channelIds.bets).map((m) => m.id));
    const submitted = await ld.submitModal({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      customId: modal.custom_id,
      fields: { stake: '3' },
    });
    const slip = await until(
      'the slip',
      () =>
        ld
          .messages(ld.channelIds.bets)
          .find((m) => !earlier.has(m.id) && m.embeds[0]?.title === 'Bet slip' && m.visibleTo === null),
      { timeoutMs: 30_000 },
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}; the bot answered: ${JSON.stringify(submitted.responses().map((m) => m.content || m.embeds))}`,
      );
    });
    // The slip names the account by its user name; the session it goes through is in its record.
    const slipId = control(slip, 'v1:slip:confirm:')?.custom_id?.split(':').pop() ?? '';
    const stored = await desk.bot.context.slips.get(slipId);
    expect(stored?.payload.sessionId).toBe(second);
    expect(JSON.stringify(slip.embeds)).not.toContain(first);
  }, 60_000);
});
