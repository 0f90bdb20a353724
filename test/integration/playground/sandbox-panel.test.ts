import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../src/bot/main.js';
import { type LocalDiscord, startLocalDiscord } from '../../../src/local-discord/index.js';
import type { WatchedSelection } from '../../../src/local-discord/playground/sandbox-control.js';
import {
  type Playground,
  type PlaygroundOptions,
  startPlayground,
} from '../../../src/local-discord/playground/server.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import { finishingOrder, localDay, raceStartMs, TRACKS } from '../../../src/sandbox/world/racing.js';
import type { SportEvent } from '../../../src/sandbox/world/sports.js';
import { pickWatched } from '../../support/watch-flows.js';
import { SseReader } from './sse.js';

const HOUR_MS = 3_600_000;
const KEY = { 'x-api-key': 'sandbox-key-alpha', 'content-type': 'application/json' };

type Selection = { odds: number; market_ref: string };

/** bookie_a's first head-to-head selection of the event, if its card has one now. */
async function headToHead(base: string, ev: SportEvent): Promise<Selection | undefined> {
  const q = new URLSearchParams({ epk: ev.epk, bookie: 'bookie_a', market: 'head_to_head' });
  const card = (await (await fetch(`${base}/v3/markets?${q}`, { headers: KEY })).json()) as {
    markets?: Array<{ selections: Selection[] }>;
  };
  return card.markets?.[0]?.selections[0];
}

/**
 * The first of the events whose bookie_a card has head-to-head prices now (the world's day decides which do), with
 * that selection.
 */
async function pricedEvent(
  base: string,
  events: SportEvent[],
): Promise<{ ev: SportEvent; row: Selection } | undefined> {
  for (const ev of events) {
    const row = await headToHead(base, ev);
    if (row) return { ev, row };
  }
  return undefined;
}

/** Places a 5-unit bet on the selection with bookie_a through the gateway API; returns its bet id. */
async function placeBet(base: string, ev: SportEvent, row: Selection): Promise<string> {
  const placed = await viaJob<{ bet_result?: { bet_id?: string } }>(base, '/v3/place_bet', {
    session_id: '5e55a1fa-0000-4000-8000-00000000000a',
    sport: ev.league,
    epk: ev.epk,
    market_ref: row.market_ref,
    stake: 5,
    target_odds: row.odds * 0.9,
  });
  const id = placed.bet_result?.bet_id;
  if (!id) throw new Error(`the bet was not placed: ${JSON.stringify(placed)}`);
  return id;
}

/** A gateway job's result once it left pending (the sandbox's /api/bet_status). */
async function jobResult<T>(base: string, correlationId: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const st = await fetch(`${base}/api/bet_status`, {
      method: 'POST',
      headers: KEY,
      body: JSON.stringify({ correlation_ids: [correlationId] }),
    });
    const entry = ((await st.json()) as { statuses: Array<{ status: string; result?: T }> }).statuses[0];
    if (entry?.status === 'completed') return entry.result as T;
    if (Date.now() > deadline) throw new Error('the job stayed pending');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A gateway call that answers with a job, and that job's result. */
async function viaJob<T>(base: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: KEY, body: JSON.stringify(body) });
  return jobResult<T>(base, ((await res.json()) as { correlation_id: string }).correlation_id);
}

