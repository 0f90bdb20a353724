import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import { dayIn } from '../../src/bot/model/dates.js';
import { bettable } from '../../src/bot/model/markets.js';
import { getSettings } from '../../src/bot/settings/guild-settings.js';
import type { Event } from '../../src/gateway/index.js';
import type { OptionInput } from '../../src/local-discord/index.js';
import { type Desk, runCommand, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
let event: Event;

beforeAll(async () => {
  desk = await startDesk();
  const events = await desk.bot.context.catalog.loadEvents(upcomingWindow(desk.now()));
  for (const e of events.filter((x) => x.status === 'prematch' && (x.books ?? []).includes('bookie_a'))) {
    const card = await desk.bot.context.catalog.loadCard(e.event_id, 'bookie_a');
    if (card.bound && card.market_ref_betting_enabled && card.markets.some((m) => bettable(m).length > 0)) {
      event = e;
      break;
    }
  }
  expect(event).toBeDefined();
});
afterAll(async () => {
  await desk?.close();
});

async function run(name: string, options: OptionInput, opts: Parameters<typeof runCommand>[3] = {}) {
  const { reply, ackMs } = await runCommand(desk, name, options, { ...opts, embedsOnly: true });
  expect(ackMs).toBeLessThan(3000);
  return reply;
}

const text = (m: { embeds: unknown[]; content?: string }) => `${m.content ?? ''}${JSON.stringify(m.embeds)}`;

describe('desk commands through the local Discord', () => {
  it('/sessions lists the key’s sessions with their state', async () => {
    const reply = await run('sessions', {});
    expect(text(reply)).toContain('bookie_a');
    expect(text(reply)).toContain('inactive');
  });

  it('/balance shows the balance of a book’s active session', async () => {
    const reply = await run('balance', { bookie: 'bookie_a' });
    expect(text(reply)).toMatch(/\$[\d,]+\.\d\d\*\* total/);
    expect(text(reply)).not.toContain('bookie_b');
  });

  it('/balance refuses an unknown book and lists the real ones', async () => {
    const reply = await run('balance', { bookie: 'bookie_zzz' });
    expect(text(reply)).toMatch(/No session for .*bookie_zzz.*bookie_a/);
  });

  it('/bet offers books after a stake typed earlier in the line, as the box sends it (text, not a number)', async () => {
    const { ld } = desk;
    const books = (await ld.autocomplete({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'bet',
      options: [
        { name: 'event', value: event.event_id },
        { name: 'stake', value: '30' },
        { name: 'bookie', value: '' },
      ],
      focused: 'bookie',
    })) as Array<{ value: string }>;
    expect(books.map((b) => b.value)).toContain('bookie_a');
  });

  it('/watch offers the books /bet does: one its last card showed taking no bets by market_ref is not offered (issue 45)', async () => {
    const { ld } = desk;
    const kv = desk.bot.context.store.kv;
    const off = 'bookie_a';
    // As a read of its card that said market_ref betting is off would leave it.
    await kv.set(`cache:by-id:${off}`, false);
    // The bot's memory of the cache forgets it as well (decision 2135), as when it lapses.
    desk.bot.context.catalog.hot.forget();
    try {
      const booksFor = async (name: string, subcommand?: string) =>
        (
          (await ld.autocomplete({
            user: ld.users.bettor,
            channelId: ld.channelIds.bets,
            name,
            ...(subcommand ? { subcommand } : {}),
            options: [
              { name: 'event', value: event.event_id },
              { name: 'bookie', value: '' },
            ],
            focused: 'bookie',
          })) as Array<{ value: string }>
        ).map((b) => b.value);
      const forWatch = await booksFor('watch', 'price');
      expect(forWatch).not.toContain(off);
      expect(forWatch).toEqual(await booksFor('bet'));
    } finally {
      await kv.delete(`cache:by-id:${off}`);
      desk.bot.context.catalog.hot.forget();
    }
  });

  it('/balance and /settings still offer books and sessions once the 30 s sessions cache has expired', async () => {
    const { ld } = desk;
    // An expired keyv entry reads as absent: drop it, as its 30 s would.
    await desk.bot.context.store.kv.delete('cache:sessions');
    desk.bot.context.catalog.hot.forget();
    const books = (await ld.autocomplete({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'balance',
      options: { bookie: '' },
      focused: 'bookie',
    })) as Array<{ value: string }>;
    expect(books.map((b) => b.value)).toContain('bookie_a');
    await desk.bot.context.store.kv.delete('cache:sessions');
    desk.bot.context.catalog.hot.forget();
    const sessions = (await ld.autocomplete({
      user: ld.users.admin,
      channelId: ld.channelIds.bets,
      name: 'settings',
      subcommand: 'session',
      options: { session: '' },
      focused: 'session',
    })) as Array<{ name: string }>;
    expect(sessions.length).toBeGreaterThan(0);
  });

  it('/price sports price-checks one selection chosen through autocomplete', async () => {
    const { ld } = desk;
    const base = { user: ld.users.bettor, channelId: ld.channelIds.bets, name: 'price', subcommand: 'sports' };
    const events = (await ld.autocomplete({
      ...base,
      options: { event: event.name.slice(0, 6) },
      focused: 'event',
    })) as Array<{ value: string }>;
    const ev = events.find((c) => c.value === event.event_id || c.value.startsWith('ref:'));
    expect(ev).toBeDefined();
    const eventValue = ev?.value ?? '';
    const books = (await ld.autocomplete({
      ...base,
      options: { event: eventValue, bookie: '' },
      focused: 'bookie',
    })) as Array<{ value: string }>;
    expect(books.map((b) => b.value)).toContain('bookie_a');
    const markets = await until(
      'market choices from the warmed card',
      async () => {
        const c = (await ld.autocomplete({
          ...base,
          options: { event: eventValue, bookie: 'bookie_a', market: '' },
          focused: 'market',
        })) as Array<{ value: string }>;
        return c.length > 0 ? c : undefined;
      },
      { timeoutMs: 15_000 },
    );
    const market = markets[0]?.value ?? '';
    const sels = (await ld.autocomplete({
      ...base,
      options: { event: eventValue, bookie: 'bookie_a', market, selection: '' },
      focused: 'selection',
    })) as Array<{ name: string; value: string }>;
    expect(sels.length).toBeGreaterThan(0);
    for (const c of sels) expect(c.value.length).toBeLessThanOrEqual(100);
    const reply = await run(
      'price',
      { event: eventValue, bookie: 'bookie_a', market, selection: sels[0]?.value ?? '' },
      { subcommand: 'sports' },
    );
    expect(text(reply)).toMatch(/live \*\*\d+\.\d\d\*\*/);
  });

  it('/price racing shows runners’ prices at each active book', async () => {
    const reply = await run('price', { track: 'Flemington', race: 3 }, { subcommand: 'racing' });
    expect(text(reply)).toContain('Flemington R3');
    expect(text(reply)).toMatch(/win \*\*\d+\.\d\d\*\*/);
  });

  it('/settings lets an admin set the results channel and limits and is not offered to a viewer', async () => {
    const { ld } = desk;
    const set = await run(
      'settings',
      { channel: ld.channelIds.results },
      { subcommand: 'results-channel', user: 'admin' },
    );
    expect(text(set)).toContain(`<#${ld.channelIds.results}>`);
    const limits = await run('settings', { per_bet: 20, per_day: 50 }, { subcommand: 'limits', user: 'admin' });
    expect(text(limits)).toContain('$20.00');
    const s = await getSettings(desk.bot.store, ld.guildId);
    expect(s.resultsChannelId).toBe(ld.channelIds.results);
    expect(s.maxStakePerDayCents).toBe(5000);
    const bad = await run('settings', { zone: 'Mars/Olympus' }, { subcommand: 'timezone', user: 'admin' });
    expect(text(bad)).toMatch(/not a time zone/);
    // Registered with ManageGuild as the default permission: Discord does not even offer it to a viewer.
    await expect(
      ld.sendCommand({
        user: ld.users.viewer,
        channelId: ld.channelIds.bets,
        name: 'settings',
        options: {},
        subcommand: 'show',
      }),
    ).rejects.toThrow(/default_member_permissions/);
  });

  it('/bet refuses a stake above the per-bet limit with the limit named', async () => {
    const reply = await run('bet', {
      event: event.event_id.length <= 100 ? event.event_id : 'x',
      bookie: 'bookie_a',
      market: 'any',
      selection: 'any',
      stake: 25,
    });
    expect(text(reply)).toMatch(/above this server's per-bet limit of \$20\.00/);
  });

  it('/jobs lists nothing before any bet and says what will show up', async () => {
    const reply = await run('jobs', {});
    expect(text(reply)).toMatch(/No jobs yet/);
  });

  it('/events refuses a past date', async () => {
    const past = dayIn(desk.now() - 3 * 86_400_000, 'UTC');
    const reply = await run('events', { league: event.league, date: past });
    expect(text(reply)).toMatch(/in the past/);
  });
});
