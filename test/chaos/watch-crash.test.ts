// kill -9 of the bot the moment a watch's alert is recorded: the restarted bot posts that alert once, does not
// alert the same episode again when it re-reads the card, and the watch goes on (a later episode alerts).
import { describe, expect, it } from 'vitest';
import { type BotStore, openStore } from '../../src/bot/store/index.js';
import { type BotChild, respawnBot, spawnReadyBot } from '../support/bot-child.js';
import { startDesk } from '../support/harness.js';
import { until } from '../support/wait.js';
import { alerts, cardReadSince, pickWatched, watchCommand } from '../support/watch-flows.js';

const round2 = (x: number) => Math.round(x * 100) / 100;

describe('a watch through kill -9', () => {
  it('posts each episode’s alert exactly once and keeps watching', async () => {
    // The child bot runs on the machine's clock: a watched card is read again every 3 s until its cadence is known.
    const desk = await startDesk({
      inProcessBot: false,
      env: { WATCH_TICK_SECONDS: '0.2', WATCH_FALLBACK_SECONDS: '3', OUTBOX_LEASE_SECONDS: '5' },
    });
    let child: BotChild | undefined;
    let store: BotStore | undefined;
    try {
      child = await spawnReadyBot(desk);
      store = await openStore(desk.env.STORE_URL as string);
      const w = pickWatched(desk, 3);
      const target = round2(w.prices.bookie_c! * 1.25);
      const past = round2(target + 0.2);
      const reply = await watchCommand(desk, desk.ld.users.bettor, 'price', {
        event: w.epk,
        market: w.market,
        selection: w.slug,
        target,
        bookie: 'bookie_c',
      });
      expect(reply).toMatch(/Watching/);
      await cardReadSince(store, w.epk, 'bookie_c', 0);
      const priceAlerts = () => alerts(desk, /^Price alert/);
      const move = (price: number) =>
        desk.control.movePrice({ bookie: 'bookie_c', epk: w.epk, market: w.market, selection: w.slug, price });
      const toScrape = async (at: string) =>
        desk.control.advance(Date.parse(at) - Date.parse((await desk.control.state()).now) + 1_000);
      const recorded = async () => {
        const rows = await store!.query<{ n: number }>('SELECT COUNT(*) AS n FROM watch_alerts');
        return Number(rows[0]?.n ?? 0);
      };

      // The price passes the target; the bot is killed as soon as the alert is recorded (before or while it posts).
      await toScrape((await move(past)).move.scrape_at);
      await until('the alert recorded', async () => ((await recorded()) === 1 ? true : undefined), {
        timeoutMs: 30_000,
        everyMs: 5,
      });
      child = await respawnBot(desk, child);
      await until('the alert posted', () => (priceAlerts().length >= 1 ? true : undefined), { timeoutMs: 30_000 });
      // The new process reads the card again (it holds no copy) and judges it: the episode is open, no alert.
      const restartedAt = Date.now();
      await cardReadSince(store, w.epk, 'bookie_c', restartedAt);
      await cardReadSince(store, w.epk, 'bookie_c', desk.now());
      // Killed again with the episode open: the next process keeps it so.
      child = await respawnBot(desk, child);
      await cardReadSince(store, w.epk, 'bookie_c', desk.now());
      await cardReadSince(store, w.epk, 'bookie_c', desk.now());
      expect(priceAlerts()).toHaveLength(1);
      expect(await recorded()).toBe(1);
      const outbox = await store.query<{ n: number }>(
        "SELECT COUNT(*) AS n FROM outbox WHERE outbox_key LIKE 'create:watch:%'",
      );
      expect(Number(outbox[0]?.n)).toBe(1);

      // The watch survived: out past the band and back, a second episode, alerted once.
      await toScrape((await move(round2(target * 0.9))).move.scrape_at);
      await cardReadSince(store, w.epk, 'bookie_c', desk.now());
      await toScrape((await move(past)).move.scrape_at);
      await until('the second alert', () => (priceAlerts().length === 2 ? true : undefined), { timeoutMs: 30_000 });
      await cardReadSince(store, w.epk, 'bookie_c', desk.now());
      expect(priceAlerts()).toHaveLength(2);
    } finally {
      await child?.stop();
      await store?.close();
      await desk.close();
    }
  }, 180_000);
});
