import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  app,
  betWhereABookTakesIt,
  browser,
  choicesAfterTyping,
  choicesFor,
  page,
  pageErrors,
  pickUpcomingEvent,
  printed,
  sandboxBets,
  type,
  usePlayground,
} from './playground-page.js';

/** The event the Bet at best test placed a bet on, for the /exposure test after it. */
let exposureEvent: string | undefined;

usePlayground('playground');

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
    const listing = page.locator('discord-embed', { hasText: /\d events? .*times in |No events/ }).last();
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
    const listings = page.locator('discord-embed', { hasText: /\d events? .*times in |No events/ });
    const before = await listings.count();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (n) =>
        Array.from(document.querySelectorAll('discord-embed')).filter((e) =>
          /\d events? .*times in |No events/.test(e.textContent ?? ''),
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

  it('places a bet from /markets to the receipt by typing and clicking, seen live by a second member', async () => {
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

    // The settlement post and /stats over settled bets: test/browser/member-day.test.ts walks them.
    await receipt.scrollIntoViewIfNeeded();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-bet.png') });
    await watcher.close();
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
});
