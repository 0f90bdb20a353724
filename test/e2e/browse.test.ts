import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import { type BettableSelection, pickEvent } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { ACK_DEADLINE_MS, findControl, responseMatching, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

describe('browsing events and cards end to end', () => {
  let desk: Desk;
  let sel: BettableSelection;

  beforeAll(async () => {
    desk = await startDesk({ webhooks: false });
    sel = await pickEvent(desk, 'nba', 0, 11); // a card long enough to page
  }, 60_000);
  afterAll(() => desk?.close());

  it('/events lists a league’s events of a date, the ones the gateway lists for that day', async () => {
    const day = sel.epk.split('/').at(-1)!;
    const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const listed = await client.events.list({ league: 'nba', date: day, limit: 500 });
    await client.close();
    expect(listed.data.length).toBeGreaterThan(0);
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.viewer,
      channelId: desk.ld.channelIds.bets,
      name: 'events',
      options: { league: 'nba', date: day },
    });
    expect((await handle.acknowledged).ms).toBeLessThan(ACK_DEADLINE_MS);
    const page = await responseMatching(handle, /NBA/);
    const text = textOf(page);
    expect(text).toContain(day);
    // The first event of the day (in start order) is on the first page.
    const first = listed.data.sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time))[0]!;
    expect(text).toContain(first.home ?? first.name);
  }, 30_000);

  it('/events lists as books only those taking bets on a game: a book whose card has nothing to bet on is named apart', async () => {
    const day = sel.epk.split('/').at(-1)!;
    const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const listed = await client.events.list({ league: 'nba', date: day, limit: 500 });
    await client.close();
    // A game on the listing's first page that bookie_c lists too (it takes no basketball bets, decision 1995).
    const firstPage = listed.data.sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time)).slice(0, 10);
    const game = firstPage.find((e) => e.books?.includes('bookie_a') && e.books?.includes('bookie_c'));
    expect(game, 'an NBA game bookie_a and bookie_c list, on the first page').toBeDefined();
    const { viewer } = desk.ld.users;
    const card = await desk.ld.sendCommand({
      user: viewer,
      channelId: desk.ld.channelIds.bets,
      name: 'markets',
      options: { event: game!.event_id, bookie: 'bookie_c' },
    });
    await responseMatching(card, /Nothing is placeable by id on this card/);
    const handle = await desk.ld.sendCommand({
      user: viewer,
      channelId: desk.ld.channelIds.bets,
      name: 'events',
      options: { league: 'nba', date: day },
    });
    const page = await responseMatching(handle, /NBA/);
    const line = page.embeds?.[0]?.fields?.find((f) => f.name === game!.name)?.value ?? '';
    expect(line).toMatch(/ · books: bookie_a(, bookie_b)?; bookie_c lists it but takes no bets on it$/);
  }, 30_000);

  it('/events opens an event: picking it, then a book, shows that book\u2019s market card of that event', async () => {
    const day = sel.epk.split('/').at(-1)!;
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.viewer,
      channelId: desk.ld.channelIds.bets,
      name: 'events',
      options: { league: 'nba', date: day },
    });
    let page = await until('the listing with its picker', () =>
      handle.responses().find((m) => findControl(m, /ev:pick/)),
    );
    // The event may be on a later page of the day: page on until the picker offers it by name.
    for (let turn = 0; !findControl(page, /ev:pick/)?.options?.some((o) => o.label === sel.name); turn++) {
      const next = findControl(page, /Next/);
      expect(next !== undefined && turn < 20, 'the event is offered by name on some page').toBe(true);
      const shown = textOf(page);
      await desk.ld.clickButton({ user: desk.ld.users.viewer, message: page.id, customId: next!.customId });
      page = await until('the next page', () => {
        const m = desk.ld.message(page.id);
        return m && textOf(m) !== shown ? m : undefined;
      });
    }
    const picker = findControl(page, /ev:pick/)!;
    const pick = await desk.ld.selectMenu({
      user: desk.ld.users.viewer,
      message: page.id,
      customId: picker.customId,
      values: [picker.options!.find((o) => o.label === sel.name)!.value],
    });
    const books = await until('the books menu', () => pick.responses().find((m) => findControl(m, /ev:book/)));
    const bookMenu = findControl(books, /ev:book/)!;
    expect(bookMenu.options!.map((o) => o.value)).toContain(sel.bookie);
    const open = await desk.ld.selectMenu({
      user: desk.ld.users.viewer,
      message: books.id,
      customId: bookMenu.customId,
      values: [sel.bookie],
    });
    expect((await open.acknowledged).ms).toBeLessThan(ACK_DEADLINE_MS);
    const card = await until('the card in place of the menu', () => {
      const m = desk.ld.message(books.id);
      return m && findControl(m, /card:open/) ? m : undefined;
    });
    expect(textOf(card)).toContain(`${sel.name} — ${sel.bookie}`);
  }, 45_000);

  it('/events refuses an impossible date with what to type instead', async () => {
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.viewer,
      channelId: desk.ld.channelIds.bets,
      name: 'events',
      options: { league: 'nba', date: '2026-02-30' },
    });
    expect((await handle.acknowledged).ms).toBeLessThan(ACK_DEADLINE_MS);
    const reply = await responseMatching(handle, /date|YYYY-MM-DD|today/i);
    expect(reply.flags! & 64).toBe(64);
    expect(textOf(reply)).toMatch(/YYYY-MM-DD|today|tomorrow/);
  }, 30_000);

  it('/markets shows the card with pages, the next page, and opens a market with its selections', async () => {
    const acks: number[] = [];
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'markets',
      options: { event: sel.epk, bookie: sel.bookie },
    });
    acks.push((await handle.acknowledged).ms);
    const card = await until('the card', () => handle.responses().find((m) => findControl(m, /card:open/)));
    expect(textOf(card)).toContain('bookie_a');
    // Ten markets a page: the card of a game with player props pages, and Next ▶ shows page 2.
    const pages = Number(/Page 1 of (\d+)/.exec(textOf(card))?.[1]);
    expect(pages, 'the card is long enough to page').toBeGreaterThan(1);
    const next = findControl(card, /Next/);
    expect(next?.customId).toMatch(/card:page/);
    const click = await desk.ld.clickButton({ user: desk.ld.users.bettor, message: card.id, customId: next!.customId });
    acks.push((await click.acknowledged).ms);
    await until('page 2', () => /Page 2 of/.test(textOf(desk.ld.message(card.id))));
    const now = desk.ld.message(card.id)!;
    const open = findControl(now, /card:open/)!;
    const choice = open.options![0]!;
    const pick = await desk.ld.selectMenu({
      user: desk.ld.users.bettor,
      message: card.id,
      customId: open.customId,
      values: [choice.value],
    });
    acks.push((await pick.acknowledged).ms);
    const market = await until('the market view', () => {
      const m = desk.ld.message(card.id);
      return m && findControl(m, /card:pick/) ? m : pick.responses().find((r) => findControl(r, /card:pick/));
    });
    expect(textOf(market)).toContain(choice.label);
    expect(findControl(market, /card:pick/)!.options!.length).toBeGreaterThan(0);
    expect(acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 45_000);

  it('/markets on an unknown event says so and what to do', async () => {
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'markets',
      options: { event: 'basketball/us/nba/nobody_v_noone/2026-01-01', bookie: 'bookie_a' },
    });
    expect((await handle.acknowledged).ms).toBeLessThan(ACK_DEADLINE_MS);
    const reply = await responseMatching(handle, /event|events/i);
    expect(textOf(reply)).toMatch(/\/events|pick/i);
  }, 30_000);

  it('/price shows the live price of a selection', async () => {
    const price = desk.ld.commands().find((c) => c.name === 'price');
    if (!price) throw new Error('/price is not registered');
    // /price has a sports and a racing form; a selection's price is the sports one.
    const defs = (price.options ?? []) as Array<{ type: number; name: string; options?: Array<{ name: string }> }>;
    const sports = defs.find((d) => d.type === 1 && d.name === 'sports');
    const names = (sports?.options ?? defs).map((o) => o.name);
    const options: Record<string, string> = {};
    if (names.includes('event')) options.event = sel.epk;
    if (names.includes('bookie')) options.bookie = sel.bookie;
    if (names.includes('market')) options.market = sel.market;
    if (names.includes('selection')) options.selection = sel.marketRef;
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'price',
      options,
      ...(sports ? { subcommand: 'sports' } : {}),
    });
    expect((await handle.acknowledged).ms).toBeLessThan(ACK_DEADLINE_MS);
    const reply = await responseMatching(handle, /\d+\.\d{2}/, 20_000);
    expect(textOf(reply)).toContain(sel.label);
  }, 30_000);
});
