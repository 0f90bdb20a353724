// Watches end to end: /watch through the local Discord, the sandbox moving prices at its next scrape, the bot's
// watch scheduler reading the cards, and the alerts it posts through the outbox (E2E_STORE=postgres: on PostgreSQL).
import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningBot } from '../../src/bot/index.js';
import { messageMatching, newTrail, press, waitForModal } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { findControl, responseMatching, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';
import { alerts, pickWatched, type Watched, watchCommand, watchSteps } from '../support/watch-flows.js';

const round2 = (x: number) => Math.round(x * 100) / 100;

describe('watches and their alerts through the local Discord', () => {
  let desk: Desk<RunningBot>;

  beforeAll(async () => {
    desk = await startDesk<RunningBot>({
      sandboxClock: true,
      env: { WATCH_TICK_SECONDS: '0.2', WATCH_FALLBACK_SECONDS: '20' },
    });
  }, 60_000);
  afterAll(() => desk?.close());

  const { settled, nextScrape, alertsAt } = watchSteps(() => desk);

  /** /watch price on the watched selection at bookie_c, past `target`; the bot's answer is checked. */
  async function watchAtC(user: APIUser, w: Watched, target: number): Promise<void> {
    const reply = await watchCommand(desk, user, 'price', {
      event: w.epk,
      market: w.market,
      selection: w.slug,
      target,
      bookie: 'bookie_c',
    });
    expect(reply).toMatch(/Watching .* price ≥ .* at bookie_c/);
  }

  it('a price watch alerts once past the target, not again while there or inside the band, again after leaving it', async () => {
    const w = pickWatched(desk, 0);
    const user = desk.ld.users.bettor;
    const start = w.prices.bookie_c!;
    const target = round2(start * 1.25);
    await watchAtC(user, w, target);
    await settled(w, ['bookie_c'], 0);
    const priceAlerts = () => alertsAt('bookie_c', /^Price alert/);
    expect(priceAlerts()).toHaveLength(0);

    // The sandbox moves bookie_c past the target at its next scrape: one alert.
    const past = round2(target + 0.2);
    const move = await desk.control.movePrice({
      bookie: 'bookie_c',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: past,
    });
    await settled(w, ['bookie_c'], await nextScrape(move.move.scrape_at));
    await until('the price alert', () => (priceAlerts().length === 1 ? true : undefined));
    const alert = textOf(priceAlerts()[0]);
    expect(alert).toContain(`<@${user.id}>`);
    expect(alert).toMatch(new RegExp(`→ ${past.toFixed(2)}`));
    expect(alert).toMatch(/Fair price[\s\S]*edge [+-]\d+\.\d%/);
    expect(alert).toMatch(/Starts/);
    expect(findControl(priceAlerts()[0]!, /watch:bet/)).toBeDefined();

    // Still past the target at the next scrape: no second alert.
    await settled(w, ['bookie_c'], await nextScrape());
    // Back under the target but inside the 2 % band, then past it again: the same episode, no alert.
    const inBand = round2(target * 0.99);
    const back = await desk.control.movePrice({
      bookie: 'bookie_c',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: inBand,
    });
    await settled(w, ['bookie_c'], await nextScrape(back.move.scrape_at));
    const again = await desk.control.movePrice({
      bookie: 'bookie_c',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: past,
    });
    await settled(w, ['bookie_c'], await nextScrape(again.move.scrape_at));
    expect(priceAlerts()).toHaveLength(1);

    // Out past the band, then back past the target: a new episode, a second alert.
    const out = await desk.control.movePrice({
      bookie: 'bookie_c',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: round2(target * 0.9),
    });
    await settled(w, ['bookie_c'], await nextScrape(out.move.scrape_at));
    expect(priceAlerts()).toHaveLength(1);
    const returns = await desk.control.movePrice({
      bookie: 'bookie_c',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: past,
    });
    await settled(w, ['bookie_c'], await nextScrape(returns.move.scrape_at));
    await until('the second price alert', () => (priceAlerts().length === 2 ? true : undefined));
    await settled(w, ['bookie_c'], await nextScrape());
    expect(priceAlerts()).toHaveLength(2);

    // /watch list names the watch, how fresh its card is and that it alerted, twice.
    const list = await watchCommand(desk, user, 'list', {});
    expect(list).toMatch(
      new RegExp(`price ≥ ${target.toFixed(2)} at bookie_c · read \\d+ s ago · alerted 2 times, last \\d+ (s|min) ago`),
    );
    // Removed by its id, it is gone from the list.
    const id = new RegExp(`\`([\\w-]+)\` [^\\n]*price ≥ ${target.toFixed(2)} at bookie_c`).exec(list)?.[1];
    expect(id).toBeDefined();
    expect(await watchCommand(desk, user, 'remove', { id: id! })).toMatch(/Removed/);
    expect(await watchCommand(desk, user, 'list', {})).not.toContain(id!);
  }, 120_000);

  it('a steam move across three books gives one steam alert, not repeated for the same move', async () => {
    // Shortened by 22 %, every book's price must stay a valid price well above 1.
    const w = pickWatched(desk, 1, 1.6);
    const user = desk.ld.users.bettor;
    const books = ['bookie_a', 'bookie_b', 'bookie_c'];
    const reply = await watchCommand(desk, user, 'moves', {
      event: w.epk,
      market: w.market,
      selection: w.slug,
      move: 10,
      minutes: 15,
      steam_books: 3,
    });
    expect(reply).toMatch(/steam on 3 books/);
    await settled(w, books, 0);
    const steamAlerts = () =>
      alerts(desk, /^Line move: steam, 3 books shortened/).filter((m) =>
        m.embeds?.some((e) =>
          books.every((b) => (e.fields ?? []).some((f) => f.value.includes(`${b} ${w.prices[b]!.toFixed(2)} →`))),
        ),
      );
    const steam = await desk.control.steam({ epk: w.epk, market: w.market, selection: w.slug, factor: 0.78 });
    await settled(w, books, await nextScrape(steam.steam.books[0]!.at));
    await until('the steam alert', () => (steamAlerts().length === 1 ? true : undefined), {
      seen: () =>
        `watched ${JSON.stringify(w.prices)}; line-move alerts: ${alerts(desk, /^Line move/)
          .map(textOf)
          .join(' | ')}`,
    });
    // The next scrape: the move is still inside the window, the same move; no second alert.
    await settled(w, books, await nextScrape());
    expect(steamAlerts()).toHaveLength(1);
  }, 120_000);

  it("the alert's Bet button opens a slip at the alerted price, and Confirm places exactly one bet", async () => {
    // Each click reads the alert row once: the guard's owner lookup hands its read to the handler. And each click
    // runs the bet gate once: the gate is the one reader of the bank a stake is sized by (`bankFor`), and what it
    // found is handed on (to the suggested stake, to the slip) rather than read again.
    const repo = desk.bot.context.watch.repo;
    const alertReads = vi.spyOn(repo, 'alert');
    const gateRuns = vi.spyOn(desk.bot.context.bank, 'bankFor');
    const w = pickWatched(desk, 2);
    const user = desk.ld.users.bettor;
    const target = round2(w.prices.bookie_a! * 1.2);
    await watchCommand(desk, user, 'price', {
      event: w.epk,
      market: w.market,
      selection: w.slug,
      target,
      bookie: 'bookie_a',
    });
    await settled(w, ['bookie_a'], 0);
    const price = round2(target + 0.1);
    const move = await desk.control.movePrice({
      bookie: 'bookie_a',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price,
    });
    await settled(w, ['bookie_a'], await nextScrape(move.move.scrape_at));
    const alert = await until('the price alert at bookie_a', () => alertsAt('bookie_a', /^Price alert/)[0]);
    const betButton = findControl(alert, /watch:bet/)!;
    expect(textOf(alert)).toContain(`Bet at bookie_a ${price.toFixed(2)}`);

    // The same gate as /bet: a member without the bet role is refused before any stake form.
    const viewer = await desk.ld.clickButton({
      user: desk.ld.users.viewer,
      message: alert.id,
      customId: betButton.customId,
    });
    expect(await until('the refusal', () => textOf(viewer.responses().at(-1)) || undefined)).toMatch(
      /needs the .* role/,
    );

    const before = (await desk.control.state()).bets.length;
    const modal = waitForModal(desk, user.id);
    alertReads.mockClear();
    gateRuns.mockClear();
    await desk.ld.clickButton({ user, message: alert.id, customId: betButton.customId });
    const opened = await modal;
    expect(alertReads, 'alert reads of the Bet click').toHaveBeenCalledTimes(1);
    expect(gateRuns, 'bet gates run by the Bet click').toHaveBeenCalledTimes(1);
    alertReads.mockClear();
    gateRuns.mockClear();
    const slipHandle = await desk.ld.submitModal({
      user,
      channelId: desk.ld.channelIds.bets,
      customId: opened.customId,
      fields: { [opened.stakeField]: '5' },
    });
    const slip = await responseMatching(slipHandle, /Bet slip/, 20_000);
    expect(alertReads, 'alert reads of the stake form').toHaveBeenCalledTimes(1);
    expect(gateRuns, 'bet gates run by the stake form').toHaveBeenCalledTimes(1);
    alertReads.mockRestore();
    gateRuns.mockClear();
    expect(textOf(slip)).toContain('bookie_a');
    expect(textOf(slip)).toContain(price.toFixed(2));
    const trail = newTrail();
    await press(desk, trail, user, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed/, 30_000);
    expect(gateRuns, 'bet gates run by Confirm').toHaveBeenCalledTimes(1);
    gateRuns.mockRestore();
    const placed = (await desk.control.state()).bets.slice(before);
    expect(placed).toHaveLength(1);
    expect(placed[0]!.bet.stake).toBe(5);
    expect(placed[0]!.bet.odds).toBe(price);
  }, 120_000);

  it('two watches on one selection each say the price before the move and after it, never the new price twice', async () => {
    const w = pickWatched(desk, 4);
    const { bettor, admin } = desk.ld.users;
    const start = w.prices.bookie_c!;
    const target = round2(start * 1.25);
    for (const user of [bettor, admin]) await watchAtC(user, w, target);
    await settled(w, ['bookie_c'], 0);
    const past = round2(target + 0.2);
    const move = await desk.control.movePrice({
      bookie: 'bookie_c',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: past,
    });
    await settled(w, ['bookie_c'], await nextScrape(move.move.scrape_at));
    const mine = (user: { id: string }) =>
      alertsAt('bookie_c', /^Price alert/).filter(
        (m) => textOf(m).includes(`<@${user.id}>`) && textOf(m).includes(`reached ${past.toFixed(2)} at bookie_c`),
      );
    await until('both alerts', () => (mine(bettor).length === 1 && mine(admin).length === 1 ? true : undefined));
    for (const user of [bettor, admin]) {
      expect(textOf(mine(user)[0])).toContain(`${start.toFixed(2)} → ${past.toFixed(2)}`);
    }
  });
});
