// Value watches end to end, and the watch metrics on GET /metrics: /watch value through the local Discord, the sandbox
// moving a book's price at its next scrape, the alert the bot posts once; the server's league rules in the alerts
// channel and personal alerts by DM (E2E_STORE=postgres: on PostgreSQL, vitest.config.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_WINDOW_KEY } from '../../src/bot/catalog/shared-card-window.js';
import type { RunningBot } from '../../src/bot/index.js';
import { isBettable } from '../../src/sandbox/world/card-view.js';
import { optionName } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { parseExposition, total } from '../support/prom-text.js';
import { until } from '../support/wait.js';
import { alerts, BOOKS, pickWatched, type Watched, watchCommand, watchSteps } from '../support/watch-flows.js';

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
      // Which events a league rule covers depends on the clock: pinned, so each run judges the same world.
      sandbox: { start: new Date('2026-03-04T09:30:00Z') },
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
    // On PostgreSQL the bot took those reads from the key's window in the store, shared by every process on it
    // (decision 1941); a SQLite store is one process's and keeps none.
    const window = await bot().store.kv.get<{ reads: unknown[] }>(CARD_WINDOW_KEY);
    if (bot().store.engine === 'postgres') expect(window?.reads.length).toBeGreaterThan(0);
    else expect(window).toBeUndefined();
  }, 60_000);

  it('a server rule alerts in the alerts channel on any book with the edge in its leagues, once, for everyone', async () => {
    const admin = desk.ld.users.admin;
    const alertsChannel = desk.ld.channelIds.results;
    const pick = pickLeagueEvent(desk);
    const rule = { leagues: pick.league, edge: 12, hours: pick.hours };
    // Members may not set one; an admin needs the alerts channel first; a league must be one the gateway knows.
    expect(await watchCommand(desk, desk.ld.users.bettor, 'server-rule', rule)).toMatch(
      /Server rules need Manage Server/,
    );
    expect(await watchCommand(desk, admin, 'server-rule', rule)).toMatch(/Set the alerts channel first/);
    expect(await watchCommand(desk, admin, 'alerts-channel', { channel: alertsChannel })).toMatch(/Alerts of new/);
    expect(await watchCommand(desk, admin, 'server-rule', { ...rule, leagues: 'nrl, quidditch' })).toMatch(
      /Unknown league: `quidditch`\. Use keys separated by commas, from: .*nrl/,
    );
    const made = await watchCommand(desk, admin, 'server-rule', rule);
    expect(made).toMatch(new RegExp(`Server rule: edge ≥ 12 % at any book, in .*, starting within ${pick.hours} h`));
    const ruleId = /\/watch remove id:`([^`]+)` removes it/.exec(made)![1]!;
    // Stored as the server's, in the store every process shares.
    const rows = await bot().store.query<{ scope: string; rule: string }>(
      'SELECT scope, rule FROM watches WHERE watch_id = ?',
      ruleId,
    );
    expect(rows[0]?.scope).toBe('server');
    expect(JSON.parse(rows[0]!.rule)).toMatchObject({ kind: 'league', leagues: [pick.league], edgePct: 12 });

    const w = pick.watched;
    await settled(w, BOOKS, 0);
    const ruleAlerts = () =>
      alerts(desk, /^Value alert/, alertsChannel).filter((m) =>
        m.embeds?.some((e) => e.description === pick.eventName && e.fields?.some((f) => f.value === 'bookie_c')),
      );
    const before = ruleAlerts().length;
    // bookie_c lengthens one selection 60 % at its next scrape: far past 12 % over the three books' fair price.
    const long = round2(w.prices.bookie_c! * 1.6);
    const move = await desk.control.movePrice({
      bookie: 'bookie_c',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: long,
    });
    await settled(w, BOOKS, await nextScrape(move.move.scrape_at));
    const moved = () => ruleAlerts().filter((m) => textOf(m).includes(`→ ${long.toFixed(2)}`));
    await until('the server rule alert', () => (moved().length === 1 ? true : undefined));
    const alert = moved()[0]!;
    expect(Number(/edge (\d+\.\d) %/.exec(textOf(alert))![1])).toBeGreaterThanOrEqual(12);
    // The server's: nobody is mentioned, and anyone may press Bet.
    expect(alert.content ?? '').not.toMatch(/<@/);
    expect(JSON.stringify(alert.components ?? [])).toMatch(/Bet at bookie_c/);
    // Every value alert this rule posted names at least its edge; the moved selection alerts once while it stays.
    for (const m of ruleAlerts()) expect(Number(/edge (\d+\.\d) %/.exec(textOf(m))![1])).toBeGreaterThanOrEqual(12);
    await settled(w, BOOKS, await nextScrape());
    expect(moved()).toHaveLength(1);
    expect(ruleAlerts().length).toBeGreaterThan(before);
    // A restart reads the cards again from nothing held: the rule and its episodes are in the store, so no repeat.
    const first = desk.bot;
    await desk.restartBot();
    expect(desk.bot).not.toBe(first);
    await settled(w, BOOKS, await nextScrape());
    expect(moved()).toHaveLength(1);

    // Listed for members, removed by an admin.
    expect(await watchCommand(desk, desk.ld.users.viewer, 'list', {})).toMatch(
      new RegExp(`\`${ruleId}\` \\(server rule\\) edge ≥ 12 %`),
    );
    expect(await watchCommand(desk, desk.ld.users.bettor, 'remove', { id: ruleId })).toMatch(/No watch/);
    expect(await watchCommand(desk, admin, 'remove', { id: ruleId })).toMatch(/Removed/);
  }, 120_000);

  it('a personal watch by DM sends its alert to the member alone, in their DM channel, with the way back to bet', async () => {
    const w = pickWatched(desk, 7, 1.3);
    const user = desk.ld.users.bettor;
    // The server's alerts channel, where the DM's link leads (set here: this test does not lean on the one before).
    const alertsChannel = desk.ld.channelIds.results;
    await watchCommand(desk, desk.ld.users.admin, 'alerts-channel', { channel: alertsChannel });
    const target = round2(w.prices.bookie_a! * 1.2);
    const reply = await watchCommand(desk, user, 'price', {
      event: w.epk,
      market: w.market,
      selection: w.slug,
      target,
      bookie: 'bookie_a',
      deliver: 'dm',
    });
    expect(reply).toMatch(/Alerts go to you by DM/);
    // The bot opened the member's DM channel (POST /users/@me/channels) and said so there first.
    const dm = desk.ld.dmChannelOf(user.id);
    expect(dm).toBeDefined();
    expect(textOf(desk.ld.messages(dm!)[0])).toMatch(/Your watch alerts from the desk come here/);
    await settled(w, ['bookie_a'], 0);
    const move = await desk.control.movePrice({
      bookie: 'bookie_a',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: round2(target * 1.05),
    });
    await settled(w, ['bookie_a'], await nextScrape(move.move.scrape_at));
    const reached = `reached ${round2(target * 1.05).toFixed(2)} at bookie_a`;
    const alert = await until('the DM alert', () => alerts(desk, /^Price alert/, dm!)[0]);
    expect(textOf(alert)).toContain(reached);
    // Not posted in the server's channels; no mention and no Bet button in a DM (no server to gate a bet in).
    for (const channel of [desk.ld.channelIds.bets, desk.ld.channelIds.results]) {
      const there = alerts(desk, /^Price alert/, channel).filter(
        (m) => m.embeds?.[0]?.description === alert.embeds?.[0]?.description && textOf(m).includes(reached),
      );
      expect(there).toHaveLength(0);
    }
    expect(alert.content ?? '').not.toMatch(/<@/);
    // No Bet button (a DM has no server to gate a bet in, decision 1942): the /bet to run in the server, and a link
    // button (no custom id: Discord opens the URL, the bot takes no interaction) to the server's alerts channel.
    const buttons = (alert.components ?? []).flatMap((r): unknown[] => ('components' in r ? r.components : [])) as {
      style?: number;
      url?: string;
      custom_id?: string;
    }[];
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toMatchObject({
      style: 5,
      url: `https://discord.com/channels/${desk.ld.guildId}/${alertsChannel}`,
    });
    expect(buttons[0]?.custom_id).toBeUndefined();
    const betLine = alert.embeds?.[0]?.fields?.find((f) => f.name === 'Bet')?.value ?? '';
    expect(betLine).toMatch(/^Bet in the server: \/bet event: .+ · market: .+ · selection: .+ · bookie: bookie_a · /);
    expect(betLine).toContain(`min_odds: ${round2(target * 1.05).toFixed(2)}`);
    expect(betLine).toContain(alert.embeds?.[0]?.description ?? 'the event name');
    // Listed as the member's, by DM.
    expect(await watchCommand(desk, user, 'list', {})).toMatch(/\(by DM\)/);
    // A server watch is the server's: it is not sent to one member.
    const serverByDm = await watchCommand(desk, desk.ld.users.admin, 'value', {
      event: w.epk,
      market: w.market,
      edge: 5,
      server: true,
      deliver: 'dm',
    });
    expect(serverByDm).toMatch(/A server watch is posted in the server's channel\. Leave out `deliver`, or `server`\./);
  }, 90_000);
});

