import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import { MARKETS_PAGE_SIZE } from '../../src/bot/catalog/views/card.js';
import type { Event } from '../../src/gateway/index.js';
import { bettableBookieACard, control, controls, type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
let event: Event;

beforeAll(async () => {
  desk = await startDesk();
  event = (await bettableBookieACard(desk))?.event as Event;
  expect(event, 'a prematch event with a bettable bookie_a card').toBeDefined();
});
afterAll(async () => {
  await desk?.close();
});

describe('/events through the local Discord', () => {
  it('lists the league for the day with start times and books', async () => {
    const { ld } = desk;
    const day = event.start_time.slice(0, 10);
    const ix = await ld.sendCommand({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'events',
      options: { league: event.league, date: day },
    });
    await ix.acknowledged;
    const reply = await until(
      'the events listing',
      () => ix.responses().find((m) => (m.embeds[0]?.fields?.length ?? 0) > 0),
      { timeoutMs: 15_000 },
    );
    const text = JSON.stringify(reply.embeds);
    expect(text).toContain(event.name);
    // Each start in the server's zone (UTC here), as its menu says it (decision 2060).
    expect(text).toMatch(/\d\d:\d\d UTC · /);
    expect(text).toContain('bookie_a');
  });

  it('refuses an unknown league with what to do', async () => {
    const { ld } = desk;
    const ix = await ld.sendCommand({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'events',
      options: { league: 'no-such-league' },
    });
    await ix.acknowledged;
    const reply = await until('the refusal', () => ix.responses().find((m) => m.embeds[0]?.description), {
      timeoutMs: 15_000,
    });
    expect(reply.embeds[0]?.description).toMatch(/Unknown league/);
    expect(reply.visibleTo).toBe(ld.users.bettor.id);
  });

  it('answers league autocomplete from the warmed events cache, without a gateway call', async () => {
    const { ld } = desk;
    await desk.bot.context.catalog.loadEvents(upcomingWindow(desk.now()));
    const before = desk.sandbox.sb.counters.requests;
    const choices = await ld.autocomplete({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'events',
      options: { league: event.league.slice(0, 2) },
      focused: 'league',
    });
    expect({
      values: (choices as Array<{ value: string }>).map((c) => c.value),
      gatewayRequests: desk.sandbox.sb.counters.requests - before,
    }).toEqual({ values: expect.arrayContaining([event.league]), gatewayRequests: 0 });
  });
});

/** /markets → the first market → its first selection → the stake modal → the public slip, as the bettor. */
async function openSlip(stake: string) {
  const { ld } = desk;
  const user = ld.users.bettor;
  const channelId = ld.channelIds.bets;
  const ix = await ld.sendCommand({
    user,
    channelId,
    name: 'markets',
    options: { event: event.event_id, bookie: 'bookie_a' },
  });
  await ix.acknowledged;
  const card = await until(
    'the card with its market menu',
    () => ix.responses().find((m) => control(m, 'v1:card:open:')),
    { timeoutMs: 15_000 },
  );
  const open = control(card, 'v1:card:open:');
  const marketIndex = open?.options?.[0]?.value ?? '0';
  await ld.selectMenu({ user, message: card, customId: open?.custom_id ?? '', values: [marketIndex] });
  const marketMsg = await until(
    'the market view',
    () => {
      const m = ld.message(card.id);
      return control(m, 'v1:card:pick:') ? m : undefined;
    },
    { timeoutMs: 15_000 },
  );
  const pick = control(marketMsg, 'v1:card:pick:');
  const modalSeen = new Promise<{ custom_id: string }>((resolve) =>
    ld.events.once('modal', (e) => resolve({ custom_id: String(e.modal.custom_id) })),
  );
  await ld.selectMenu({
    user,
    message: marketMsg,
    customId: pick?.custom_id ?? '',
    values: [pick?.options?.[0]?.value ?? '0'],
  });
  const modal = await modalSeen;
  const earlier = new Set(ld.messages(channelId).map((m) => m.id));
  await ld.submitModal({ user, channelId, customId: modal.custom_id, fields: { stake } });
  const slip = await until(
    'the public slip',
    () =>
      ld
        .messages(channelId)
        .find((m) => !earlier.has(m.id) && m.embeds[0]?.title === 'Bet slip' && m.visibleTo === null),
    { timeoutMs: 15_000 },
  );
  return { modalId: modal.custom_id, slip, confirmId: control(slip, 'v1:slip:confirm:')?.custom_id ?? '' };
}

/** The slip message once the bet's outcome is edited in. */
function receiptOf(slipId: string) {
  return until(
    'the receipt',
    () => {
      const m = desk.ld.message(slipId);
      return m?.embeds[0]?.title?.startsWith('Bet placed') || m?.embeds[0]?.title === 'Bet not placed' ? m : undefined;
    },
    { timeoutMs: 15_000 },
  );
}

async function gatewayBetsWithStake(stake: number): Promise<number> {
  const state = (await (await fetch(`${desk.sandbox.url}/_sandbox/state`)).json()) as {
    bets: Array<{ bet: { stake: number } }>;
  };
  return state.bets.filter((b) => b.bet.stake === stake).length;
}

describe('a bet from /markets to the receipt', () => {
  it('takes the stake in a modal and posts a public slip with Confirm', async () => {
    const { modalId, confirmId } = await openSlip('4');
    expect({ modalId, confirmId }).toEqual({
      modalId: expect.stringMatching(/^v1:slip:stake:/),
      confirmId: expect.stringMatching(/^v1:slip:confirm:/),
    });
  });

  it("refuses someone else's Confirm privately (a member who may bet: the admin)", async () => {
    const { ld } = desk;
    const { slip, confirmId } = await openSlip('5');
    await ld.clickButton({ user: ld.users.admin, message: slip, customId: confirmId });
    await until(
      'the refusal to the other user',
      () =>
        ld
          .messages(ld.channelIds.bets, { viewer: ld.users.admin.id })
          .find((m) => m.visibleTo === ld.users.admin.id && /Only <@/.test(m.embeds[0]?.description ?? '')),
      { timeoutMs: 15_000 },
    );
  });

  it("places one bet for two of the owner's Confirm clicks arriving together", async () => {
    const { ld } = desk;
    const { slip, confirmId } = await openSlip('6');
    await Promise.allSettled([
      ld.clickButton({ user: ld.users.bettor, message: slip, customId: confirmId }),
      ld.clickButton({ user: ld.users.bettor, message: slip, customId: confirmId }),
    ]);
    await receiptOf(slip.id);
    await desk.bot.context.tracker.idle();
    expect(await gatewayBetsWithStake(6)).toBe(1);
  });

  it('edits in a receipt naming the bet id, stake, bettor and start (no "used /bet" line above it)', async () => {
    const { ld } = desk;
    const user = ld.users.bettor;
    const { slip, confirmId } = await openSlip('7');
    await ld.clickButton({ user, message: slip, customId: confirmId });
    const receipt = await receiptOf(slip.id);
    await desk.bot.context.tracker.idle();
    const fields = Object.fromEntries((receipt.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    expect({ title: receipt.embeds[0]?.title, ...fields }).toMatchObject({
      title: 'Bet placed ✅',
      'Bet id': expect.stringMatching(/./),
      Stake: '$7.00',
      Bettor: `<@${user.id}>`,
      Starts: expect.stringContaining(`<t:${Math.floor(Date.parse(event.start_time) / 1000)}:f>`),
    });
  });

  it('pages a long card with Next, from the stored card reference', async () => {
    const { ld } = desk;
    // Which events the sandbox has depends on today's date: find one whose card needs a second page
    // instead of assuming the bet test's event has one.
    const { catalog } = desk.bot.context;
    const events = await catalog.loadEvents(upcomingWindow(desk.now()));
    let long: Event | undefined;
    for (const e of events.filter((x) => (x.books ?? []).includes('bookie_a'))) {
      if ((await catalog.loadCard(e.event_id, 'bookie_a')).markets.length > MARKETS_PAGE_SIZE) {
        long = e;
        break;
      }
    }
    expect(long, 'an event whose bookie_a card is longer than one page').toBeDefined();
    const ix = await ld.sendCommand({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'markets',
      options: { event: long?.event_id ?? '', bookie: 'bookie_a' },
    });
    await ix.acknowledged;
    const first = await until('the first page', () => ix.responses().find((m) => control(m, 'v1:card:page:')), {
      timeoutMs: 15_000,
    });
    expect(first.embeds[0]?.footer?.text).toMatch(/^Page 1 of [2-9]/);
    const next = controls(first).find((c) => c.label?.startsWith('Next'));
    await ld.clickButton({ user: ld.users.bettor, message: first, customId: next?.custom_id ?? '' });
    await until('page 2', () => /^Page 2 of/.test(ld.message(first.id)?.embeds[0]?.footer?.text ?? ''), {
      timeoutMs: 15_000,
    });
  });

  it('never prints the API key or the token in logs or messages', async () => {
    // Its own gateway traffic and messages (a slip, a bet, its receipt) to look through.
    const { slip, confirmId } = await openSlip('8');
    await desk.ld.clickButton({ user: desk.ld.users.bettor, message: slip, customId: confirmId });
    await receiptOf(slip.id);
    await desk.bot.context.tracker.idle();
    const all = desk.logs.join('\n') + JSON.stringify(desk.ld.messages(desk.ld.channelIds.bets));
    expect(all).not.toContain('sandbox-key-alpha');
    expect(all).not.toContain(desk.ld.token);
  });
});