async function call(url: string, body?: unknown) {
  const res = await fetch(
    url,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the Sandbox panel API over the embedded sandbox', () => {
  let sandbox: RunningSandbox;
  let ld: LocalDiscord;
  let pg: Playground;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, control: true, seed: 1 });
    ld = await startLocalDiscord({ port: 0 });
    pg = await startPlayground({ ld, port: 0, sandboxUrl: sandbox.url });
  });
  afterAll(async () => {
    await pg?.close();
    await ld?.close();
    await sandbox?.close();
  });

  it('tells the page the panel is there', async () => {
    const state = await call(`${pg.url}/api/state`);
    expect(state.body.sandbox).toBe(true);
    // Its address, so the /_sandbox routes no button covers (docs/fund.md's withdrawal modes) can be reached.
    expect(state.body.sandboxUrl).toBe(sandbox.url);
  });

  it('shows the sandbox clock, running at real speed', async () => {
    const { status, body } = await call(`${pg.url}/api/sandbox`);
    expect(status).toBe(200);
    expect(body.speed).toBe(1);
    expect(Math.abs(Date.parse(String(body.now)) - sandbox.sb.clock.now().getTime())).toBeLessThan(5_000);
  });

  it('advances the sandbox clock by an hour and by a day', async () => {
    const before = sandbox.sb.clock.now().getTime();
    const hour = await call(`${pg.url}/api/sandbox/advance`, { ms: HOUR_MS });
    expect(hour.status).toBe(200);
    expect(Date.parse(String(hour.body.now)) - before).toBeGreaterThanOrEqual(HOUR_MS);
    const day = await call(`${pg.url}/api/sandbox/advance`, { ms: 24 * HOUR_MS });
    expect(day.status).toBe(200);
    expect(Date.parse(String(day.body.now)) - before).toBeGreaterThanOrEqual(25 * HOUR_MS);
    expect(sandbox.sb.clock.now().getTime() - before).toBeGreaterThanOrEqual(25 * HOUR_MS);
  });

  it('dates posts by the moved clock, on which the offline bot reads its channels back', async () => {
    const moved = Date.parse(String((await call(`${pg.url}/api/sandbox/advance`, { ms: HOUR_MS })).body.now));
    // A day and more ahead of the machine's clock by now (the test above moved it 25 hours).
    expect(moved - Date.now()).toBeGreaterThan(24 * HOUR_MS);
    const posted = ld.postMessage({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      content: 'after the advance',
    });
    const dated = Date.parse(posted.timestamp);
    expect(dated).toBeGreaterThanOrEqual(moved);
    expect(dated - moved).toBeLessThan(5_000);
    // Its id carries the same time, as a snowflake does (discord.js and a read-back `after` go by it).
    expect(Number((BigInt(posted.id) >> 22n) + 1_420_070_400_000n)).toBe(dated);
  });

  it('tells every open page the new clock when one page moves it, so times everywhere follow', async () => {
    const other = new SseReader(`${pg.url}/api/events?as=viewer`);
    try {
      await other.waitFor((e) => e.event === 'ready');
      const moved = await call(`${pg.url}/api/sandbox/advance`, { ms: HOUR_MS });
      const told = await other.waitFor((e) => e.event === 'clock');
      expect(told.data).toEqual({ now: moved.body.now });
    } finally {
      await other.close();
    }
  });

  it('refuses a step that is missing, backwards or huge, saying what to send', async () => {
    const before = sandbox.sb.clock.now().getTime();
    const missing = await call(`${pg.url}/api/sandbox/advance`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/"ms" is required.*milliseconds/);
    const backwards = await call(`${pg.url}/api/sandbox/advance`, { ms: -5 });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toMatch(/only moves forward/);
    const huge = await call(`${pg.url}/api/sandbox/advance`, { ms: 400 * 24 * HOUR_MS });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatch(/at most .*31 days/);
    // Nothing moved the clock beyond real time passing.
    expect(sandbox.sb.clock.now().getTime() - before).toBeLessThan(HOUR_MS);
  });

  it('settles started events: a bet on one that has begun is settled, and nothing is left after', async () => {
    const world = sandbox.sb.world as SimWorld;
    const now = world.nowMs();
    const priced = await pricedEvent(
      sandbox.url,
      world
        .allEvents()
        .filter(
          (e) =>
            !e.isOutright &&
            e.startMs > now + HOUR_MS &&
            world.status(e) === 'prematch' &&
            world.link(e, 'bookie_a').linked,
        ),
    );
    if (!priced) throw new Error('the seeded world lists no upcoming bookie_a event with head-to-head prices');
    const { ev } = priced;
    const betId = await placeBet(sandbox.url, ev, priced.row);

    // The page moves the clock past the start, then settles what has started.
    const moved = await call(`${pg.url}/api/sandbox/advance`, { ms: ev.startMs - world.nowMs() + 60_000 });
    expect(moved.status).toBe(200);
    const first = await call(`${pg.url}/api/sandbox/settle`, {});
    expect(first.status).toBe(200);
    expect(first.body.settled).toBeGreaterThanOrEqual(1);
    expect(typeof first.body.now).toBe('string');
    const bet = sandbox.sb.ledger.bets().find((b) => b.bet.bet_id === betId);
    expect(['won', 'lost', 'void']).toContain(bet?.status);

    const again = await call(`${pg.url}/api/sandbox/settle`, {});
    expect(again.status).toBe(200);
    expect(again.body.settled).toBe(0);
  });

  it('deposits $100 into the first active session, listed as a deposit at the gateway', async () => {
    const res = await call(`${pg.url}/api/sandbox/deposit`, {});
    expect(res.status).toBe(200);
    // The panel names the book and account, not the session's UUID.
    expect(res.body).toMatchObject({ bookie: 'bookie_a', username: 'alpha_a' });
    const sessionId = String(res.body.session_id);
    const { transactions } = await viaJob<{ transactions: Array<{ id: string; type: string; stake: number }> }>(
      sandbox.url,
      '/v3/transactions',
      { session_id: sessionId, days_back: 1, limit: 50 },
    );
    expect(transactions.find((t) => t.id === res.body.deposit_id)).toMatchObject({ type: 'deposit', stake: 100 });
  });

  it('leaves the next withdrawals pending, completes them, then has them refused, so a cash-out can wait or fail', async () => {
    const SESSION = '5e55a1fa-0000-4000-8000-00000000000a';
    const withdraw = () =>
      viaJob<{ success: boolean; status: string; withdrawal_id?: string }>(sandbox.url, '/v3/withdraw_balance', {
        session_id: SESSION,
        amount: 5,
      });
    expect((await call(`${pg.url}/api/sandbox`)).body.withdrawals).toBe('completed');
    const pending = await call(`${pg.url}/api/sandbox/withdrawals/mode`, {});
    expect(pending.body).toMatchObject({ withdrawals: 'pending' });
    expect(String(pending.body.said)).toMatch(/^The bookmakers now hold each new withdrawal pending/);
    const held = await withdraw();
    expect(held).toMatchObject({ success: true, status: 'pending' });
    const completed = await call(`${pg.url}/api/sandbox/withdrawals/complete`, {});
    expect(completed.body).toMatchObject({ completed: 1 });
    expect((await call(`${pg.url}/api/sandbox/withdrawals/complete`, {})).body).toMatchObject({ completed: 0 });
    expect((await call(`${pg.url}/api/sandbox/withdrawals/mode`, {})).body).toMatchObject({ withdrawals: 'failed' });
    expect(await withdraw()).toMatchObject({ success: false, status: 'failed' });
    expect((await call(`${pg.url}/api/sandbox/withdrawals/mode`, {})).body).toMatchObject({ withdrawals: 'completed' });
    expect(await withdraw()).toMatchObject({ success: true, status: 'completed' });
  });

  it('runs the next race a multi is on, says how it finished, and settles the multi by it', async () => {
    const world = sandbox.sb.world as SimWorld;
    const none = await call(`${pg.url}/api/sandbox/race`, {});
    expect(none.status).toBe(409);
    expect(none.body.error).toBe('No race holds an open bet: place one with /bet-racing or /multi first.');
    const soon = world.nowMs() + HOUR_MS;
    const race = TRACKS.filter((t) => t.race_type === 'R')
      .flatMap((def) => [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [def, n] as const))
      .map(([def, n]) => {
        const date = localDay(def, soon + 86_400_000);
        return raceStartMs(def, n, date) > soon ? world.race(def.track, n, 'R', date) : undefined;
      })
      .find((r) => r !== undefined && r.runners.length >= 5);
    if (!race) throw new Error('no thoroughbred race tomorrow');
    const order = finishingOrder(world.seed, race).map((n) => race.runners.find((r) => r.number === n)?.name ?? '');
    // The first two home, each to finish in the top 4: a multi the result makes a winner.
    const placed = await viaJob<{ success?: boolean; bet_id?: string }>(sandbox.url, '/v3/place_bet', {
      session_id: '5e55a1fa-0000-4000-8000-00000000000a',
      category: 'racing',
      track: race.track,
      race_num: race.race_num,
      race_type: '(R)',
      date: race.date,
      is_same_event_multi: true,
      legs: [
        { runner: order[1], market: 'top4' },
        { runner: order[0], market: 'top4' },
      ],
      stake: 2,
      target_odds: 1.01,
    });
    expect(placed.success).toBe(true);
    const ran = await call(`${pg.url}/api/sandbox/race`, {});
    expect(ran.status).toBe(200);
    expect(ran.body.said).toBe(
      `${race.track} R${race.race_num} (R, ${race.date}) has run: 1st ${order[0]}, 2nd ${order[1]}, 3rd ${order[2]}, 4th ${order[3]}. 1 bet settled: the notices follow in the results channel.`,
    );
    expect(sandbox.sb.ledger.bets().find((b) => b.bet.bet_id === placed.bet_id)?.status).toBe('won');
  });

  it('answers an unknown sandbox route with the ones that exist', async () => {
    const res = await call(`${pg.url}/api/sandbox/rewind`, { ms: 1 });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/POST \/api\/sandbox\/advance/);
  });
});

