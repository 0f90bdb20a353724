import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../src/bot/main.js';
import { until } from '../../support/wait.js';

// The whole offline run (npm start's own wiring: the embedded sandbox, the local Discord, the bot on the sandbox
// clock, the page's API). The bot's own look for settlements is set an hour apart, so within this test only the
// panel's nudge can bring a settlement notice: the notice must be in #results within a few seconds of the press,
// every time, not at the watcher's next look (issue 45: 15-60 s after Advance 1 day).
const KEY = { 'x-api-key': 'sandbox-key-alpha' };
/** A few seconds, with room for a loaded machine: the watcher's own look is an hour away. */
const POST_WITHIN_MS = 8_000;
/** The bet's own steps (choices, slip, receipt) on a machine busy with other test files. */
const STEP_MS = 20_000;
/** A settlement notice's title: "Won · …", "Lost · …" (betting/views/notice.ts). */
const SETTLED = /^(Won|Lost|Void|Cashed out|Half won|Half lost|Refunded)\b.* · /;

type Message = { id: string; embeds?: Array<{ title?: string }>; components?: Array<{ components: Control[] }> };
type Control = { label?: string; custom_id?: string };

let app: RunningApp;
let dir: string;
let bets: string;
let results: string;

async function call<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    `${app.playgroundUrl}${path}`,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  return (await res.json()) as T;
}

const messages = async (channel: string) =>
  (await call<{ messages: Message[] }>(`/api/messages?channel=${channel}&as=bettor`)).messages;

async function choices(options: Array<{ name: string; value: string }>, focused: string) {
  const body = { as: 'bettor', channelId: bets, name: 'bet', options, focused };
  return (await call<{ choices: Array<{ name: string; value: string }> }>('/api/autocomplete', body)).choices;
}

/** The NBA games bookie_a lists that are still to start, soonest first, as the gateway lists them. */
async function upcomingGames(): Promise<Array<{ event_id: string; start_time: string }>> {
  const now = Date.parse((await call<{ now: string }>('/api/sandbox')).now);
  const q = new URLSearchParams({ league: 'nba', status: 'prematch', limit: '50' });
  const page = (await (await fetch(`${app.sandboxUrl}/odds/v1/events?${q}`, { headers: KEY })).json()) as {
    data: Array<{ event_id: string; start_time: string; books?: string[] }>;
  };
  return page.data
    .filter((e) => (e.books ?? []).includes('bookie_a') && Date.parse(e.start_time) > now)
    .sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time));
}

/** Ben's /bet on a game at bookie_a, as the page would send it, Confirmed; resolves once the receipt is in. */
async function betOn(epk: string): Promise<void> {
  const opts = [
    { name: 'event', value: epk },
    { name: 'bookie', value: 'bookie_a' },
  ];
  const market = await until(
    'the market choices',
    async () => {
      const c = (await choices([...opts, { name: 'market', value: '' }], 'market'))[0];
      return c && !/not loaded|no markets/.test(c.name) ? c : undefined;
    },
    { timeoutMs: STEP_MS },
  );
  opts.push({ name: 'market', value: market.value });
  const selection = (await choices([...opts, { name: 'selection', value: '' }], 'selection'))[0];
  if (!selection) throw new Error(`no selection to bet on in ${market.name}`);
  const before = new Set((await messages(bets)).map((m) => m.id));
  await call('/api/command', {
    as: 'bettor',
    channelId: bets,
    name: 'bet',
    options: [...opts, { name: 'selection', value: selection.value }, { name: 'stake', value: 5 }],
  });
  const slip = await until(
    'the slip',
    async () => (await messages(bets)).find((m) => !before.has(m.id) && m.embeds?.[0]?.title === 'Bet slip'),
    { timeoutMs: STEP_MS },
  );
  const confirm = slip.components?.flatMap((r) => r.components).find((c) => c.label?.startsWith('Confirm'))?.custom_id;
  if (!confirm) throw new Error('the slip has no Confirm button');
  await call('/api/click', { as: 'bettor', channelId: bets, messageId: slip.id, customId: confirm });
  await until(
    'the receipt',
    async () => (await messages(bets)).some((m) => m.id === slip.id && m.embeds?.[0]?.title?.startsWith('Bet placed')),
    { timeoutMs: STEP_MS },
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'settlement-post-'));
  app = await startApp({
    env: {
      PLAYGROUND_PORT: '0',
      LOG_LEVEL: 'error',
      STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
      SETTLEMENT_INTERVAL_SECONDS: '3600',
    },
    print: () => {},
  });
  const state = await call<{ channels: Array<{ id: string; name: string }> }>('/api/state');
  bets = state.channels.find((c) => c.name === 'bets')!.id;
  results = state.channels.find((c) => c.name === 'results')!.id;
}, 60_000);
afterAll(async () => {
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the settlement notice after the Sandbox panel moves the clock past a game', () => {
  // Twice: the second press once lagged by up to the watcher's interval.
  for (const round of [1, 2]) {
    it(`is in #results within a few seconds of the press (round ${round})`, async () => {
      const game = (await upcomingGames())[0];
      if (!game) throw new Error('the sandbox lists no NBA game still to start at bookie_a');
      await betOn(game.event_id);
      const posted = (await messages(results)).length;
      const now = Date.parse((await call<{ now: string }>('/api/sandbox')).now);
      // Past the game's end (a game is over within 4 hours of its start).
      await call('/api/sandbox/advance', { ms: Date.parse(game.start_time) + 6 * 3_600_000 - now });
      const notice = await until(
        'the settlement notice',
        async () => (await messages(results)).slice(posted).find((m) => SETTLED.test(m.embeds?.[0]?.title ?? '')),
        { timeoutMs: POST_WITHIN_MS },
      );
      expect(notice.embeds?.[0]?.title).toMatch(SETTLED);
    }, 90_000);
  }

  it('is in #results within a few seconds of Settle started events on a game in play', async () => {
    const game = (await upcomingGames())[0];
    if (!game) throw new Error('the sandbox lists no NBA game still to start at bookie_a');
    await betOn(game.event_id);
    const now = Date.parse((await call<{ now: string }>('/api/sandbox')).now);
    // Ten minutes into the game: started, not over, so only the settle finishes it.
    await call('/api/sandbox/advance', { ms: Date.parse(game.start_time) + 600_000 - now });
    const posted = (await messages(results)).length;
    await call('/api/sandbox/settle', {});
    const notice = await until(
      'the settlement notice',
      async () => (await messages(results)).slice(posted).find((m) => SETTLED.test(m.embeds?.[0]?.title ?? '')),
      { timeoutMs: POST_WITHIN_MS },
    );
    expect(notice.embeds?.[0]?.title).toMatch(SETTLED);
  }, 90_000);
});
