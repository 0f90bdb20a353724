import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/bot/main.js';
import { relativeTime } from '../../src/local-discord/playground/public/timestamps.js';
import { launchChromium } from './chromium.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

let app: RunningApp;
let browser: Browser;
let page: Page;
let dir: string;
const printed: string[] = [];
const pageErrors: string[] = [];
/** The event the Bet at best test placed a bet on, for the /exposure test after it. */
let exposureEvent: string | undefined;

/** What `npm start` sees on a machine with no Discord token and no gateway URL (`port`: the page's). */
function startPlayground(port = '0', store = 'bot.sqlite'): Promise<RunningApp> {
  return startApp({
    env: {
      PLAYGROUND_PORT: port,
      STORE_URL: `sqlite://${join(dir, store)}`,
      LOG_LEVEL: 'warn',
      // The settlement watcher looks every second, so the settlement notice follows the clock advance below.
      SETTLEMENT_INTERVAL_SECONDS: '1',
      // The fund's beat every 2 s: a struck cash-out's withdrawal follows at once instead of at the next minute.
      FUND_CHECK_SECONDS: '2',
    },
    print: (line) => printed.push(line),
    sandbox: { seed: 1 },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'playground-browser-'));
  app = await startPlayground();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

// A failed run leaves the page as it was, to see what the person would have seen.
afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !page) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'playground-failure.png'), fullPage: true }).catch(() => {});
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Types into the message box key by key, as a person does. */
async function type(text: string) {
  await page.locator('#command-input').pressSequentially(text, { delay: 15 });
}

/** Waits for the bot's choices for one option (their detail line names the option). */
async function choicesFor(option: string) {
  await page
    .locator('#suggestions .suggestion', { has: page.locator('.suggestion-detail', { hasText: option }) })
    .first()
    .waitFor();
}

/** How many bets the embedded sandbox holds (its control route). */
async function sandboxBets(): Promise<number> {
  const state = (await (await fetch(`${app.sandboxUrl}/_sandbox/state`)).json()) as { bets: unknown[] };
  return state.bets.length;
}

/**
 * With the event choices open, picks the `skip`-th that starts over an hour after the sandbox clock.
 */