describe('"Settle started events" and the bot', () => {
  let sandbox: RunningSandbox;
  let ld: LocalDiscord;
  let pg: Playground;
  const told: number[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, control: true, seed: 1 });
    ld = await startLocalDiscord({ port: 0 });
    pg = await startPlayground({
      ld,
      port: 0,
      sandboxUrl: sandbox.url,
      onSandboxSettled: async () => {
        told.push(Date.now());
      },
    });
  });
  afterAll(async () => {
    await pg?.close();
    await ld?.close();
    await sandbox?.close();
  });

  it('tells the bot to read the settlements before the panel answers, so they show at once', async () => {
    const res = await call(`${pg.url}/api/sandbox/settle`, {});
    expect(res.status).toBe(200);
    expect(told).toHaveLength(1);
  });
});

describe('"Move watched price" and "Steam on watched" from the latest watch', () => {
  let sandbox: RunningSandbox;
  let ld: LocalDiscord;
  let pg: Playground;
  let latest: WatchedSelection | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, control: true, seed: 1 });
    ld = await startLocalDiscord({ port: 0 });
    pg = await startPlayground({ ld, port: 0, sandboxUrl: sandbox.url, latestWatch: async () => latest });
  });
  afterAll(async () => {
    await pg?.close();
    await ld?.close();
    await sandbox?.close();
  });

  it('names the selection as members read it, never its raw key', async () => {
    const w = pickWatched({ sandbox });
    latest = {
      epk: w.epk,
      market: w.market,
      selection: w.slug,
      selectionLabel: 'The Named Side',
      bookie: 'bookie_a',
      books: ['bookie_a'],
      rule: { kind: 'value' },
    };
    const moved = await call(`${pg.url}/api/sandbox/price`, {});
    expect(moved.status).toBe(200);
    expect(String(moved.body.moved)).toMatch(/^The Named Side at bookie_a is \d+\.\d\d from the next scrape$/);
  });

  it('says what to add when no watch names one selection of an event still to start', async () => {
    latest = undefined;
    const res = await call(`${pg.url}/api/sandbox/price`, {});
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(
      'No watch on one selection of an event still to start: add one with /watch price, value or moves naming a selection; the button moves it.',
    );
  });
});

