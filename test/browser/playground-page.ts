// The offline playground driven in headless Chromium: the playground each browser test file starts (npm start with
// no token), its page, and what a person does on it. Two files run at once (vitest.browser.config.ts), each with its
// own playground and Chromium.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type RunningApp, startApp } from '../../src/bot/main.js';
import { launchChromium } from './chromium.js';

export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

export let app: RunningApp;
export let browser: Browser;
export let page: Page;
let dir: string;
export const printed: string[] = [];
export const pageErrors: string[] = [];

/** The playground from here on (after a test stopped it and ran npm start again). */
export function setApp(next: RunningApp): void {
  app = next;
}

/** What `npm start` sees on a machine with no Discord token and no gateway URL (`port`: the page's). */
export function startPlayground(port = '0', store = 'bot.sqlite'): Promise<RunningApp> {
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

/** One playground and one Chromium page for the file's tests, in order; a failed test leaves a screenshot. */
export function usePlayground(name: string): void {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'playground-browser-'));
    app = await startPlayground();
    browser = await launchChromium();
    // A member who reads in UTC, the server's zone until an admin sets one: the bot's menus and the page's times agree.
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' });
    page.on('pageerror', (err) => pageErrors.push(err.message));
  });

  // A failed run leaves the page as it was, to see what the person would have seen.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !page) return;
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}-failure.png`), fullPage: true }).catch(() => {});
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

/** Types into the message box key by key, as a person does. */
export async function type(text: string) {
  await page.locator('#command-input').pressSequentially(text, { delay: 15 });
}

/** Waits for the bot's choices for one option (their detail line names the option). */
export async function choicesFor(option: string) {
  await page
    .locator('#suggestions .suggestion', { has: page.locator('.suggestion-detail', { hasText: option }) })
    .first()
    .waitFor();
}

/** How many bets the embedded sandbox holds (its control route). */
export async function sandboxBets(): Promise<number> {
  const state = (await (await fetch(`${app.sandboxUrl}/_sandbox/state`)).json()) as { bets: unknown[] };
  return state.bets.length;
}

/**
 * The start an event choice names in the server's zone (UTC here), said from the bot's today (the sandbox's):
 * "… · today 19:00 UTC", "… · tomorrow 00:30 UTC" or "… · Mon 30 Nov 19:00 UTC".
 */
function startOfChoice(label: string, now: number): number | undefined {
  const m = / · (today|tomorrow|yesterday|\w{3} (\d{1,2}) (\w{3})) (\d\d:\d\d) UTC$/.exec(label.trim());
  if (!m) return undefined;
  const shift = { today: 0, tomorrow: 1, yesterday: -1 }[m[1] as string];
  if (shift !== undefined)
    return Date.parse(`${new Date(now + shift * 86_400_000).toISOString().slice(0, 10)}T${m[4]}:00Z`);
  // A named day is within the week ahead: in late December, "Mon 4 Jan" is next year's.
  const year = new Date(now).getUTCFullYear();
  const at = (y: number) =>
    Date.parse(`${new Date(`${m[2]} ${m[3]} ${y} 12:00 UTC`).toISOString().slice(0, 10)}T${m[4]}:00Z`);
  return at(year) < now - 2 * 86_400_000 ? at(year + 1) : at(year);
}

/**
 * With the event choices open, picks the `skip`-th that starts over an hour after the sandbox clock.
 */
export async function pickUpcomingEvent(skip: number) {
  // The first choices may be in play already; a person picks one that starts over an hour after the
  // sandbox clock the panel shows. (The bot picks its choices by its own clock, so this runs before the
  // test that moves the sandbox clock on.)
  await page.waitForFunction(() => document.getElementById('sandbox-clock')?.getAttribute('datetime'));
  const sandboxNow = Date.parse((await page.locator('#sandbox-clock').getAttribute('datetime')) ?? '');
  const labels = await page.locator('#suggestions .suggestion .suggestion-label').allTextContents();
  const laterOnes = labels.flatMap((label, i) => {
    const start = startOfChoice(label, sandboxNow);
    return start !== undefined && start > sandboxNow + 3_600_000 ? [i] : [];
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
export async function choicesAfterTyping(option: string, retype: string, giveUpAfter?: number): Promise<boolean> {
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
export async function typeBet(stake: number, skip = 0, market?: string): Promise<boolean> {
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
    // A person after a given market picks it when the event has it; otherwise the first.
    const wanted = page.locator('#suggestions .suggestion .suggestion-label', { hasText: market ?? '' });
    if (option === 'market' && market && (await wanted.count()) > 0) await wanted.first().click();
    else await page.keyboard.press('Enter');
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
 * matches every message the bet is expected to produce (a slip, a proposal); `market`, a market to pick when offered.
 */
export async function betWhereABookTakesIt(
  stake: number,
  answered: Locator,
  market?: string,
  /** Whether the slip that came is the one wanted (e.g. it has a fair price); another is left to expire. */
  accept?: (slip: Locator) => Promise<boolean>,
): Promise<void> {
  const refusals = page.locator('discord-message', { hasText: 'No book can take this bet' });
  for (let skip = 0; skip < 6; skip++) {
    const answeredBefore = await answered.count();
    const refusedBefore = await refusals.count();
    await page.locator('#command-input').fill('');
    if (!(await typeBet(stake, skip, market))) continue;
    await expect
      .poll(async () => (await answered.count()) > answeredBefore || (await refusals.count()) > refusedBefore, {
        timeout: 20_000,
      })
      .toBe(true);
    if ((await answered.count()) > answeredBefore && (!accept || (await accept(answered.last())))) return;
  }
  throw new Error('none of the first six upcoming events had a book that could take the bet as wanted');
}

/** Whether a slip suggests a stake: it has a fair price (an event whose books list only part of a market has none). */
export async function suggestsAStake(slip: Locator): Promise<boolean> {
  return (await slip.locator('discord-embed-field[field-title="Suggested stake"]').count()) > 0;
}

/** Saves a screenshot of the page as it is now into test-artifacts/ (to be looked at, as a person would). */
export async function screenshot(name: string, target?: Locator): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  if (target) await target.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/** Types a line as a person does (choices closed) and sends it. */
export async function send(line: string): Promise<void> {
  const input = page.locator('#command-input');
  await input.click();
  await input.fill('');
  await type(line);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
}

/** Types the line up to an autocompleted option and the text that narrows it, picks the first choice, goes on. */
export async function sendPicking(before: string, option: string, narrow: string, after = ''): Promise<void> {
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
export async function answer(text: string | RegExp, before: number, timeout = 30_000): Promise<Locator> {
  const all = page.locator('discord-message', { hasText: text });
  await expect.poll(() => all.count(), { timeout }).toBeGreaterThan(before);
  return all.last();
}

/** How many messages on the page hold `text`. */
export const count = (text: string | RegExp): Promise<number> =>
  page.locator('discord-message', { hasText: text }).count();

/**
 * A message's text as a member reads it, its lines as drawn, without a footer that starts "For support:" (the one
 * place a record's id may stand).
 */
export async function readText(message: Locator): Promise<string> {
  return message.evaluate((node) => {
    // biome-ignore lint/performance/useDomNodeTextContent: the lines as the page draws them (a <br> is a line)
    let text = (node as HTMLElement).innerText;
    for (const footer of Array.from(node.querySelectorAll('discord-embed-footer'))) {
      // biome-ignore lint/performance/useDomNodeTextContent: as drawn, to take it out of the text above
      const said = (footer as HTMLElement).innerText;
      if (/^\s*For support:/.test(said)) text = text.replace(said, '');
    }
    return text;
  });
}

/**
 * What no member should have to read (issue 45): a record's UUID, a JSON fragment, "bet(s)", or a code in snake_case (the
 * sandbox's books and accounts, bookie_a/alpha_a, are their names, and an option name before its colon is typed).
 */
export function jargonIn(text: string): string[] {
  const uuid = text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? [];
  const json = text.includes('{"') ? ['{"'] : [];
  // "bet(s)": a count a person would say in words.
  const plurals = text.match(/\b\w+\(s\)/g) ?? [];
  // An option named where a command is shown ("/settings fund fee_percent:20") is what a person types: it stays.
  const codes = (text.match(/\b[a-z]+(?:_[a-z]+)+\b(?!:)/g) ?? []).filter((w) => !/^(bookie|alpha)_[a-z]$/.test(w));
  return [...uuid, ...json, ...plurals, ...codes];
}

/** The value of an embed field of a message, trimmed. */
export async function fieldOf(message: Locator, title: string): Promise<string> {
  return ((await message.locator(`discord-embed-field[field-title="${title}"]`).first().textContent()) ?? '').trim();
}

/** Presses a button of the Sandbox panel and waits for the panel to say `said`. */
export async function pressPanel(button: string, said: RegExp): Promise<void> {
  const panel = page.locator('#sandbox-panel');
  await panel.getByRole('button', { name: button }).click();
  // Polled as text, so a refusal prints what the panel said.
  await expect.poll(() => panel.locator('#sandbox-status').textContent(), { timeout: 20_000 }).toMatch(said);
}
