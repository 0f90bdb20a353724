import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../src/local-discord/playground/public/timestamps.js';
import {
  ARTIFACTS,
  app,
  betWhereABookTakesIt,
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