/** A sandbox, a local Discord and the playground over them for one describe, with the bot's hooks it is given. */
function panelOver(hooks: Partial<PlaygroundOptions>) {
  const held = {} as { sandbox: RunningSandbox; ld: LocalDiscord; pg: Playground };
  beforeAll(async () => {
    held.sandbox = await startSandbox({ port: 0, quiet: true, control: true, seed: 1 });
    held.ld = await startLocalDiscord({ port: 0 });
    held.pg = await startPlayground({ ld: held.ld, port: 0, sandboxUrl: held.sandbox.url, ...hooks });
  });
  afterAll(async () => {
    await held.pg?.close();
    await held.ld?.close();
    await held.sandbox?.close();
  });
  return held;
}

describe('"Deposit $100" and the fund', () => {
  const fundAccounts: string[] = [];
  const held = panelOver({ fundHolds: async (a) => fundAccounts.includes(`${a.bookie}/${a.username}`) });

  it("says whether the money arrived in one of the fund's accounts, so the page names the treasurer's next step", async () => {
    const deposit = async () => (await call(`${held.pg.url}/api/sandbox/deposit`, {})).body;
    expect(await deposit()).toMatchObject({ bookie: 'bookie_a', inFund: false });
    fundAccounts.push('bookie_a/alpha_a');
    expect(await deposit()).toMatchObject({ bookie: 'bookie_a', inFund: true });
  });
});

describe('the Sandbox panel without the embedded sandbox', () => {
  let ld: LocalDiscord;
  let pg: Playground;
  beforeAll(async () => {
    ld = await startLocalDiscord({ port: 0 });
    pg = await startPlayground({ ld, port: 0 });
  });
  afterAll(async () => {
    await pg?.close();
    await ld?.close();
  });

  it('is hidden and its routes say why', async () => {
    expect((await call(`${pg.url}/api/state`)).body.sandbox).toBe(false);
    expect((await call(`${pg.url}/api/state`)).body.sandboxUrl).toBeUndefined();
    const res = await call(`${pg.url}/api/sandbox/advance`, { ms: HOUR_MS });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/only when npm start runs the embedded sandbox.*GATEWAY_BASE_URL/);
  });
});