async function pickUpcomingEvent(skip: number) {
  // The first choices may be in play already; a person picks one that starts over an hour after the
  // sandbox clock the panel shows. (The bot picks its choices by its own clock, so this runs before the
  // test that moves the sandbox clock on.)
  await page.waitForFunction(() => document.getElementById('sandbox-clock')?.getAttribute('datetime'));
  const sandboxNow = Date.parse((await page.locator('#sandbox-clock').getAttribute('datetime')) ?? '');
  const labels = await page.locator('#suggestions .suggestion .suggestion-label').allTextContents();
  const laterOnes = labels.flatMap((label, i) => {
    const m = / (\d\d)-(\d\d) (\d\d:\d\d) UTC$/.exec(label.trim());
    if (!m) return [];
    const year = new Date(sandboxNow).getUTCFullYear();
    return Date.parse(`${year}-${m[1]}-${m[2]}T${m[3]}:00Z`) > sandboxNow + 3_600_000 ? [i] : [];
  });
  const later = laterOnes[skip] ?? -1;
  expect(later, `no upcoming event among: ${labels.join(' | ')}`).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < later; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/**
 * Waits for the bot's choices for `option`, typing `retype` again when none came (autocomplete answers from
 * cached cards, so a first ask may only start their read, as a person who types on would see).
 */
async function choicesAfterTyping(option: string, retype: string, giveUpAfter?: number): Promise<boolean> {
  for (let tries = 0; tries < (giveUpAfter ?? 10); tries++) {
    // A choice that says why there are none ("… type again in a minute") is read, not picked.
    const shown = page
      .locator('#suggestions .suggestion', { has: page.locator('.suggestion-detail', { hasText: option }) })
      .filter({ hasNotText: /type again|pick another book/ });
    // The page asks the bot again itself for about 2 s before it says nothing matches.
    const came = await shown
      .first()
      .waitFor({ timeout: 4_000 })
      .then(() => true)
      .catch(() => false);
    if (came) return true;
    for (let i = 0; i < retype.length; i++) await page.keyboard.press('Backspace');
    await type(retype);
    // With nothing to retype, a key typed and taken back asks again for the same text.
    if (retype === '') {
      await type('x');
      await page.keyboard.press('Backspace');
    }
  }
  if (giveUpAfter !== undefined) return false;
  await choicesFor(option);
  return true;
}

/**
 * Types /bet with every option picked from the bot's choices (an event starting over an hour after the sandbox
 * clock), then the stake, and sends it.
 */
async function typeBet(stake: number, skip = 0): Promise<boolean> {
  const input = page.locator('#command-input');
  await input.click();
  await type('/bet');
  await page.locator('.suggestion', { hasText: '/bet' }).first().waitFor();
  await page.keyboard.press('Tab');
  await page.locator('.suggestion', { hasText: 'event' }).first().waitFor();
  await page.keyboard.press('Tab'); // event:
  await choicesFor('event');
  await pickUpcomingEvent(skip);
  for (const option of ['market', 'selection']) {
    await page.locator('.suggestion', { hasText: option }).first().waitFor();
    await page.keyboard.press('Tab'); // option:
    // The cards load in the background within the card limit; after many reads (the tests before) a person sees
    // "No matching options" for a moment and types again. An event whose books offer no market to bet on (a
    // fixture listed moments ago has no card yet) is given up for the next, as a person would.
    if (!(await choicesAfterTyping(option, '', 6))) return false;
    await page.keyboard.press('Enter');
  }
  await page.locator('.suggestion', { hasText: 'stake' }).first().waitFor();
  await page.keyboard.press('Tab'); // stake:
  await type(String(stake));
  await expect(input.inputValue()).resolves.toMatch(
    new RegExp(`^/bet event:.+ market:.+ selection:.+ stake:${stake}$`),
  );
  await page.keyboard.press('Enter');
  return true;
}

/**
 * /bet on the first upcoming event a book can take the stake at, as a person would: told "No book can take this
 * bet" (no book that lists the event gives a live price for the selection), they pick the next event. `answered`
 * matches every message the bet is expected to produce (a slip, a proposal).
 */
async function betWhereABookTakesIt(stake: number, answered: Locator): Promise<void> {
  const refusals = page.locator('discord-message', { hasText: 'No book can take this bet' });
  const answeredBefore = await answered.count();
  for (let skip = 0; skip < 4; skip++) {
    const refusedBefore = await refusals.count();
    await page.locator('#command-input').fill('');
    if (!(await typeBet(stake, skip))) continue;
    await expect
      .poll(async () => (await answered.count()) > answeredBefore || (await refusals.count()) > refusedBefore, {
        timeout: 20_000,
      })
      .toBe(true);
    if ((await answered.count()) > answeredBefore) return;
  }
  throw new Error('none of the first four upcoming events had a book that could take the bet');
}

describe('the offline playground in Chromium', () => {
  it('prints where the playground is and what runs behind it', () => {
    expect(app.playgroundUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // What it is doing, step by step, then the address.
    expect(printed.slice(0, 4)).toEqual([
      'Starting the sandbox gateway…',
      'Starting the local Discord (Syndicate HQ: an admin, a bettor and a viewer)…',
      'Starting the bot: its store, its commands, logging in to the local Discord…',
      `Offline playground: ${app.playgroundUrl}`,
    ]);
    expect(printed.join('\n')).toMatch(/local Discord double and the embedded sandbox gateway/);
  });

  it("lists a league's events for a date, then bets with /bet, every option picked from the bot's choices", async () => {
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');

    // /events: the league from the bot's list, the date typed.
    await input.click();
    await type('/eve');
    await page.locator('.suggestion', { hasText: '/events' }).waitFor();
    await page.keyboard.press('Tab');
    await page.locator('.suggestion', { hasText: 'league' }).first().waitFor();
    await page.keyboard.press('Tab'); // league:
    await choicesFor('league');
    const league = (await page.locator('#suggestions .suggestion .suggestion-label').first().textContent())?.trim();
    await page.keyboard.press('Enter');
    await type('date:tomorrow');
    await expect(input.inputValue()).resolves.toBe(`/events league:${league} date:tomorrow`);
    await page.keyboard.press('Enter');
    const listing = page.locator('discord-embed', { hasText: /\d events?, times in your local time|No events/ }).last();
    await listing.waitFor({ timeout: 20_000 });
    // The listing is headed by the league's name, the one the choice showed.
    await expect(listing.getAttribute('embed-title')).resolves.toContain(league!);

    // /bet: event, market and selection each from the bot's choices, then the stake. No bookie: the bot
    // routes the bet to the best live price among the books that can take it.
    await betWhereABookTakesIt(5, page.locator('discord-message', { hasText: 'confirm your bet' }));

    const slip = page.locator('discord-message', { hasText: 'confirm your bet' }).last();
    await slip.waitFor({ timeout: 20_000 });
    const slipId = await slip.getAttribute('data-message-id');
    await expect(slip.textContent()).resolves.toMatch(
      /(Best price of \d+ books|The one book that can take it): bookie_\w+ \d+\.\d\d/,
    );
    await slip.locator('discord-button', { hasText: 'Confirm' }).click();
    const receipt = page.locator(
      `discord-message[data-message-id="${slipId}"] discord-embed[embed-title="Bet placed ✅"]`,
    );
    await receipt.waitFor({ timeout: 30_000 });
    await expect(receipt.locator('discord-embed-field[field-title="Stake"]').textContent()).resolves.toContain('5');
    expect(pageErrors).toEqual([]);
  });

  it('walks a proposal: the admin sets approval tiers, Ben proposes a stake above t1, Ada switches in and approves, the bet is placed once', async () => {
    const input = page.locator('#command-input');
    // Ada (admin) sets the tiers as an admin would: stakes above $8 need one approver, above $50 two. (The later
    // tests bet $5 or less, under t1.)
    await page.goto(`${app.playgroundUrl}/?as=admin`);
    await page.locator('body[data-ready="true"]').waitFor();
    await input.click();
    await type('/settings approvals t1:8 t2:50');
    await page.keyboard.press('Escape'); // closes the option list, so Enter sends
    await page.keyboard.press('Enter');
    await page.locator('discord-message[ephemeral]', { hasText: 'Saved' }).last().waitFor({ timeout: 20_000 });

    // Ben (bettor) bets $10 on the same page after picking himself in the user picker: a proposal, not a slip.
    await page.locator('#persona').selectOption('bettor');
    await expect.poll(() => page.locator('#persona').inputValue()).toBe('bettor');
    const betsBefore = await sandboxBets();
    await betWhereABookTakesIt(
      10,
      page.locator('discord-message', { has: page.locator('discord-embed[embed-title^="Bet proposal"]') }),
    );
    const proposal = page
      .locator('discord-message', { has: page.locator('discord-embed[embed-title^="Bet proposal"]') })
      .last();
    await proposal.waitFor({ timeout: 20_000 });
    const proposalId = await proposal.getAttribute('data-message-id');
    await expect(proposal.locator('discord-embed').getAttribute('embed-title')).resolves.toBe(
      'Bet proposal: 1 more approval needed',
    );
    await expect(proposal.locator('discord-button').allTextContents()).resolves.toEqual(['Approve', 'Reject']);
    await expect(proposal.locator('discord-button', { hasText: 'Confirm' }).count()).resolves.toBe(0);

    // Ben cannot approve it (never the proposer): the bot tells him privately why, and that Reject withdraws it.
    await proposal.locator('discord-button', { hasText: 'Approve' }).click();
    await page
      .locator('discord-message[ephemeral]', { hasText: 'You proposed this bet, so you cannot approve it' })
      .last()
      .waitFor({ timeout: 20_000 });
    await expect(
      page.locator('discord-message[ephemeral]', { hasText: 'You proposed this bet' }).last().textContent(),
    ).resolves.toContain('You may Reject it to withdraw it.');
    expect(await sandboxBets()).toBe(betsBefore);

    // Ada switches in with the user picker: the channel is drawn again as she sees it, without Ben's private
    // answer (his alone), with the same proposal, which she approves.
    await page.locator('#persona').selectOption('admin');
    await expect
      .poll(() => page.locator('discord-message[ephemeral]', { hasText: 'You proposed this bet' }).count(), {
        timeout: 20_000,
      })
      .toBe(0);
    const asAda = page.locator(`discord-message[data-message-id="${proposalId}"]`);
    await asAda.locator('discord-button', { hasText: 'Approve' }).waitFor({ timeout: 20_000 });
    await asAda.scrollIntoViewIfNeeded();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-proposal.png') });
    await asAda.locator('discord-button', { hasText: 'Approve' }).click();

    // The proposal becomes the receipt, buttons gone, and the gateway holds exactly one new bet.
    const receipt = asAda.locator('discord-embed[embed-title="Bet placed ✅"]');
    await receipt.waitFor({ timeout: 30_000 });
    await expect(receipt.locator('discord-embed-field[field-title="Stake"]').textContent()).resolves.toContain('10');
    await expect(asAda.locator('discord-button').count()).resolves.toBe(0);
    expect(await sandboxBets()).toBe(betsBefore + 1);
    await asAda.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'playground-approval.png') });
    await page.locator('#persona').selectOption('bettor');
    expect(pageErrors).toEqual([]);
  });

  it('keeps the message box, the Sandbox panel and the user picker on screen after 20 replies at 1280×800', async () => {
    const small = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await small.goto(`${app.playgroundUrl}/?as=bettor`);
      await small.locator('body[data-ready="true"]').waitFor();
      const before = await small.locator('discord-message').count();
      // Twenty commands, each answered by the bot with a message in this channel.
      await small.evaluate(async () => {
        const state = await (await fetch('/api/state')).json();
        const channelId = state.channels[0].id;
        for (let i = 0; i < 20; i++) {
          await fetch('/api/command', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ as: 'bettor', channelId, name: 'jobs', options: [] }),
          });
        }
      });
      await small.waitForFunction((n) => document.querySelectorAll('discord-message').length >= n, before + 20, {
        timeout: 60_000,
      });
      // Measured as a person sees the page (no scrolling into view): the page itself does not scroll, and what is
      // drawn at the centre of the message box, the panel's button and the picker is that element.
      // Wait for the last replies to be drawn (the view follows them down), then measure.
      await small.waitForFunction(() => {
        const s = document.getElementById('scroller')!;
        return s.scrollHeight - s.scrollTop - s.clientHeight < 2;
      });
      const layout = await small.evaluate(() => {
        const at = (id: string) => {
          const el = document.getElementById(id)!;
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return { inView: r.top >= 0 && r.bottom <= window.innerHeight, onTop: hit === el || el.contains(hit) };
        };
        return {
          pageHeight: document.documentElement.scrollHeight,
          windowHeight: window.innerHeight,
          input: at('command-input'),
          advance: at('advance-hour'),
          persona: at('persona'),
          scrolledToNewest: (() => {
            const s = document.getElementById('scroller')!;
            return s.scrollHeight - s.scrollTop - s.clientHeight < 2;
          })(),
        };
      });
      expect(layout.pageHeight).toBeLessThanOrEqual(layout.windowHeight);
      expect(layout.input).toEqual({ inView: true, onTop: true });
      expect(layout.advance).toEqual({ inView: true, onTop: true });
      expect(layout.persona).toEqual({ inView: true, onTop: true });
      expect(layout.scrolledToNewest).toBe(true);
      // The newest reply is drawn in the message list's visible part.
      await expect(
        small.evaluate(() => {
          const last = Array.from(document.querySelectorAll('discord-message')).pop()!.getBoundingClientRect();
          const list = document.getElementById('scroller')!.getBoundingClientRect();
          return last.bottom <= list.bottom + 1 && last.bottom > list.top;
        }),
      ).resolves.toBe(true);
      mkdirSync(ARTIFACTS, { recursive: true });
      await small.screenshot({ path: join(ARTIFACTS, 'playground-20-replies.png') });

      // A reload shows the newest messages, not the oldest.
      await small.reload();
      await small.locator('body[data-ready="true"]').waitFor();
      await small.waitForFunction(() => document.querySelectorAll('discord-message').length >= 20);
      await small.waitForFunction(() => {
        const s = document.getElementById('scroller')!;
        return s.scrollTop > 0 && s.scrollHeight - s.scrollTop - s.clientHeight < 2;
      });
    } finally {
      await small.close();
    }
  });

  it('lists finished events with /events status:finished, and offers /settings to admins only', async () => {
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');
    await input.click();
    await type('/set');
    await expect(page.locator('#suggestions .suggestion', { hasText: '/settings' }).count()).resolves.toBe(0);
    await input.fill('');
    await type('/eve');
    await page.locator('.suggestion', { hasText: '/events' }).waitFor();
    await page.keyboard.press('Tab');
    await page.locator('.suggestion', { hasText: 'league' }).first().waitFor();
    await page.keyboard.press('Tab'); // league:
    await choicesFor('league');
    await page.keyboard.press('Enter');
    await type('date:yesterday status:fin');
    await page.locator('#suggestions .suggestion', { hasText: 'finished' }).first().waitFor();
    await page.keyboard.press('Enter'); // takes "finished"
    await expect(input.inputValue()).resolves.toMatch(/^\/events league:.+ date:yesterday status:finished\s*$/);
    const listings = page.locator('discord-embed', { hasText: /\d events?, times in your local time|No events/ });
    const before = await listings.count();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (n) =>
        Array.from(document.querySelectorAll('discord-embed')).filter((e) =>
          /\d events?, times in your local time|No events/.test(e.textContent ?? ''),
        ).length > n,
      before,
      { timeout: 20_000 },
    );
    const listing = listings.last();
    await expect(listing.getAttribute('embed-title')).resolves.toMatch(/ — \d{4}-\d\d-\d\d · finished$/);
    await expect(page.locator('discord-embed', { hasText: 'answered unexpectedly' }).count()).resolves.toBe(0);

    await page.goto(`${app.playgroundUrl}/?as=admin`);
    await page.locator('body[data-ready="true"]').waitFor();
    await input.click();
    await type('/set');
    await page.locator('#suggestions .suggestion', { hasText: '/settings' }).first().waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('places a racing bet from the Bet menu under /price racing and confirms it', async () => {
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');
    await input.click();
    // Tomorrow's first race at Flemington has not jumped whatever the time of day.
    await type('/price racing track:Flem');
    await choicesFor('track');
    await page.keyboard.press('Enter');
    await type('race:1 date:tomorrow');
    await page.keyboard.press('Enter');
    const prices = page.locator('discord-message', {
      has: page.locator('discord-embed[embed-title^="Flemington R1"]'),
    });
    await prices.last().waitFor({ timeout: 20_000 });
    const menu = prices.last().locator('discord-string-select-menu').first();
    await menu.click();
    await menu.locator('discord-string-select-menu-option').first().click();
    await page.locator('#modal[open]').waitFor({ timeout: 10_000 });
    await page.locator('#modal-fields input').first().fill('3');
    await page.locator('#modal-submit').click();

    const slip = page
      .locator('discord-message', {
        has: page.locator('discord-embed[embed-title="Bet slip"]', { hasText: 'Flemington R1' }),
      })
      .last();
    await slip.waitFor({ timeout: 20_000 });
    const slipId = await slip.getAttribute('data-message-id');
    await slip.locator('discord-button', { hasText: 'Confirm' }).click();
    const receipt = page.locator(
      `discord-message[data-message-id="${slipId}"] discord-embed[embed-title="Bet placed ✅"]`,
    );
    await receipt.waitFor({ timeout: 30_000 });
    await expect(receipt.locator('discord-embed-field[field-title="Selection"]').textContent()).resolves.toContain(
      'Win',
    );
    expect(pageErrors).toEqual([]);
  });

  it('places a bet-boost card from /promos and confirms it', async () => {
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');
    await input.click();
    await type('/promos');
    await page.locator('.suggestion', { hasText: '/promos' }).first().waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const inbox = page
      .locator('discord-message', { has: page.locator('discord-embed[embed-title="Promo inbox"]') })
      .last();
    await inbox.waitFor({ timeout: 20_000 });
    const menu = inbox.locator('discord-string-select-menu').first();
    await menu.click();
    await menu.locator('discord-string-select-menu-option').first().click();
    await page.locator('#modal[open]').waitFor({ timeout: 10_000 });
    await page.locator('#modal-fields input').first().fill('5');
    await page.locator('#modal-submit').click();

    const slip = page
      .locator('discord-message', {
        has: page.locator('discord-embed[embed-title="Bet slip"]', { hasText: 'Bet boost' }),
      })
      .last();
    await slip.waitFor({ timeout: 20_000 });
    const slipId = await slip.getAttribute('data-message-id');
    await slip.locator('discord-button', { hasText: 'Confirm' }).click();
    const receipt = page.locator(
      `discord-message[data-message-id="${slipId}"] discord-embed[embed-title="Bet placed ✅"]`,
    );
    await receipt.waitFor({ timeout: 30_000 });
    await expect(receipt.locator('discord-embed-field[field-title="Stake"]').textContent()).resolves.toContain('5');
    expect(pageErrors).toEqual([]);
  });

  it('places a bet from /markets to the receipt by typing and clicking, then sees it settle', async () => {
    // A second person watches the channel as the viewer, in their own tab.
    const watcher = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await watcher.goto(`${app.playgroundUrl}/?as=viewer`);
    await watcher.locator('body[data-ready="true"]').waitFor();
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    await expect(page.locator('#about-title').textContent()).resolves.toContain('Offline playground');

    // /markets: the command from the list, then its options; autocomplete asks the bot. bookie_a takes
    // market_ref bets on every sport, so the person picks an event it lists (next one down if not).
    const input = page.locator('#command-input');
    const bookie = 'bookie_a';
    for (let tries = 0; ; tries++) {
      await input.fill('');
      await input.click();
      await type('/mar');
      await page.locator('.suggestion', { hasText: '/markets' }).waitFor();
      await page.keyboard.press('Tab');
      await page.locator('.suggestion', { hasText: 'event' }).first().waitFor();
      await page.keyboard.press('Tab'); // event:
      await choicesFor('event'); // the bot's event choices
      for (let i = 0; i < tries; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.locator('.suggestion', { hasText: 'bookie' }).first().waitFor();
      await page.keyboard.press('Tab'); // bookie:
      await choicesFor('bookie'); // the books listing that event
      const book = page.locator('#suggestions .suggestion', { hasText: bookie });
      if ((await book.count()) > 0) {
        await book.click();
        break;
      }
      expect(tries, `none of the first events is listed by ${bookie}`).toBeLessThan(8);
    }
    await expect(input.inputValue()).resolves.toMatch(new RegExp(`^/markets event:.+ bookie:${bookie} $`));
    await page.keyboard.press('Enter');

    // The card: an embed only the bettor sees, with a menu of markets.
    const card = page.locator('discord-message', { has: page.locator(`discord-embed[embed-title$="— ${bookie}"]`) });
    await card.waitFor({ timeout: 20_000 });
    await expect(card.getAttribute('ephemeral')).resolves.not.toBeNull();
    const marketMenu = card.locator('discord-string-select-menu').first();
    await marketMenu.click();
    await marketMenu.locator('discord-string-select-menu-option').first().click();

    // The market: pick a selection, then the stake in the form the bot opens.
    const market = page.locator('discord-string-select-menu[placeholder]').last();
    await page.waitForFunction(() => document.querySelectorAll('discord-string-select-menu').length > 0);
    await market.click();
    // The menu sits near the bottom of the list (the newest message): its options open whichever way they fit
    // (upwards when the room below is short), drawn inside the message list instead of cut off at its edge.
    await expect.poll(() => market.getAttribute('data-opens')).toMatch(/^(up|down)$/);
    await expect(
      market.evaluate((menu) => {
        const list = menu.shadowRoot?.querySelector('.discord-string-select-menu-option-slot');
        const box = list?.getBoundingClientRect();
        const scroller = document.getElementById('scroller')!.getBoundingClientRect();
        return !!box && box.height > 0 && box.top >= scroller.top - 1 && box.bottom <= scroller.bottom + 1;
      }),
    ).resolves.toBe(true);
    // With the menu scrolled to the list's bottom edge there is no room below: the options open upwards.
    await market.click(); // closes it
    await market.evaluate((menu) => {
      const scroller = document.getElementById('scroller')!;
      scroller.scrollTop += menu.getBoundingClientRect().bottom - (scroller.getBoundingClientRect().bottom - 4);
    });
    await market.click();
    await expect.poll(() => market.getAttribute('data-opens')).toBe('up');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-menu.png') });
    await market.locator('discord-string-select-menu-option').first().click();
    await page.locator('#modal[open]').waitFor({ timeout: 10_000 });
    await page.locator('#modal-fields input').first().fill('5');
    await page.locator('#modal-submit').click();

    // The slip: confirm it.
    const slip = page.locator('discord-message', { has: page.locator('discord-embed[embed-title="Bet slip"]') });
    await slip.waitFor({ timeout: 20_000 });
    const slipId = await slip.getAttribute('data-message-id');
    await slip.locator('discord-button', { hasText: 'Confirm' }).click();

    // Submitted, then the same message is edited with the receipt, live.
    const receipt = page.locator(
      `discord-message[data-message-id="${slipId}"] discord-embed[embed-title="Bet placed ✅"]`,
    );
    await receipt.waitFor({ timeout: 30_000 });
    await expect(receipt.locator('discord-embed-field[field-title="Stake"]').textContent()).resolves.toContain('5');

    // The ✅ of the title is drawn as a Twemoji image that loaded (a bare machine has no emoji font: a box).
    const tick = receipt.locator('discord-custom-emoji img').first();
    await tick.waitFor();
    await expect(tick.getAttribute('src')).resolves.toBe('/vendor/@twemoji/svg/2705.svg');
    await expect(tick.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(true);
    // In the title's own order: the words, then the tick (text nodes here, spans where the component draws it).
    await expect(
      receipt.locator('.discord-embed-title').evaluate((title) =>
        Array.from(title.childNodes)
          .map((n) =>
            n.nodeName === 'DISCORD-CUSTOM-EMOJI'
              ? (n as Element).getAttribute('name')
              : n.nodeType === 3 || n.nodeName === 'SPAN'
                ? n.textContent?.trim()
                : '',
          )
          .filter(Boolean),
      ),
    ).resolves.toEqual(['Bet placed', '✅']);

    const betId = (await receipt.locator('discord-embed-field[field-title="Bet id"]').textContent())?.trim();
    expect(betId).toBeTruthy();

    // The viewer saw the public slip turn into the receipt live, but never the bettor's own card.
    await watcher
      .locator('discord-embed[embed-title="Bet placed ✅"]', {
        has: watcher.locator('discord-embed-field[field-title="Bet id"]', { hasText: betId! }),
      })
      .waitFor({ timeout: 10_000 });
    await expect(watcher.locator(`discord-embed[embed-title$="— ${bookie}"]`).count()).resolves.toBe(0);
    await expect(watcher.locator('discord-message[ephemeral]').count()).resolves.toBe(0);

    // The person moves the sandbox clock on with the Sandbox panel (inside the 7 days of history the
    // watcher reads), then settles what has started: the bet settles and the notice arrives live.
    const panel = page.locator('#sandbox-panel');
    await expect(panel.isVisible()).resolves.toBe(true);
    const clock = panel.locator('#sandbox-clock');
    await page.waitForFunction(() => document.getElementById('sandbox-clock')?.getAttribute('datetime'));
    const shown = async () => Date.parse((await clock.getAttribute('datetime')) ?? '');
    const before = await shown();
    for (const step of [1, 2]) {
      await panel.getByRole('button', { name: 'Advance 1 day' }).click();
      await page.waitForFunction(
        ([from, days]) =>
          Date.parse(document.getElementById('sandbox-clock')?.getAttribute('datetime') ?? '') - from >=
          days * 86_400_000,
        [before, step] as const,
      );
    }
    await expect(shown()).resolves.toBeGreaterThanOrEqual(before + 2 * 86_400_000);
    await panel.getByRole('button', { name: 'Settle started events' }).click();
    await panel.locator('#sandbox-status', { hasText: 'settled' }).waitFor({ timeout: 10_000 });
    // The playground sends settlement notices to #results (the panel says so): the person opens it.
    await page.locator('.channel-link[data-channel="results"]').click();
    await expect(page.locator('#channel-name').textContent()).resolves.toBe('results');
    const notice = page.locator('discord-embed', {
      has: page.locator('discord-embed-field[field-title="Bet id"]', { hasText: betId! }),
    });
    await notice
      .filter({ hasNot: page.locator('[field-title="Potential return"]') })
      .first()
      .waitFor({ timeout: 30_000 });
    await expect(
      notice
        .filter({ hasNot: page.locator('[field-title="Potential return"]') })
        .first()
        .getAttribute('embed-title'),
    ).resolves.toMatch(/^(Won|Lost|Void|Cashed out)/);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-bet.png'), fullPage: true });

    // /stats over the settled bet: the reply's embed shows the chart the bot attached, drawn from its bytes.
    await input.fill('');
    await input.click();
    await type('/stats');
    await page.locator('.suggestion', { hasText: '/stats' }).first().waitFor();
    await page.keyboard.press('Tab');
    await expect(input.inputValue()).resolves.toBe('/stats ');
    await page.keyboard.press('Enter');
    const stats = page.locator('discord-embed[embed-title="Stats"]').last();
    await stats.waitFor({ timeout: 20_000 });
    await expect(stats.locator('discord-embed-field[field-title="Close captured"]').count()).resolves.toBe(1);
    const chart = stats.locator('img.discord-embed-image');
    await chart.waitFor({ timeout: 10_000 });
    await expect(chart.getAttribute('src')).resolves.toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/attachments\/\d+\/\d+\/stats\.png$/,
    );
    await expect
      .poll(() => chart.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 })
      .toBe(true);
    await stats.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'playground-stats.png') });
    expect(pageErrors).toEqual([]);
  });

  it("picks a role by name in /settings bet-role from the guild's roles and draws its mention as a name", async () => {
    await page.goto(`${app.playgroundUrl}/?as=admin`);
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');
    await input.click();
    await type('/settings bet-role role:Bet');
    // Discord's role picker: the guild's roles filtered by what is typed.
    await choicesFor('role');
    await expect(page.locator('#suggestions .suggestion-label').allTextContents()).resolves.toEqual(['@Bettor']);
    await page.keyboard.press('Enter');
    await expect(input.inputValue()).resolves.toBe('/settings bet-role role:@Bettor ');
    await page.keyboard.press('Enter');
    // The reply names the role as Discord draws a role mention: "@Bettor", never its id.
    const reply = page.locator('discord-message', { has: page.locator('.md-mention', { hasText: '@Bettor' }) }).last();
    await reply.waitFor({ timeout: 20_000 });
    await expect(reply.textContent()).resolves.not.toMatch(/<@&|\d{17,}/);
    await reply.scrollIntoViewIfNeeded();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-role.png') });
  });

  it('shows the CSV of /ledger export as a file card whose link downloads the file', async () => {
    await page.goto(`${app.playgroundUrl}/?as=admin`);
    await page.locator('body[data-ready="true"]').waitFor();
    await page.locator('#command-input').click();
    await type('/ledger export ');
    await page.keyboard.press('Enter');
    const card = page.locator('discord-file-attachment[name$=".csv"]').last();
    await card.waitFor({ timeout: 20_000 });
    const name = (await card.getAttribute('name')) ?? '';
    expect(name).toMatch(/^ledger-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
    await expect(card.locator('.discord-file-attachment-metadata').textContent()).resolves.toMatch(
      /^\s*[\d.]+ (bytes|KB|MB)\s*$/,
    );
    await card.scrollIntoViewIfNeeded();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-file.png') });
    const [download] = await Promise.all([page.waitForEvent('download'), card.locator('discord-link a').click()]);
    expect(download.suggestedFilename()).toBe(name);
    const saved = await download.path();
    // The ledger's CSV, its header first.
    expect(readFileSync(saved, 'utf8').split(/\r?\n/)[0]).toBe('seq,at,kind,ref,actor,amount,data,prev_hash,hash');
  });

  it('Bet at best from /compare never dead-ends: it offers only books that can take the bet and makes the slip', async () => {
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');
    const compares = page.locator('discord-message', { has: page.locator('discord-embed[embed-title^="Compare"]') });
    let reply: Locator | undefined;
    for (let tries = 0; tries < 6 && !reply; tries++) {
      const before = await compares.count();
      await input.fill('');
      await input.click();
      await type('/compare');
      await page.locator('.suggestion', { hasText: '/compare' }).first().waitFor();
      await page.keyboard.press('Tab');
      await page.locator('.suggestion', { hasText: 'event' }).first().waitFor();
      await page.keyboard.press('Tab'); // event:
      await choicesFor('event');
      await pickUpcomingEvent(tries);
      await page.locator('.suggestion', { hasText: 'market' }).first().waitFor();
      await page.keyboard.press('Tab'); // market:
      await type('He');
      await choicesAfterTyping('market', 'He');
      const h2h = page.locator('#suggestions .suggestion', { hasText: 'Head to Head' });
      if ((await h2h.count()) > 0) await h2h.first().click();
      else await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      const answered = await expect
        .poll(async () => (await compares.count()) > before, { timeout: 30_000 })
        .toBe(true)
        .then(
          () => true,
          () => false,
        );
      const last = compares.last();
      if (answered && (await last.locator('discord-button', { hasText: 'Bet at best' }).count()) > 0) reply = last;
    }
    expect(reply, 'none of the first six events had a Bet at best button').toBeDefined();
    const shown = (await reply!.textContent()) ?? '';
    // Every book the event lists has a line; a book that cannot take the bet says why and is never offered.
    const refusing = [...shown.matchAll(/(bookie_\w+): [\d.]+ \(cannot bet here/g)].map((m) => m[1] as string);
    const labels = await reply!.locator('discord-button', { hasText: 'Bet at best' }).allTextContents();
    for (const book of refusing) expect(labels.join(' ')).not.toContain(book);
    // biome-ignore lint/performance/useDomNodeTextContent: the lines as the page draws them (a <br> is a line)
    const eventName = (await reply!.locator('discord-embed-description').first().innerText()).split('\n')[0]?.trim();

    const slips = page.locator('discord-message', { has: page.locator('discord-embed[embed-title="Bet slip"]') });
    const slipsBefore = await slips.count();
    await reply!.locator('discord-button', { hasText: 'Bet at best' }).first().click();
    await page.locator('#modal[open]').waitFor({ timeout: 10_000 });
    await page.locator('#modal-fields input').first().fill('2');
    await page.locator('#modal-submit').click();
    await expect.poll(async () => await slips.count(), { timeout: 30_000 }).toBeGreaterThan(slipsBefore);
    const slip = slips.last();
    const book = (await slip.locator('discord-embed-field[field-title="Book"]').textContent())?.trim() ?? '';
    expect(refusing).not.toContain(book);
    const slipId = await slip.getAttribute('data-message-id');
    await slip.locator('discord-button', { hasText: 'Confirm' }).click();
    await page
      .locator(`discord-message[data-message-id="${slipId}"] discord-embed[embed-title="Bet placed ✅"]`)
      .waitFor({ timeout: 30_000 });
    exposureEvent = eventName;
    expect(pageErrors).toEqual([]);
  });

  it("/exposure for one event agrees with the whole desk's: the same event line and the same member line", async () => {
    expect(exposureEvent, 'the Bet at best test placed a bet on an event').toBeDefined();
    const name = exposureEvent as string;
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');
    const views = page.locator('discord-message', { has: page.locator('discord-embed[embed-title^="Exposure"]') });
    /** One line of a field as the person reads it (a line per row of the field). */
    const lineOf = async (view: Locator, field: RegExp, text: string) => {
      // biome-ignore lint/performance/useDomNodeTextContent: the lines as the page draws them (a <br> is a line)
      const value = await view.locator('discord-embed-field', { hasText: field }).first().innerText();
      return value
        .split('\n')
        .find((l) => l.includes(text))
        ?.trim();
    };

    let before = await views.count();
    await input.click();
    await type('/exposure');
    await page.keyboard.press('Escape'); // closes the option list, so Enter sends
    await page.keyboard.press('Enter');
    await expect.poll(async () => await views.count(), { timeout: 20_000 }).toBeGreaterThan(before);
    // Held by its place in the list: `last()` would follow the next /exposure.
    const desk = views.nth((await views.count()) - 1);

    before = await views.count();
    await input.fill('');
    await input.click();
    await type('/exposure');
    await page.locator('.suggestion', { hasText: '/exposure' }).first().waitFor();
    await page.keyboard.press('Tab');
    await page.locator('.suggestion', { hasText: 'event' }).first().waitFor();
    await page.keyboard.press('Tab'); // event:
    // Up to and including its first space: Discord keeps a trailing space in a value being typed, and so does the page.
    await type(name.slice(0, name.indexOf(' ') + 1));
    await choicesFor('event');
    await page.locator('#suggestions .suggestion', { hasText: name }).first().click();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect.poll(async () => await views.count(), { timeout: 20_000 }).toBeGreaterThan(before);
    const one = views.nth((await views.count()) - 1);

    const eventLine = await lineOf(one, /This event/, name);
    expect(eventLine).toMatch(/\$[\d,.]+ · (room \$[\d,.]+ of \$[\d,.]+|no cap)/);
    expect(await lineOf(desk, /By event/, name)).toBe(eventLine);
    const memberLine = await lineOf(one, /By member/, '@Ben');
    expect(memberLine).toBeDefined();
    expect(await lineOf(desk, /By member/, '@Ben')).toBe(memberLine);
    await one.scrollIntoViewIfNeeded();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-exposure.png') });
  });

  it('reads relative times on the sandbox clock after "Advance 1 day": a new slip expires in 2 minutes', async () => {
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const clock = page.locator('#sandbox-clock');
    await page.waitForFunction(() => document.getElementById('sandbox-clock')?.getAttribute('datetime'));
    const before = Date.parse((await clock.getAttribute('datetime')) ?? '');
    await page.locator('#sandbox-panel').getByRole('button', { name: 'Advance 1 day' }).click();
    await page.waitForFunction(
      (from) =>
        Date.parse(document.getElementById('sandbox-clock')?.getAttribute('datetime') ?? '') - from >= 86_400_000,
      before,
    );
    await betWhereABookTakesIt(
      5,
      page.locator('discord-message', { has: page.locator('discord-embed[embed-title="Bet slip"]') }),
    );
    const slip = page.locator('discord-message', { has: page.locator('discord-embed[embed-title="Bet slip"]') }).last();
    await slip.waitFor({ timeout: 20_000 });
    // The bot gives the slip two minutes on the sandbox clock; the browser's clock is a day behind it.
    await expect(slip.locator('.content time[data-style="R"]').textContent()).resolves.toMatch(/^in [12] minutes?$/);
    // The start reads against the sandbox clock the panel shows, not the browser's.
    const start = slip.locator('discord-embed-field time[data-style="R"]').first();
    const at = Date.parse((await start.getAttribute('datetime')) ?? '');
    const now = Date.parse((await clock.getAttribute('datetime')) ?? '');
    await expect(start.textContent()).resolves.toBeOneOf([relativeTime(at, now), relativeTime(at, now + 60_000)]);
    await slip.scrollIntoViewIfNeeded();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-clock.png') });
    await slip.locator('discord-button', { hasText: 'Cancel' }).click();
    expect(pageErrors).toEqual([]);
  });

  it('offers choices for an autocompleted option after a number typed earlier in the line, with no red hint', async () => {
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');
    await input.click();
    // The stake first, then the event: Discord sends the stake as the text "30" beside the focused event.
    await type('/bet stake:30 event:');
    await choicesFor('event');
    await expect(page.locator('#hint').textContent()).resolves.not.toMatch(/refuse|expects a number/);
    await expect(page.locator('#hint').getAttribute('data-kind')).resolves.not.toBe('error');
    // A line the box refuses says what to fix in red; sending a good line after it clears that.
    await input.fill('');
    await type('/bet stake:abc');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#hint').textContent()).toMatch(/stake must be a number/);
    await input.fill('');
    await type('/sessions');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#hint').textContent()).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it("follows the README's first screen word for word: the admin's /settings show, then the bettor's /bet", async () => {
    // "Open the address it prints."
    await page.goto(app.playgroundUrl ?? '');
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');
    // "In **You are** at the bottom left, pick **Ada — admin** and type `/settings show`: betting is already open to
    // the **Bettor** role, and the bank slips size stakes from is named."
    await page.locator('#persona').selectOption({ label: 'Ada — admin' });
    await expect.poll(() => page.locator('#persona').inputValue()).toBe('admin');
    await input.click();
    await type('/settings show');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    const shown = page
      .locator('discord-message[ephemeral]', { has: page.locator('discord-embed[embed-title="Desk settings"]') })
      .last();
    await shown.waitFor({ timeout: 20_000 });
    const roleField = shown.locator('discord-embed-field[field-title="Role allowed to bet"]');
    await expect(roleField.textContent()).resolves.toContain('@Bettor');
    await expect(shown.locator('discord-embed-field[field-title="Staking"]').textContent()).resolves.toMatch(/bank: /);
    await expect(shown.textContent()).resolves.toMatch(/performance fee: /);
    // "Pick **Ben — bettor** and type `/bet`: take the bot's choices for event, market and selection, give a stake
    // and press Enter. The slip appears; press **Confirm**."
    await page.locator('#persona').selectOption({ label: 'Ben — bettor' });
    await expect.poll(() => page.locator('#persona').inputValue()).toBe('bettor');
    await betWhereABookTakesIt(5, page.locator('discord-message', { hasText: 'confirm your bet' }));
    const slip = page.locator('discord-message', { hasText: 'confirm your bet' }).last();
    const slipId = await slip.getAttribute('data-message-id');
    await slip.locator('discord-button', { hasText: 'Confirm' }).click();
    // "The result is edited into the slip."
    await page
      .locator(`discord-message[data-message-id="${slipId}"] discord-embed[embed-title="Bet placed ✅"]`)
      .waitFor({ timeout: 30_000 });
    expect(pageErrors).toEqual([]);
  });

  it('tells the truth across a restart of npm start: the page says a new run began and clears the old one', async () => {
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const input = page.locator('#command-input');
    await input.click();
    await type('/sessions');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.locator('discord-embed[embed-title="Sessions"]').last().waitFor({ timeout: 20_000 });
    const firstRun = await page.locator('body').getAttribute('data-run');
    expect(await page.locator('discord-message').count()).toBeGreaterThan(0);

    // Ctrl-C, then npm start again on the same address (a fresh store, as a new run has).
    const port = new URL(app.playgroundUrl ?? '').port;
    await app.stop();
    await expect.poll(() => page.locator('#live-status').textContent(), { timeout: 10_000 }).toMatch(/reconnecting/);
    // The Sandbox panel says npm start is away, never the browser's "Failed to fetch".
    await page.locator('#advance-hour').click();
    await expect
      .poll(() => page.locator('#sandbox-status').textContent(), { timeout: 10_000 })
      .toMatch(/not answering/);
    await expect(page.locator('#sandbox-status').textContent()).resolves.not.toMatch(/Failed to fetch/);
    app = await startPlayground(port, 'bot-second-run.sqlite');

    await expect.poll(() => page.locator('#notice').textContent(), { timeout: 20_000 }).toMatch(/a new run began/);
    await expect.poll(() => page.locator('body').getAttribute('data-run')).not.toBe(firstRun);
    await expect.poll(() => page.locator('discord-message').count()).toBe(0);
    await expect(page.locator('#sandbox-status').textContent()).resolves.toBe('');
    await expect(page.locator('#live-status').textContent()).resolves.toBe('live');
    // The new run answers: a command works without reloading the page.
    await input.click();
    await type('/sessions');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.locator('discord-embed[embed-title="Sessions"]').last().waitFor({ timeout: 20_000 });
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-restart.png') });
    expect(pageErrors).toEqual([]);
  });

  it('closes the about banner with its close button, and keeps it closed after a reload', async () => {
    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const about = page.locator('#about');
    await expect(about.isVisible()).resolves.toBe(true);
    await about.getByRole('button', { name: 'Close' }).click();
    await expect(about.isVisible()).resolves.toBe(false);
    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor();
    await expect(about.isVisible()).resolves.toBe(false);
  });
});

