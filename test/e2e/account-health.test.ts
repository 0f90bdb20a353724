// Account health end to end: a sandbox account whose stake limit shrinks after wins, seen by the desk from the
// gateway's own answers, shown by /accounts, announced once, and routed around by best-price /bet.
import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BetRecordRepo } from '../../src/bot/betting/bet-records.js';
import { updateSettings } from '../../src/bot/settings/guild-settings.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { messageMatching, newTrail, press } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { lastResponseText, textOf } from '../support/messages.js';
import { pickShared, type Shared } from '../support/shared-event.js';
import { until } from '../support/wait.js';

const BOOKIE_C = '5e55a1fa-0000-4000-8000-00000000000c';

let desk: Desk;
let shared: Shared;
/** The sport group the sandbox limits (the event key's first part, e.g. american_football). */
let sportGroup: string;
/** The limit after the wins, in dollars, as the sandbox reports it. */
let limit: number;

async function sandbox(path: string, body?: unknown, key?: string) {
  const res = await fetch(`${desk.sandbox.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status).toBeLessThan(300);
  return res.json();
}

/** Wins for bookie_c's account on another event of the sport, placed at the gateway directly, then settled. */
async function winAtBookieC(): Promise<void> {
  const events = await sandbox('/odds/v1/events?status=prematch&limit=200', undefined, API_KEY);
  const other = (events.data as Array<{ event_id: string; sport: string; league: string; books?: string[] }>).find(
    (e) => e.event_id !== shared.epk && e.sport === sportGroup && e.books?.includes('bookie_c'),
  );
  if (!other) throw new Error(`no other ${sportGroup} event at bookie_c`);
  const card = await sandbox(
    `/v3/markets?epk=${encodeURIComponent(other.event_id)}&bookie=bookie_c`,
    undefined,
    API_KEY,
  );
  // A market whose every selection can be bet: one of them wins when the event is settled (the sandbox settles a
  // market's selections that exclude each other by one draw).
  const market = (card.markets as Array<{ selections: Array<{ bettable: boolean; market_ref: string }> }>).find(
    (m) => m.selections.length >= 2 && m.selections.every((s) => s.bettable),
  );
  if (!market) throw new Error('no market whose every selection can be bet');
  // Every selection of that market, placed at once, then awaited.
  const placed = await Promise.all(
    market.selections
      .filter((s) => s.bettable)
      .map((sel) =>
        sandbox(
          '/v3/place_bet',
          {
            session_id: BOOKIE_C,
            sport: other.league,
            epk: other.event_id,
            market_ref: sel.market_ref,
            stake: 5,
            target_odds: 1.01,
          },
          API_KEY,
        ),
      ),
  );
  const ids = placed.map((p: { correlation_id: string }) => p.correlation_id);
  await until(
    'the direct bets to be placed',
    async () => {
      const st = await sandbox('/api/bet_status', { correlation_ids: ids }, API_KEY);
      const done = (st.statuses ?? []).filter((x: { status: string }) => x.status === 'completed');
      return done.length === ids.length ? true : undefined;
    },
    { timeoutMs: 15_000 },
  );
  await desk.control.settle(other.event_id);
}

async function admin(name: string): Promise<string> {
  const ix = await desk.ld.sendCommand({ user: desk.ld.users.admin, channelId: desk.ld.channelIds.bets, name });
  return until(
    `the /${name} reply`,
    () => (lastResponseText(ix).match(/Accounts/) ? lastResponseText(ix) : undefined),
    {
      timeoutMs: 30_000,
    },
  );
}

/** /bet as the bettor; with `bookie` at that book, else at the best price. The slip posted below. */
async function betSlip(user: APIUser, stake: number, bookie?: string): Promise<LocalMessage> {
  const handle = await desk.ld.sendCommand({
    user,
    channelId: desk.ld.channelIds.bets,
    name: 'bet',
    options: { event: shared.epk, market: shared.market, selection: shared.slug, stake, ...(bookie ? { bookie } : {}) },
  });
  return until(
    'the slip',
    () => {
      const slip = handle.responses().find((m) => /Bet slip/.test(textOf(m)) && (m.content ?? '').includes(user.id));
      if (slip) return slip;
      const said = lastResponseText(handle);
      if (said !== '' && !/posted below/.test(said)) throw new Error(`no slip: ${said}`);
      return undefined;
    },
    { timeoutMs: 30_000 },
  );
}

const notices = () =>
  desk.ld.messages(desk.ld.channelIds.results).filter((m) => /bookie_c/.test(textOf(m)) && /is now/.test(textOf(m)));

describe('account health: a limited bookie_c account is seen, shown, announced and routed around', () => {
  beforeAll(async () => {
    desk = await startDesk();
    // The wins are placed on another event of the same sport at bookie_c (winAtBookieC): there must be one.
    shared = await pickShared(desk, (e, listed) =>
      listed.some((o) => o.event_id !== e.event_id && o.sport === e.sport && o.books?.includes('bookie_c')),
    );
    const listed = await sandbox('/odds/v1/events?status=prematch&limit=200', undefined, API_KEY);
    sportGroup = (listed.data as Array<{ event_id: string; sport: string }>).find((e) => e.event_id === shared.epk)
      ?.sport as string;
    await updateSettings(desk.bot.store, desk.ld.guildId, (s) => ({
      ...s,
      resultsChannelId: desk.ld.channelIds.results,
    }));
    // bookie_c has the best price, so without account health every best-price bet would go there.
    await sandbox('/_sandbox/world/drift', {
      factor: 1.3,
      bookie: 'bookie_c',
      epk: shared.epk,
      market: shared.market,
      selection: shared.slug,
    });
    await desk.control.limits({
      session_id: BOOKIE_C,
      sport: sportGroup,
      max_stake: 40,
      shrink_factor: 0.5,
      min_stake: 5,
      over_limit: 'reduce',
    });
    await winAtBookieC();
    limit = (await desk.control.limitsOf(BOOKIE_C)).limits[0]?.max_stake_now as number;
  }, 120_000);
  afterAll(() => desk?.close());

  it('the sandbox shrank the account’s limit after its wins', () => {
    expect(limit).toBeLessThan(40);
    expect(limit).toBeGreaterThanOrEqual(5);
  });

  it('a bet at bookie_c above the limit is taken for less, and the desk records the accepted stake', async () => {
    const trail = newTrail();
    const slip = await betSlip(desk.ld.users.bettor, 30, 'bookie_c');
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 30_000);
    const placed = (await desk.control.state()).bets.filter((b) => b.bet.epk === shared.epk);
    expect(placed.map((b) => b.bet.stake)).toEqual([limit]);
    // The slip may show the receipt a moment before the store has it (decision 2120): wait for the store's state.
    const record = await until('the record placed', async () =>
      (await new BetRecordRepo(desk.bot.store).forGuild(desk.ld.guildId, ['placed'])).at(0),
    );
    expect(record?.stakeCents).toBe(Math.round(limit * 100));
  }, 90_000);

  it('/accounts shows bookie_c stake-limited with the largest stake it accepted', async () => {
    const text = await admin('accounts');
    const atC = text.slice(text.indexOf('bookie_c'));
    expect(atC).toMatch(/stake-limited/);
    const money = `$${limit.toFixed(2)}`;
    expect(atC).toContain(`took at most ${money} on`);
    expect(atC).toContain(`Largest accepted stake (30d): ${money}`);
  }, 60_000);

  it('announces the change of state once in the results channel', async () => {
    await until('the notice', () => (notices().length > 0 ? true : undefined), { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(notices()).toHaveLength(1);
    expect(textOf(notices()[0] as LocalMessage)).toMatch(/is now \*\*stake-limited\*\*/);
  }, 30_000);

  it('best-price /bet above that stake goes to another book and names why bookie_c was left out', async () => {
    const slip = await betSlip(desk.ld.users.bettor, limit + 10);
    const shown = textOf(slip);
    expect(shown).toMatch(/Book\nbookie_a/);
    expect(shown).toMatch(
      new RegExp(`Left out: [^\\n]*bookie_c \\(took at most \\$${limit.toFixed(2).replace('.', '\\.')} on `),
    );
  }, 60_000);

  it('/compare’s Bet at best at bookie_c above that stake routes it to another book, naming why bookie_c was left out', async () => {
    const { ld } = desk;
    const ix = await ld.sendCommand({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'compare',
      options: { event: shared.epk, market: shared.market },
    });
    const reply = await until('the comparison', () => ix.responses().find((m) => m.embeds.length > 0), {
      timeoutMs: 30_000,
    });
    const atC = reply.components
      ?.flatMap((r) => (r as { components: Array<{ custom_id?: string; label?: string }> }).components)
      .find((c) => c.custom_id?.startsWith('v1:cmp:bet:') && /@ bookie_c$/.test(c.label ?? ''));
    if (!atC?.custom_id) throw new Error('no Bet at best button at bookie_c');
    const modalSeen = new Promise<{ custom_id: string }>((resolve) =>
      ld.events.once('modal', (e) => resolve({ custom_id: String(e.modal.custom_id) })),
    );
    await ld.clickButton({ user: ld.users.bettor, message: reply, customId: atC.custom_id });
    const modal = await modalSeen;
    const slipsBefore = ld.messages(ld.channelIds.bets).filter((m) => m.embeds[0]?.title === 'Bet slip').length;
    const submitted = await ld.submitModal({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      customId: modal.custom_id,
      fields: { stake: String(limit + 10) },
    });
    // The stake is routed afresh at the stake form: the slip goes to a book that can take it and says why not C.
    const slip = await until(
      'the routed slip',
      () => ld.messages(ld.channelIds.bets).filter((m) => m.embeds[0]?.title === 'Bet slip')[slipsBefore],
      { timeoutMs: 30_000, seen: () => lastResponseText(submitted) },
    );
    const leftOut = textOf(slip)
      .split('\n')
      .find((l) => l.startsWith('Left out: '));
    expect(leftOut).toContain(`bookie_c (took at most $${limit.toFixed(2)} on`);
    expect(slip.embeds[0]?.fields?.find((f) => f.name === 'Book')?.value).not.toBe('bookie_c');
  }, 60_000);

  it('an explicit bet at bookie_c warns on the slip, and its refusal is recorded with the book’s reason', async () => {
    // The book now refuses what it used to cut down.
    await desk.control.limits({ session_id: BOOKIE_C, sport: sportGroup, max_stake: limit, over_limit: 'refuse' });
    const trail = newTrail();
    const slip = await betSlip(desk.ld.users.bettor, limit + 10, 'bookie_c');
    expect(textOf(slip)).toMatch(/⚠️ bookie_c took at most .* lately: the book may refuse this stake or take less/);
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet not placed/, 30_000);
    const refused = await new BetRecordRepo(desk.bot.store).forGuild(desk.ld.guildId, ['refused']);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.note).toBe(`max_stake_exceeded: The maximum stake for this bet is $${limit.toFixed(2)}.`);
  }, 90_000);
});
