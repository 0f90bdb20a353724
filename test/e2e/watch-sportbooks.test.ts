// Issue 45, item 1: a watch, its alert and the alert's Bet button only lead to a book that takes the bet. Basketball
// is bet at bookie_a only in the sandbox (decision 1995); the desk learns which books refuse a sport from their
// answers and remembers it per book and sport (decision 1996). Through discord.js over the local Discord.
import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../../src/bot/index.js';
import { isBettable } from '../../src/sandbox/world/card-view.js';
import { messageMatching, newTrail, press, waitForModal } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { findControl, responseMatching, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';
import { type Watched, watchCommand, watchSteps } from '../support/watch-flows.js';

const round2 = (x: number) => Math.round(x * 100) / 100;
const BOOKS = ['bookie_a', 'bookie_b', 'bookie_c'] as const;

describe('watches on a sport only one book takes (basketball at bookie_a)', () => {
  let desk: Desk<RunningBot>;

  beforeAll(async () => {
    desk = await startDesk<RunningBot>({
      sandboxClock: true,
      env: { WATCH_TICK_SECONDS: '0.2', WATCH_FALLBACK_SECONDS: '20' },
    });
  }, 60_000);
  afterAll(() => desk?.close());

  const { settled, nextScrape, alertsAt } = watchSteps(() => desk);

  /**
   * An NBA game every book lists and binds, 2 to 6 days ahead, and a head-to-head side every book prices (bettable by
   * its own ids at bookie_a; bookie_b and bookie_c show it only under the unofferedCards fault).
   */
  function pickNba(skip: number): Watched {
    const world = desk.sandbox.sb.world;
    const now = world.nowMs();
    let skipped = 0;
    for (const ev of world.allEvents()) {
      if (ev.isOutright || ev.league !== 'nba') continue;
      if (ev.startMs < now + 2 * 86_400_000 || ev.startMs > now + 6 * 86_400_000) continue;
      if (!BOOKS.every((b) => world.link(ev, b).linked)) continue;
      const rows = BOOKS.map((b) => world.pricedCard(ev, b).find((m) => m.market === 'head_to_head'));
      const sel = rows[0]?.selections.find((s) =>
        rows.every((r) => r?.selections.some((t) => t.slug === s.slug && isBettable(t))),
      );
      if (!sel || skipped++ < skip) continue;
      const prices = Object.fromEntries(
        BOOKS.map((b, i) => [
          b,
          world.cardPrice(b, ev.epk, 'head_to_head', rows[i]!.selections.find((t) => t.slug === sel.slug)!),
        ]),
      );
      return { epk: ev.epk, market: 'head_to_head', slug: sel.slug, prices };
    }
    throw new Error('no NBA game every book lists with a head-to-head side every book prices');
  }

  /** Moves the selection's price at `bookie` from the sandbox's next scrape, and lets the watches read it. */
  async function moveAndRead(w: Watched, bookie: string, price: number): Promise<void> {
    const { move } = await desk.control.movePrice({ bookie, epk: w.epk, market: w.market, selection: w.slug, price });
    await settled(w, [bookie], await nextScrape(move.scrape_at));
  }

  /** The books /watch price offers as you type `bookie`. */
  const bookieChoices = async (user: APIUser, w: Watched) =>
    (
      (await desk.ld.autocomplete({
        user,
        channelId: desk.ld.channelIds.bets,
        name: 'watch',
        subcommand: 'price',
        options: { event: w.epk, market: w.market, selection: w.slug, target: 3, bookie: '' },
        focused: 'bookie',
      })) as Array<{ value: string }>
    ).map((c) => c.value);

  /** The books /bet offers as you type `bookie`. */
  const betBookieChoices = async (user: APIUser, w: Watched) =>
    (
      (await desk.ld.autocomplete({
        user,
        channelId: desk.ld.channelIds.bets,
        name: 'bet',
        options: { event: w.epk, market: w.market, selection: w.slug, stake: 5, bookie: '' },
        focused: 'bookie',
      })) as Array<{ value: string }>
    ).map((c) => c.value);

  /** Presses an alert's Bet button, stakes $5, and returns the slip (or refusal) the bot answers with. */
  async function betFromAlert(user: APIUser, alert: { id: string }) {
    const button = findControl(desk.ld.message(alert.id)!, /watch:bet/)!;
    const modal = waitForModal(desk, user.id);
    await desk.ld.clickButton({ user, message: alert.id, customId: button.customId });
    const opened = await modal;
    const handle = await desk.ld.submitModal({
      user,
      channelId: desk.ld.channelIds.bets,
      customId: opened.customId,
      fields: { [opened.stakeField]: '5' },
    });
    return responseMatching(handle, /Bet slip|takes no|No book/, 20_000);
  }

  it('refuses a watch at bookie_c with the book that takes it; without a book it watches bookie_a only, and its alert is placed there', async () => {
    const w = pickNba(0);
    const user = desk.ld.users.bettor;
    const target = round2(w.prices.bookie_a! * 1.2);
    const atC = await watchCommand(desk, user, 'price', {
      event: w.epk,
      market: w.market,
      selection: w.slug,
      target,
      bookie: 'bookie_c',
    });
    expect(atC).toMatch(
      /^bookie_c lists nothing to bet on for it, so its alerts would lead to no bet\. Watch it at bookie_a,/,
    );
    // Each book's card was read for that answer: as you type, only the book that takes the game is offered.
    expect(await bookieChoices(user, w)).toEqual(['bookie_a']);

    const any = await watchCommand(desk, user, 'price', { event: w.epk, market: w.market, selection: w.slug, target });
    expect(any).toMatch(
      /at any book; left out: bookie_b \(lists nothing to bet on for it\), bookie_c \(lists nothing to bet on for it\)\./,
    );
    await settled(w, ['bookie_a'], 0);
    const price = round2(target + 0.1);
    await moveAndRead(w, 'bookie_a', price);
    const alert = await until('the price alert at bookie_a', () => alertsAt('bookie_a', /^Price alert/)[0]);
    expect(alertsAt('bookie_c', /^Price alert/)).toEqual([]);

    const before = (await desk.control.state()).bets.length;
    const slip = await betFromAlert(user, alert);
    expect(textOf(slip)).toMatch(/Book\nbookie_a/);
    await press(desk, newTrail(), user, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed/, 30_000);
    const placed = (await desk.control.state()).bets.slice(before);
    expect(placed.map((b) => [b.bet.session_id, b.bet.odds])).toEqual([
      ['5e55a1fa-0000-4000-8000-00000000000a', price],
    ]);
  }, 120_000);

  it('an alert at a book whose card runs ahead of it: Bet goes to bookie_a, naming why bookie_c was left out; bookie_c is then offered no more', async () => {
    await desk.control.faults({ unofferedCards: true });
    try {
      const w = pickNba(1);
      const user = desk.ld.users.admin;
      const target = round2(w.prices.bookie_c! * 1.2);
      const watching = await watchCommand(desk, user, 'price', {
        event: w.epk,
        market: w.market,
        selection: w.slug,
        target,
        bookie: 'bookie_c',
      });
      expect(watching).toMatch(/^Watching .* at bookie_c/);
      await settled(w, ['bookie_c'], 0);
      const price = round2(target + 0.1);
      await moveAndRead(w, 'bookie_c', price);
      const alert = await until('the price alert at bookie_c', () => alertsAt('bookie_c', /^Price alert/)[0]);
      expect(textOf(alert)).toContain(`Bet at bookie_c ${price.toFixed(2)}`);

      // The press goes to bookie_c, which refuses basketball; the same press lands the slip at bookie_a.
      const before = (await desk.control.state()).bets.length;
      const slip = await betFromAlert(user, alert);
      const text = textOf(slip);
      expect(text).toMatch(/Book\nbookie_a/);
      expect(text).toMatch(/Left out: [^\n]*bookie_c \(takes no basketball bets\)/);
      await press(desk, newTrail(), user, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet placed/, 30_000);
      const placed = (await desk.control.state()).bets.slice(before);
      expect(placed.map((b) => b.bet.session_id)).toEqual(['5e55a1fa-0000-4000-8000-00000000000a']);

      // The watch at bookie_c alerts again (out past the 2 % band, then past the target): its button now says where it goes.
      await moveAndRead(w, 'bookie_c', round2(target * 0.9));
      await moveAndRead(w, 'bookie_c', round2(target + 0.2));
      const second = await until('the second price alert at bookie_c', () => alertsAt('bookie_c', /^Price alert/)[1]);
      expect(textOf(second)).toContain('Bet at the best book (bookie_c takes none)');

      // Remembered per book and sport: bookie_c is offered no more for a basketball game, though its card still shows rows.
      const other = pickNba(2);
      expect(await bookieChoices(user, other)).not.toContain('bookie_c');
      expect(await betBookieChoices(user, other)).not.toContain('bookie_c');
      const refused = await watchCommand(desk, user, 'price', {
        event: other.epk,
        market: other.market,
        selection: other.slug,
        target: 3,
        bookie: 'bookie_c',
      });
      expect(refused).toMatch(
        /^bookie_c takes no basketball bets, so its alerts would lead to no bet\. Watch it at bookie_a/,
      );
    } finally {
      await desk.control.faults({});
    }
  }, 120_000);
});