describe("the fund's day in the playground (docs/fund.md, issue 32)", () => {
  /** Types a line as a person does (choices closed) and sends it. */
  async function send(line: string) {
    const input = page.locator('#command-input');
    await input.click();
    await input.fill('');
    await type(line);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
  }
  /** Types the line up to an autocompleted option and the text that narrows it, picks the first choice, goes on. */
  async function sendPicking(before: string, option: string, narrow: string, after = '') {
    const input = page.locator('#command-input');
    await input.click();
    await input.fill('');
    await type(`${before}${narrow}`);
    await choicesAfterTyping(option, narrow);
    await page.keyboard.press('Enter');
    if (after) await type(after);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
  }
  /** The newest message holding `text`, once there are more of them than `before`. */
  async function answer(text: string | RegExp, before: number, timeout = 30_000) {
    const all = page.locator('discord-message', { hasText: text });
    await expect.poll(() => all.count(), { timeout }).toBeGreaterThan(before);
    return all.last();
  }
  const count = (text: string | RegExp) => page.locator('discord-message', { hasText: text }).count();

  it('follows the offline cycle in docs/fund.md word for word from a fresh playground: every step works the first time', async () => {
    // A fresh playground: npm start again with a store of its own (and a new sandbox).
    const port = new URL(app.playgroundUrl ?? '').port;
    await app.stop();
    app = await startPlayground(port, 'bot-fund-cycle.sqlite');
    await page.goto(`${app.playgroundUrl}/?as=admin`);
    await page.locator('body[data-ready="true"]').waitFor();
    await expect.poll(() => page.locator('discord-message').count()).toBe(0);

    // "As Ada, the admin: /fund accounts action:add session:bookie_a, picking bookie_a/alpha_a from the list,
    // opening_member:@admin."
    let before = await count('Added bookie_a/');
    await sendPicking('/fund accounts action:add session:', 'session', 'bookie_a', 'opening_member:@admin');
    const added = await answer('Added bookie_a/', before);
    await expect(added.textContent()).resolves.toMatch(/opening contribution/);
    // "Then /fund strike."
    before = await count(/Struck\.|Not struck/);
    await send('/fund strike');
    const first = await answer(/Struck\.|Not struck/, before);
    await expect(first.textContent()).resolves.toMatch(/Struck\./);

    // "Press Deposit $100 in the Sandbox panel: the money arrives in bookie_a/alpha_a."
    await page.locator('#deposit-100').click();
    await expect
      .poll(() => page.locator('#sandbox-status').textContent(), { timeout: 20_000 })
      .toMatch(/\$100\.00 arrived in bookie_a/);
    // "/fund contribute member:@bettor amount:100 session:bookie_a, picking bookie_a/alpha_a from the list."
    before = await count('Recorded:');
    await sendPicking('/fund contribute member:@bettor amount:100 session:', 'session', 'bookie_a');
    const recorded = await answer('Recorded:', before);
    await expect(recorded.textContent()).resolves.toMatch(/contributed \$100\.00 into bookie_a\/alpha_a/);
    // "Press Advance 1 hour: the bookmaker's balance catches up with the deposit (it is refreshed on each session
    // heartbeat). Then /fund strike: Ben's $100 buys units at the strike's price."
    await page.locator('#advance-hour').click();
    await expect
      .poll(() => page.locator('#sandbox-status').textContent(), { timeout: 20_000 })
      .toMatch(/Advance 1 hour: done/);
    before = await count(/Struck\.|Not struck/);
    await send('/fund strike');
    const second = await answer(/Struck\.|Not struck/, before);
    await expect(second.textContent()).resolves.toMatch(/Struck\./);
    await expect(second.textContent()).resolves.not.toMatch(/Waiting for their deposit/);
    // Ben holds units: /fund me as Ben.
    await page.locator('#persona').selectOption('bettor');
    before = await count('Your share of the fund');
    await send('/fund me');
    const me = await answer('Your share of the fund', before);
    await expect(me.textContent()).resolves.toMatch(/100\.000000 units worth \$100\.00/);
    await expect(me.locator('discord-embed-field[field-title="Contributed"]').textContent()).resolves.toContain(
      '$100.00',
    );
    await expect(me.textContent()).resolves.not.toMatch(/has not been struck/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-fund-cycle.png') });
    expect(pageErrors).toEqual([]);
  });

  it("/settings show with the fund open names the fund's NAV as the bank, its accounts, and the fee", async () => {
    await page.locator('#persona').selectOption('admin');
    const before = await page.locator('discord-embed[embed-title="Desk settings"]').count();
    await send('/settings show');
    await expect
      .poll(() => page.locator('discord-embed[embed-title="Desk settings"]').count(), { timeout: 20_000 })
      .toBeGreaterThan(before);
    const shown = page.locator('discord-message', { has: page.locator('discord-embed[embed-title="Desk settings"]') });
    const staking = await shown.last().locator('discord-embed-field[field-title="Staking"]').textContent();
    expect(staking).toMatch(/bank: the fund's NAV, \$1,600\.00 at its strike of/);
    expect(staking).toMatch(/bets through other accounts are outside the fund/);
    expect(staking).not.toMatch(/not set/);
    const fund = await shown.last().locator('discord-embed-field[field-title="Fund"]').textContent();
    expect(fund).toMatch(/accounts: bookie_a\/alpha_a/);
    expect(fund).toMatch(/performance fee: off/);
    expect(pageErrors).toEqual([]);
  });

  it('/fund paid offers the withdrawn cash-out by member and amount, and marks it paid', async () => {
    // Ben asks for everything; the treasurer strikes; the desk withdraws it at its next fund check.
    await page.locator('#persona').selectOption('bettor');
    let before = await count('Fund cash-out');
    await send('/fund cashout all:true');
    await answer('Fund cash-out', before);
    await page.locator('#persona').selectOption('admin');
    before = await count(/Struck\.|Not struck/);
    await send('/fund strike');
    await expect((await answer(/Struck\.|Not struck/, before)).textContent()).resolves.toMatch(/Struck\./);
    const input = page.locator('#command-input');
    await input.click();
    await input.fill('');
    await type('/fund paid cashout:');
    // Until the withdrawal completes there is nothing to pay: the person types again.
    const offered = page
      .locator('#suggestions .suggestion', { has: page.locator('.suggestion-detail', { hasText: 'cashout' }) })
      .filter({ hasText: /Ben.*\$100\.00 · withdrawn/ });
    await expect
      .poll(
        async () => {
          if ((await offered.count()) > 0) return true;
          await type('x');
          await page.keyboard.press('Backspace');
          await page.waitForTimeout(2_000);
          return (await offered.count()) > 0;
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe(true);
    await expect(page.locator('#suggestions').textContent()).resolves.not.toMatch(/fo-[0-9a-f]/);
    await offered.first().click();
    before = await count('Marked paid');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect((await answer('Marked paid', before)).textContent()).resolves.toMatch(/\$100\.00/);
    expect(pageErrors).toEqual([]);
  }, 180_000);
});

describe('the Sandbox panel makes a watch alert happen', () => {
  it('"Move watched price" moves the latest /watch price past its target and the price alert appears', async () => {
    const state = (await (await fetch(`${app.playgroundUrl}/api/state`)).json()) as {
      channels: { id: string; name: string }[];
    };
    const bets = state.channels.find((c) => c.name === 'bets')!.id;
    // A selection bookie_a and a second book list, on an event starting two hours or more after the sandbox clock.
    const key = { 'x-api-key': 'sandbox-key-alpha' };
    const clockNow = Date.parse(
      ((await (await fetch(`${app.playgroundUrl}/api/sandbox`)).json()) as { now: string }).now,
    );
    const day = (n: number) => new Date(clockNow + n * 86_400_000).toISOString().slice(0, 10);
    const events = (await (
      await fetch(`${app.sandboxUrl}/odds/v1/events?since=${day(0)}&until=${day(3)}&limit=500`, { headers: key })
    ).json()) as {
      data: { event_id: string; start_time: string; books?: string[] }[];
    };
    let watched: { epk: string; market: string; slug: string; odds: number } | undefined;
    for (const e of events.data) {
      if (watched) break;
      const other = e.books?.find((b) => b !== 'bookie_a');
      if (!e.books?.includes('bookie_a') || !other || Date.parse(e.start_time) < clockNow + 2 * 3_600_000) continue;
      const cardAt = async (bookie: string) =>
        (await (
          await fetch(`${app.sandboxUrl}/v3/markets?epk=${encodeURIComponent(e.event_id)}&bookie=${bookie}`, {
            headers: key,
          })
        ).json()) as { markets: { market: string; selections: { slug?: string; odds: number | null }[] }[] };
      const [card, otherCard] = [await cardAt('bookie_a'), await cardAt(other)];
      // Steam needs a second book listing the same selection, and a price that stays above 1 when 20 % shorter.
      const listedElsewhere = (market: string, slug: string) =>
        otherCard.markets.some((m) => m.market === market && m.selections.some((s) => s.slug === slug));
      for (const m of card.markets) {
        const sel = m.selections.find(
          (s) => s.slug && typeof s.odds === 'number' && s.odds >= 1.6 && listedElsewhere(m.market, s.slug),
        );
        if (sel) {
          watched = { epk: e.event_id, market: m.market, slug: sel.slug!, odds: sel.odds! };
          break;
        }
      }
    }
    expect(watched, `no event of ${events.data.length} with a bookie_a card`).toBeDefined();
    const w = watched!;
    const target = Math.round(w.odds * 130) / 100;
    const sent = await fetch(`${app.playgroundUrl}/api/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        as: 'bettor',
        channelId: bets,
        name: 'watch',
        subcommand: 'price',
        options: [
          { name: 'event', value: w.epk },
          { name: 'market', value: w.market },
          { name: 'selection', value: w.slug },
          { name: 'target', value: target },
          { name: 'bookie', value: 'bookie_a' },
        ],
      }),
    });
    expect(sent.status).toBe(200);

    await page.goto(`${app.playgroundUrl}/?as=bettor`);
    await page.locator('body[data-ready="true"]').waitFor();
    const alerts = page.locator('discord-embed[embed-title^="Price alert"]');
    const before = await alerts.count();
    const panel = page.locator('#sandbox-panel');
    await panel.getByRole('button', { name: 'Move watched price' }).click();
    // Polled as text, so a refusal prints what the panel said.
    const status = () => panel.locator('#sandbox-status').textContent();
    await expect.poll(status, { timeout: 15_000 }).toMatch(/at bookie_a is \d+\.\d\d from the next scrape/);
    await expect.poll(() => alerts.count(), { timeout: 30_000 }).toBe(before + 1);
    await expect(alerts.last().getAttribute('embed-title')).resolves.toContain('bookie_a');

    // "Steam on watched" moves the same selection at the watch's book; the panel says where.
    await panel.getByRole('button', { name: 'Steam on watched' }).click();
    await expect.poll(status, { timeout: 15_000 }).toMatch(/20 % shorter at .*bookie_a/);
    expect(pageErrors).toEqual([]);
  });
});