describe('npm start offline and the sandbox control routes', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c();
    cleanups.length = 0;
  });
  const store = () => {
    const dir = mkdtempSync(join(tmpdir(), 'playground-panel-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return `sqlite://${join(dir, 'bot.sqlite')}`;
  };
  const start = async (env: Record<string, string>) => {
    const app: RunningApp = await startApp({
      env: { PLAYGROUND_PORT: '0', LOG_LEVEL: 'error', STORE_URL: store(), ...env },
      print: () => {},
    });
    cleanups.push(() => app.stop());
    return app;
  };

  it('turns them on for the embedded sandbox, and the page moves its clock', async () => {
    const app = await start({});
    expect((await call(`${app.sandboxUrl}/_sandbox/state`)).status).toBe(200);
    expect((await call(`${app.playgroundUrl}/api/state`)).body.sandbox).toBe(true);
    const before = Date.parse(String((await call(`${app.playgroundUrl}/api/sandbox`)).body.now));
    const after = await call(`${app.playgroundUrl}/api/sandbox/advance`, { ms: 24 * HOUR_MS });
    expect(Date.parse(String(after.body.now)) - before).toBeGreaterThanOrEqual(24 * HOUR_MS);
  });

  it('runs the bot on the sandbox clock and sends settlement notices to #results', async () => {
    const app = await start({});
    const state = (await call(`${app.playgroundUrl}/api/state`)).body as {
      channels: Array<{ id: string; name: string }>;
    };
    const bets = state.channels.find((c) => c.name === 'bets')!.id;
    const results = state.channels.find((c) => c.name === 'results')!.id;
    const moved = await call(`${app.playgroundUrl}/api/sandbox/advance`, { ms: 3 * 24 * HOUR_MS });
    const sandboxDay = String(moved.body.now).slice(0, 10);
    const ask = async (as: string, name: string, options: unknown[], subcommand?: string) => {
      await call(`${app.playgroundUrl}/api/command`, {
        as,
        channelId: bets,
        name,
        options,
        ...(subcommand ? { subcommand } : {}),
      });
    };
    const replyWith = async (as: string, pattern: RegExp) => {
      for (let i = 0; i < 200; i++) {
        const { body } = await call(`${app.playgroundUrl}/api/messages?channel=${bets}&as=${as}`);
        const hit = (body.messages as Array<{ content?: string; embeds?: unknown[] }>).find((m) =>
          pattern.test(`${m.content ?? ''}${JSON.stringify(m.embeds ?? [])}`),
        );
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no reply matching ${pattern}`);
    };
    // "today" is the sandbox's today, three days on from the machine's.
    await ask('bettor', 'events', [
      { name: 'league', value: 'nba' },
      { name: 'date', value: 'today' },
    ]);
    await replyWith('bettor', new RegExp(`NBA — ${sandboxDay}`));
    // No date: what is coming up, said in the server's zone (UTC here), finished games left out; a game in play
    // may have started yesterday (just after midnight).
    await ask('bettor', 'events', [{ name: 'league', value: 'nba' }]);
    const comingUp = (await replyWith('bettor', /NBA — next 24 hours/)) as {
      embeds: Array<{ fields?: Array<{ value: string }> }>;
    };
    const lines = (comingUp.embeds[0]?.fields ?? []).map((f) => f.value);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(
        /^((today|tomorrow) \d\d:\d\d UTC · (upcoming|🔴 in play)|yesterday \d\d:\d\d UTC · 🔴 in play) · /,
      );
    }
    // The playground starts with #results as the results channel.
    await ask('admin', 'settings', [], 'show');
    await replyWith('admin', new RegExp(`<#${results}>`));
  });

  it('leaves a gateway at GATEWAY_BASE_URL alone: no panel', async () => {
    const gateway = await startSandbox({ port: 0, quiet: true, control: true });
    cleanups.push(() => gateway.close());
    const before = gateway.sb.clock.now().getTime();
    const app = await start({ GATEWAY_BASE_URL: gateway.url, GATEWAY_API_KEY: 'sandbox-key-alpha' });
    expect(app.sandboxUrl).toBeUndefined();
    expect((await call(`${app.playgroundUrl}/api/state`)).body.sandbox).toBe(false);
    expect((await call(`${app.playgroundUrl}/api/sandbox/advance`, { ms: HOUR_MS })).status).toBe(404);
    expect(gateway.sb.clock.now().getTime() - before).toBeLessThan(HOUR_MS);
  });
});
