import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceMovedOptions } from '../../src/bot/betting/handlers/reprice.js';
import { closedSlipView } from '../../src/bot/betting/views/slip.js';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import { dayIn } from '../../src/bot/model/dates.js';
import { updateSettings } from '../../src/bot/settings/guild-settings.js';
import type { Event } from '../../src/gateway/index.js';
import type { OptionInput } from '../../src/local-discord/index.js';
import { bettableBookieACard, control, type Desk, runCommand, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
let event: Event;
// Asked before anything else touched the bot: what a member sees right after start.
let firstLeagues: Array<{ name: string; value: string }> = [];
let firstEvents: Array<{ name: string; value: string }> = [];

beforeAll(async () => {
  desk = await startDesk();
  const { ld } = desk;
  const base = { user: ld.users.bettor, channelId: ld.channelIds.bets };
  firstLeagues = (await ld.autocomplete({ ...base, name: 'events', options: { league: '' }, focused: 'league' })) as [];
  firstEvents = (await ld.autocomplete({ ...base, name: 'bet', options: { event: '' }, focused: 'event' })) as [];
  const found = await bettableBookieACard(desk);
  expect(found).toBeDefined();
  event = found!.event;
});
afterAll(async () => {
  await desk?.close();
});

const run = async (name: string, options: OptionInput, opts: Parameters<typeof runCommand>[3] = {}) =>
  (await runCommand(desk, name, options, opts)).reply;

const text = (m: { embeds: unknown[]; content?: string }) => `${m.content ?? ''}${JSON.stringify(m.embeds)}`;

describe('autocomplete right after start', () => {
  it('answers the first ask for a league and for an event with choices, not with nothing', () => {
    expect(firstLeagues.length).toBeGreaterThan(0);
    expect(firstEvents.length).toBeGreaterThan(0);
  });

  it('names leagues as members know them and keeps the key as the value', async () => {
    const { ld } = desk;
    const choices = (await ld.autocomplete({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'events',
      options: { league: 'rugby u' },
      focused: 'league',
    })) as Array<{ name: string; value: string }>;
    expect(choices).toContainEqual({ name: 'Rugby Union', value: 'rugby_union' });
  });
});

describe('/events for every status', () => {
  it.each([
    ['prematch', 'tomorrow'],
    ['in_play', 'today'],
    ['finished', 'yesterday'],
  ])('status %s on %s answers with a listing', async (status, date) => {
    const reply = await run('events', { league: event.league, date, status });
    expect(text(reply)).not.toMatch(/answered unexpectedly|is in the past/);
    expect(reply.embeds[0]?.title).toMatch(/ — \d{4}-\d\d-\d\d · /);
    expect(reply.embeds[0]?.description).toMatch(/^\d+ events? on \d{4}-\d\d-\d\d; times in |No events/);
  });

  it('lists finished events of a past day with their score', async () => {
    // The sandbox has finished games every day for the common leagues: look back a few days for one.
    const finished = await desk.bot.context.catalog.loadEvents({
      ...upcomingWindow(desk.now() - 5 * 86_400_000),
      status: 'finished',
    });
    const past = finished.find((e) => e.league === event.league) ?? finished[0];
    expect(past).toBeDefined();
    const day = dayIn(Date.parse(past!.start_time), 'UTC');
    const reply = await run('events', { league: past!.league, date: day, status: 'finished' });
    expect(text(reply)).toContain(past!.name);
  });
});

describe('racing tracks with their race type', () => {
  it('offers race numbers for /price racing as /bet-racing does, on the same track-local day', async () => {
    const { ld } = desk;
    const races = (name: string, subcommand?: string) =>
      ld.autocomplete({
        user: ld.users.bettor,
        channelId: ld.channelIds.bets,
        name,
        ...(subcommand ? { subcommand } : {}),
        options: { track: 'Flemington (R)', race: '' },
        focused: 'race',
      }) as Promise<Array<{ name: string; value: number }>>;
    const atPrice = await races('price', 'racing');
    expect(atPrice.length).toBeGreaterThan(0);
    expect(atPrice[0]?.name).toMatch(/^Race 1 · Flemington · \d{4}-\d\d-\d\d$/);
    expect(atPrice).toEqual(await races('bet-racing'));
  });

  it('offers each track with its race type and prices a greyhound track picked from the list', async () => {
    const { ld } = desk;
    const tracks = (await ld.autocomplete({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'price',
      subcommand: 'racing',
      options: { track: 'Went' },
      focused: 'track',
    })) as Array<{ name: string; value: string }>;
    expect(tracks[0]).toEqual({ name: 'Wentworth Park · greyhound', value: 'Wentworth Park (G)' });
    const reply = await run('price', { track: tracks[0]!.value, race: 1 }, { subcommand: 'racing' });
    expect(reply.embeds[0]?.title).toBe('Wentworth Park R1 (G)');
    expect(text(reply)).not.toMatch(/does not know|no such race/);
  });

  it('infers the race type of a known track typed by hand', async () => {
    const reply = await run('price', { track: 'menangle', race: 2 }, { subcommand: 'racing' });
    expect(reply.embeds[0]?.title).toBe('Menangle R2 (H)');
  });

  it('says which race the gateway does not have and how to fix it, and logs it as a note, not an error', async () => {
    const reply = await run('price', { track: 'Wentworth Park', race: 1, race_type: '(R)' }, { subcommand: 'racing' });
    expect(text(reply)).toMatch(/race type: greyhound and harness tracks need race_type/);
    expect(desk.logs.some((l) => l.includes('"level":"error"') && l.includes('interaction failed'))).toBe(false);
    expect(desk.logs.some((l) => l.includes('request refused'))).toBe(true);
  });
});

describe('books a bet can go to', () => {
  it('leaves a book that does not take bets by market_ref out of /bet once its card is known', async () => {
    const { ld, bot } = desk;
    const events = await bot.context.catalog.loadEvents(upcomingWindow(desk.now()));
    // An event whose bookie_b card is bound: bookie_b reads cards but refuses bets by market_ref (the sandbox's rule).
    // It must list another book too, one a bet can go to (at some hours the first such event lists bookie_b alone).
    const alsoOthers = (x: Event) =>
      (x.books ?? []).includes('bookie_b') && (x.books ?? []).some((b) => b !== 'bookie_b');
    let withB: Event | undefined;
    for (const e of events.filter((x) => x.status === 'prematch' && alsoOthers(x)).slice(0, 8)) {
      const card = await bot.context.catalog.loadCard(e.event_id, 'bookie_b');
      if (card.bound) {
        expect(card.market_ref_betting_enabled).toBe(false);
        withB = e;
        break;
      }
    }
    expect(withB).toBeDefined();
    const ask = async (name: string) =>
      (
        (await ld.autocomplete({
          user: ld.users.bettor,
          channelId: ld.channelIds.bets,
          name,
          options: { event: withB!.event_id, bookie: '' },
          focused: 'bookie',
        })) as Array<{ value: string }>
      ).map((c) => c.value);
    const forBet = await ask('bet');
    expect(forBet).not.toContain('bookie_b');
    expect(forBet.length).toBeGreaterThan(0);
    // /markets still lists it: its card can be read, only not bet on by id.
    expect(await ask('markets')).toContain('bookie_b');
  });

  it('warns when an admin picks an inactive session', async () => {
    const reply = await run(
      'settings',
      { bookie: 'bookie_b', session: '5e55a1fa-0000-4000-8000-0000000000b2' },
      { subcommand: 'session', user: 'admin' },
    );
    expect(reply.content).toMatch(/^Saved\. ⚠️ alpha_b \(session …00b2\) is inactive: bets on bookie_b are refused/);
    await run('settings', { bookie: 'bookie_b' }, { subcommand: 'session', user: 'admin' });
  });
});

describe('the card, the daily limit and a new price', () => {
  it('shows the start time on the card', async () => {
    const reply = await run('markets', { event: event.event_id, bookie: 'bookie_a' });
    const unix = Math.floor(Date.parse(event.start_time) / 1000);
    expect(reply.embeds[0]?.description).toContain(`Starts <t:${unix}:f>`);
  });

  it('refuses a slip over the daily limit before posting it', async () => {
    const { ld, bot } = desk;
    await updateSettings(bot.store, ld.guildId, (s) => ({
      ...s,
      maxStakePerBetCents: 10_000,
      maxStakePerDayCents: 300,
    }));
    try {
      const before = ld.messages(ld.channelIds.bets).filter((m) => m.embeds[0]?.title === 'Bet slip').length;
      const reply = await run('bet', {
        event: event.event_id,
        bookie: 'bookie_a',
        market: 'any',
        selection: 'any',
        stake: 5,
      });
      expect(text(reply)).toMatch(/past today's limit of \$3\.00 \(already staked \$0\.00; \$3\.00 left\)/);
      const after = ld.messages(ld.channelIds.bets).filter((m) => m.embeds[0]?.title === 'Bet slip').length;
      expect(after).toBe(before);
    } finally {
      await updateSettings(bot.store, ld.guildId, ({ maxStakePerBetCents: _a, maxStakePerDayCents: _b, ...s }) => s);
    }
  });

  it('"Bet again at" on a price-moved refusal posts a new slip for its owner only', async () => {
    const { ld, bot } = desk;
    const found = await bettableBookieACard(desk);
    const market = found!.card.markets.find((m) => m.selections.some((s) => s.bettable && s.market_ref))!;
    const sel = market.selections.find((s) => s.bettable && s.market_ref)!;
    const slip = {
      epk: found!.event.event_id,
      sport: found!.event.sport,
      eventName: found!.event.name,
      bookie: 'bookie_a',
      sessionId: '5e55a1fa-0000-4000-8000-00000000000a',
      marketKey: market.market,
      marketLabel: market.label,
      selectionLabel: sel.label,
      marketRef: sel.market_ref!,
      stakeCents: 200,
      shownOdds: 3,
    };
    const opts = await priceMovedOptions(bot.context, slip, ld.users.bettor.id, 1.5, {
      guildId: ld.guildId,
      channelId: ld.channelIds.bets,
    });
    const closed = closedSlipView(slip, 'Bet not placed', 'Not placed: the price moved.', opts);
    const postedId = await bot.context.poster.post(ld.channelIds.bets, closed);
    const message = await until('the closed slip', () => ld.message(postedId), { timeoutMs: 15_000 });
    const again = control(message, 'v1:slip:reprice:');
    expect(again?.label).toBe('Bet again at 1.50');

    await ld.clickButton({ user: ld.users.viewer, message, customId: again!.custom_id! });
    await until(
      "the refusal to someone else's click",
      () =>
        ld
          .messages(ld.channelIds.bets, { viewer: ld.users.viewer.id })
          .find((m) => m.visibleTo === ld.users.viewer.id && /Make your own with \/bet/.test(text(m))),
      { timeoutMs: 15_000 },
    );
    const slipsBefore = ld.messages(ld.channelIds.bets).filter((m) => m.embeds[0]?.title === 'Bet slip').length;
    await ld.clickButton({ user: ld.users.bettor, message, customId: again!.custom_id! });
    const fresh = await until(
      'the new slip',
      () =>
        ld.messages(ld.channelIds.bets).filter((m) => m.embeds[0]?.title === 'Bet slip' && m.visibleTo === null)
          .length > slipsBefore
          ? ld
              .messages(ld.channelIds.bets)
              .filter((m) => m.embeds[0]?.title === 'Bet slip')
              .pop()
          : undefined,
      { timeoutMs: 30_000 },
    );
    const fields = Object.fromEntries((fresh.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields.Stake).toBe('$2.00');
    expect(control(fresh, 'v1:slip:confirm:')).toBeDefined();
  });
});

describe('a Confirm refused because the price moved', () => {
  it('closes the slip with "Bet again at <live price>"', async () => {
    const { ld, bot } = desk;
    const found = await bettableBookieACard(desk);
    const sel = found!.card.markets.flatMap((m) => m.selections).find((s) => s.bettable && s.market_ref)!;
    const user = ld.users.bettor;
    const ix = await ld.sendCommand({
      user,
      channelId: ld.channelIds.bets,
      name: 'bet',
      options: {
        event: found!.event.event_id,
        bookie: 'bookie_a',
        market: 'any',
        selection: sel.market_ref!,
        stake: 1,
      },
    });
    await ix.acknowledged;
    const slip = await until(
      'the $1 slip',
      () =>
        ld
          .messages(ld.channelIds.bets)
          .filter((m) => m.embeds[0]?.title === 'Bet slip' && m.visibleTo === null && control(m, 'v1:slip:confirm:'))
          .find((m) => m.embeds[0]?.fields?.some((f) => f.name === 'Stake' && f.value === '$1.00')),
      { timeoutMs: 30_000 },
    );
    const confirmId = control(slip, 'v1:slip:confirm:')!.custom_id!;
    // As if the user had been shown a far higher price than the live one.
    await bot.store.query(
      `UPDATE slips SET payload = json_set(payload, '$.shownOdds', 50) WHERE slip_id = ?`,
      confirmId.split(':').pop(),
    );
    await ld.clickButton({ user, message: slip, customId: confirmId });
    const closed = await until(
      'the closed slip',
      () => {
        const m = ld.message(slip.id);
        return m?.embeds[0]?.title === 'Bet not placed' ? m : undefined;
      },
      { timeoutMs: 15_000 },
    );
    const again = control(closed, 'v1:slip:reprice:');
    const live = /price moved to (\d+\.\d\d)/.exec(closed.embeds[0]?.description ?? '')?.[1];
    expect(again?.label).toBe(`Bet again at ${live}`);
  });
});
