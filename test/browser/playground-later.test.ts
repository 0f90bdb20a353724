import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../src/local-discord/playground/public/timestamps.js';
import {
  ARTIFACTS,
  app,
  betWhereABookTakesIt,
  choicesAfterTyping,
  choicesFor,
  page,
  pageErrors,
  setApp,
  startPlayground,
  type,
  usePlayground,
} from './playground-page.js';

usePlayground('playground-later');

describe('the offline playground in Chromium: racing, promos, the sandbox clock, a restart and the fund', () => {
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
    await expect(shown.locator('discord-embed-field[field-title="Staking"]').textContent()).resolves.toContain(
      'bank: $1,000.00 (set with /settings bank)',
    );
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
    setApp(await startPlayground(port, 'bot-second-run.sqlite'));

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

  // After the restart: the new run's bot has its own autocomplete card reads (4 a member a minute). Right after the
  // README's /bet they could be used up, and then every choice says "type again in a minute" for up to a minute.
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
    setApp(await startPlayground(port, 'bot-fund-cycle.sqlite'));
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