/**
 * A league, an event in it that every book lists with a head-to-head selection bettable at each, and a horizon in
 * hours that covers the event but as few other events of the league as can be (each costs card reads).
 */
function pickLeagueEvent(desk: Desk<RunningBot>) {
  const world = desk.sandbox.sb.world;
  const now = world.nowMs();
  const events = world.allEvents().filter((ev) => !ev.isOutright && ev.startMs > now);
  let best: { league: string; hours: number; covered: number; eventName: string; watched: Watched } | undefined;
  for (const ev of events) {
    // Starts after the test's few scrapes; bookie_c takes no basketball bets in the sandbox.
    if (ev.sport === 'basketball' || ev.startMs < now + 2 * 3_600_000) continue;
    if (!BOOKS.every((b) => world.link(ev, b).linked)) continue;
    const rows = BOOKS.map((b) => world.card(ev, b).find((m) => m.market === 'head_to_head'));
    const sel = rows[0]?.selections.find((s) =>
      rows.every((r) => r?.selections.some((t) => t.slug === s.slug && isBettable(t))),
    );
    if (!sel) continue;
    const prices = Object.fromEntries(
      BOOKS.map((b, i) => [
        b,
        world.cardPrice(b, ev.epk, 'head_to_head', rows[i]!.selections.find((t) => t.slug === sel.slug)!),
      ]),
    );
    if (Object.values(prices).some((p) => p < 1.3)) continue;
    const hours = Math.ceil((ev.startMs - now) / 3_600_000) + 1;
    if (hours > 72) continue;
    const covered = events.filter((e) => e.league === ev.league && e.startMs <= now + hours * 3_600_000).length;
    if (!best || covered < best.covered) {
      best = {
        league: ev.league,
        hours,
        covered,
        eventName: ev.name,
        watched: { epk: ev.epk, market: 'head_to_head', slug: sel.slug, prices },
      };
    }
  }
  if (!best) throw new Error('no event every book lists within three days with a head-to-head selection');
  return best;
}
