// Value watches end to end, and the watch metrics on GET /metrics: /watch value through the local Discord, the sandbox
// moving a book's price at its next scrape, the alert the bot posts once (E2E_STORE=postgres: on PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../../src/bot/index.js';
import { optionName } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { parseExposition, total } from '../support/prom-text.js';
import { until } from '../support/wait.js';
import { pickWatched, watchCommand, watchSteps } from '../support/watch-flows.js';

const round2 = (x: number) => Math.round(x * 100) / 100;
const METRICS_TOKEN = 'watch-metrics-token';

describe('value watches and the watch metrics', () => {
  let desk: Desk<RunningBot>;
  const bot = () => desk.bot;

  beforeAll(async () => {
    // The card limiter's window is real time while these tests jump the clock by scrapes: at the default 25 % share
    // (30 reads a real minute) the tests' reads run out of the lane inside a minute, and later watches wait for it.
    desk = await startDesk<RunningBot>({
      sandboxClock: true,
      env: {
        WATCH_TICK_SECONDS: '0.2',
        WATCH_FALLBACK_SECONDS: '20',
        CAPTURE_SHARE_PERCENT: '90',
        METRICS_TOKEN: METRICS_TOKEN,
      },
    });
  }, 60_000);
  afterAll(() => desk?.close());

  const { settled, nextScrape, alertsAt } = watchSteps(() => desk);

  it('a value watch alerts once when a book offers at least the edge, not again while the edge stays', async () => {
    const w = pickWatched(desk, 3);
    const user = desk.ld.users.bettor;
    const books = ['bookie_a', 'bookie_b', 'bookie_c'];
    const reply = await watchCommand(desk, user, 'value', {
      event: w.epk,
      market: w.market,
      selection: w.slug,
      edge: 5,
    });
    expect(reply).toMatch(/Watching/);
    await settled(w, books, 0);
    const valueAlerts = () => alertsAt('bookie_b', /^Value alert/);
    // Three books near one price: no book is 5 % over the fair price yet.
    expect(valueAlerts()).toHaveLength(0);

    // bookie_b lengthens the selection 30 % at its next scrape: well past a 5 % edge over the three books' fair price.
    const long = round2(w.prices.bookie_b! * 1.3);
    const move = await desk.control.movePrice({
      bookie: 'bookie_b',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: long,
    });
    await settled(w, books, await nextScrape(move.move.scrape_at));
    await until('the value alert', () => (valueAlerts().length === 1 ? true : undefined));
    const alert = textOf(valueAlerts()[0]);
    expect(alert).toMatch(/Value alert: .* at bookie_b, edge (\d+\.\d) %/);
    const edge = Number(/edge (\d+\.\d) %/.exec(alert)![1]);
    expect(edge).toBeGreaterThanOrEqual(5);
    expect(alert).toMatch(new RegExp(`→ ${long.toFixed(2)}`));
    // Still offered at the next scrape: the same episode, no second alert; and no other book alerted.
    await settled(w, books, await nextScrape());
    expect(valueAlerts()).toHaveLength(1);
    expect(alertsAt('bookie_a', /^Value alert/)).toHaveLength(0);
    expect(alertsAt('bookie_c', /^Value alert/)).toHaveLength(0);
  }, 120_000);

  it('GET /metrics shows card reads by purpose, reads the cadence model saved and the alert latency', async () => {
    const res = await fetch(`${bot().receiverUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const e = parseExposition(await res.text());
    // The tests before this one: watches read their cards, members read none.
    expect(total(e, 'desk_card_reads_total', { purpose: 'watch' })).toBeGreaterThan(0);
    // A second event watched at every book, then scrapes until each book's cadence is known: a book's other card
    // waits for the probe's finding instead of a re-read, and that read counts as saved.
    const other = pickWatched(desk, 5);
    await watchCommand(desk, desk.ld.users.bettor, 'moves', {
      event: other.epk,
      market: other.market,
      selection: other.slug,
      move: 50,
    });
    const books = ['bookie_a', 'bookie_b', 'bookie_c'];
    const value = pickWatched(desk, 3);
    for (let i = 0; i < 4; i++) {
      const since = await nextScrape();
      await settled(other, books, since);
      await settled(value, books, since);
    }
    const later = parseExposition(
      await (
        await fetch(`${bot().receiverUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text(),
    );
    expect(total(later, 'desk_watch_reads_saved_total')).toBeGreaterThan(0);
    const alertsPosted = total(e, 'desk_watch_alerts_total');
    expect(alertsPosted).toBeGreaterThanOrEqual(1);
    expect(total(e, 'desk_watch_alert_seconds_count')).toBe(alertsPosted);
    // A member's /markets counts its card reads under the interactive purpose.
    const w = pickWatched(desk, 4);
    const before = total(e, 'desk_card_reads_total', { purpose: 'interactive' }) ?? 0;
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'markets',
      options: { [optionName(desk, 'markets', /event/)]: w.epk, [optionName(desk, 'markets', /book/)]: 'bookie_b' },
    });
    await until('the card', () => (textOf(handle.responses().at(-1)).includes('bookie_b') ? true : undefined));
    const after = parseExposition(
      await (
        await fetch(`${bot().receiverUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text(),
    );
    expect(total(after, 'desk_card_reads_total', { purpose: 'interactive' })).toBeGreaterThan(before);
  }, 60_000);
});
