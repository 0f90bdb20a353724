// What a member cannot do with watches (issue 43, items 9 and 10): bet from another member's alert (a server rule's
// alert stays open to every bettor), or store a watch outside the ranges /watch allows by forging the options Discord's
// client would have bounded (E2E_STORE=postgres: on PostgreSQL).
import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../../src/bot/index.js';
import type { InteractionHandle } from '../../src/local-discord/index.js';
import { waitForModal } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { findControl, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';
import { BOOKS, pickWatched, watchCommand, watchSteps } from '../support/watch-flows.js';

const round2 = (x: number) => Math.round(x * 100) / 100;

describe('watch guards', () => {
  let desk: Desk<RunningBot>;
  let bob: APIUser;

  beforeAll(async () => {
    desk = await startDesk<RunningBot>({
      sandboxClock: true,
      env: { WATCH_TICK_SECONDS: '0.2', WATCH_FALLBACK_SECONDS: '20' },
    });
    bob = desk.ld.addMember('bob');
    desk.ld.setMemberRoles(bob.id, [desk.ld.roleIds.bettor]);
  }, 60_000);
  afterAll(() => desk?.close());

  const { settled, nextScrape, alertsAt } = watchSteps(() => desk);

  /** The ephemeral answer `user` got. */
  const answerTo = (handle: InteractionHandle, user: APIUser) =>
    until('the answer', () => handle.responses().find((m) => m.visibleTo === user.id && textOf(m) !== ''), {
      timeoutMs: 15_000,
    }).then(textOf);

  it("a personal alert's Bet button is its member's; a server watch's alert is open to every bettor", async () => {
    const ann = desk.ld.users.bettor;
    const w = pickWatched(desk, 1);
    const target = round2(w.prices.bookie_a! * 1.2);
    expect(
      await watchCommand(desk, ann, 'price', {
        event: w.epk,
        market: w.market,
        selection: w.slug,
        target,
        bookie: 'bookie_a',
      }),
    ).toMatch(/Watching/);
    // The server's watch on the same selection: a 5 % edge at any book.
    expect(
      await watchCommand(desk, desk.ld.users.admin, 'value', {
        event: w.epk,
        market: w.market,
        selection: w.slug,
        edge: 5,
        server: true,
      }),
    ).toMatch(/Watching/);
    await settled(w, BOOKS, 0);
    const move = await desk.control.movePrice({
      bookie: 'bookie_a',
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      price: round2(w.prices.bookie_a! * 1.3),
    });
    await settled(w, BOOKS, await nextScrape(move.move.scrape_at));
    const personal = await until('the price alert', () => alertsAt('bookie_a', /^Price alert/)[0]);
    const server = await until('the server value alert', () => alertsAt('bookie_a', /^Value alert/)[0]);
    expect(textOf(personal)).toContain(`<@${ann.id}>`);
    expect(server.content ?? '').not.toMatch(/<@/);
    const personalBet = findControl(personal, /watch:bet/)!.customId;
    const serverBet = findControl(server, /watch:bet/)!.customId;

    // Bob's press of Ann's alert: told whose it is, privately; no stake form opens.
    const slipsBefore = desk.ld.messages(desk.ld.channelIds.bets).filter((m) => /Bet slip/.test(textOf(m))).length;
    const refused = await desk.ld.clickButton({ user: bob, message: personal.id, customId: personalBet });
    expect(await answerTo(refused, bob)).toMatch(new RegExp(`This is <@${ann.id}>'s alert: only they can bet from it`));
    // Its stake form, submitted by a modified client without the button: refused the same way, no slip.
    const forged = desk.ld.forgeComponent({
      user: bob,
      channelId: desk.ld.channelIds.bets,
      customId: personalBet.replace(':watch:bet:', ':watch:stake:'),
      kind: 'modal',
      fields: { stake: '5', min_odds: '1.01' },
      messageId: personal.id,
    });
    expect(await answerTo(forged, bob)).toMatch(new RegExp(`This is <@${ann.id}>'s alert`));
    expect(desk.ld.messages(desk.ld.channelIds.bets).filter((m) => /Bet slip/.test(textOf(m)))).toHaveLength(
      slipsBefore,
    );

    // Ann's own press opens her stake form; Bob's press of the server's alert opens his.
    const annModal = waitForModal(desk, ann.id);
    await desk.ld.clickButton({ user: ann, message: personal.id, customId: personalBet });
    expect((await annModal).customId).toMatch(/:watch:stake:/);
    const bobModal = waitForModal(desk, bob.id);
    await desk.ld.clickButton({ user: bob, message: server.id, customId: serverBet });
    expect((await bobModal).customId).toMatch(/:watch:stake:/);
  }, 120_000);

  it('refuses forged /watch options outside their ranges, saying the range, and stores none of them', async () => {
    const ann = desk.ld.users.bettor;
    const w = pickWatched(desk, 2);
    const base = { event: w.epk, market: w.market, selection: w.slug };
    const count = async () =>
      Number(
        (await desk.bot.store.query<{ n: number }>("SELECT COUNT(*) AS n FROM watches WHERE state = 'active'"))[0]?.n,
      );
    const before = await count();
    const forged = async (subcommand: string, options: Record<string, unknown>, user = ann) =>
      answerTo(
        await desk.ld.forgeCommand({ user, channelId: desk.ld.channelIds.bets, name: 'watch', subcommand, options }),
        user,
      );
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['price', { ...base, target: 0 }, /`target` must be a number from 1\.01 to 1000 \(decimal odds\); got 0\./],
      ['price', { ...base, target: -3 }, /`target` must be a number from 1\.01 to 1000 .*got -3\./],
      ['price', { ...base, target: 1e308 }, /`target` must be a number from 1\.01 to 1000 .*got 1e\+308\./],
      ['price', { ...base, target: 'NaN' }, /`target` must be a number from 1\.01 to 1000 .*got "NaN"\./],
      ['price', { ...base, target: null }, /`target` must be a number from 1\.01 to 1000 .*got null\./],
      ['price', { ...base, target: 3, direction: 'sideways' }, /`direction` must be one of above, below/],
      ['value', { ...base, edge: -50 }, /`edge` must be a number from 0\.1 to 100 \(% of edge\); got -50\./],
      [
        'moves',
        { ...base, move: 10, minutes: 1e6 },
        /`minutes` must be a whole number from 1 to 240 \(whole minutes\); got 1000000\./,
      ],
      ['moves', { ...base, move: 10, steam_books: 2.5 }, /`steam_books` must be a whole number from 2 to 10/],
      ['moves', { ...base, move: 500 }, /`move` must be a number from 1 to 90/],
      ['price', { ...base, event: 5, target: 3 }, /`event` must be text; got 5\./],
      ['value', { ...base, edge: 3, server: 'yes' }, /`server` must be true or false; got "yes"\./],
    ];
    for (const [sub, options, refusal] of cases) expect(await forged(sub, options)).toMatch(refusal);
    expect(await forged('server-rule', { leagues: 'nrl', edge: 12, hours: 0 }, desk.ld.users.admin)).toMatch(
      /`hours` must be a whole number from 1 to 168/,
    );
    expect(await count()).toBe(before);
    // In range, the same forged path stores the watch.
    expect(await forged('price', { ...base, target: 3.5 })).toMatch(/Watching .* price ≥ 3\.50/);
    expect(await count()).toBe(before + 1);
  }, 60_000);
});
