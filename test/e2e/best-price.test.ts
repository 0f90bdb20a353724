import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { findSecrets } from '../chaos/secrets.js';
import { messageMatching, newTrail, press, type Trail } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { ACK_DEADLINE_MS, ackTime, lastResponseText, textOf } from '../support/messages.js';
import { driftPrice, pickShared, type Shared } from '../support/shared-event.js';
import { until } from '../support/wait.js';

/** The alpha syndicate's active sessions (the sandbox's fixture accounts). */
const SESSION = {
  bookie_a: '5e55a1fa-0000-4000-8000-00000000000a',
  bookie_c: '5e55a1fa-0000-4000-8000-00000000000c',
};

/** An event, a named market and a selection bookie_c takes bets on that bookie_a (listed first) does not list. */
async function pickLaterOnly(desk: Desk): Promise<Shared & { label: string }> {
  const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
  try {
    const page = await client.events.list({ status: 'prematch', limit: 200 });
    for (const e of page.data) {
      if (e.books?.[0] !== 'bookie_a' || !e.books.includes('bookie_c')) continue;
      const [a, c] = await Promise.all(
        ['bookie_a', 'bookie_c'].map((bookie) => client.markets.get({ epk: e.event_id, bookie })),
      );
      if (!a?.bound || !c?.bound || !c.market_ref_betting_enabled) continue;
      for (const m of c.markets.filter((x) => x.tier !== 'unmapped')) {
        const atA = a.markets.find((x) => x.market === m.market);
        if (!atA) continue;
        const sel = m.selections.find((s) => s.bettable && s.slug && !atA.selections.some((t) => t.slug === s.slug));
        if (sel?.slug) return { epk: e.event_id, market: m.market, slug: sel.slug, label: sel.label };
      }
    }
  } finally {
    await client.close();
  }
  throw new Error('no prematch event where bookie_c lists a selection bookie_a does not');
}

/** The prices a slip's best-price line names, by book. */
function routePrices(slip: LocalMessage): Record<string, number> {
  const line = /(?:Best price of \d+ books|The one book that can take it): [^\n]*/.exec(textOf(slip))?.[0] ?? '';
  return Object.fromEntries([...line.matchAll(/(bookie_\w+) (\d+\.\d+)/g)].map((m) => [m[1], Number(m[2])]));
}

describe('/bet without a bookie: routed to the best live price', () => {
  let desk: Desk;
  let shared: Shared;

  beforeAll(async () => {
    desk = await startDesk();
    shared = await pickShared(desk);
    // bookie_c's price lengthened by 30%: the books' prices differ, and the best is not the first book listed.
    await driftPrice(desk, shared, 'bookie_c', 1.3);
  }, 60_000);
  afterAll(() => desk?.close());

  /** Withdraws a session's cash down to `leaveCents` through the gateway, as a treasurer would. */
  async function drain(sessionId: string, leaveCents: number) {
    const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    try {
      const cash = Math.round(((await client.balances.get({ session_id: sessionId })).withdrawable_balance ?? 0) * 100);
      const handle = await client.withdrawals.create({ session_id: sessionId, amount: (cash - leaveCents) / 100 });
      const outcome = await handle.wait();
      expect(outcome.status === 'completed' && outcome.result.success).toBe(true);
    } finally {
      await client.close();
    }
  }

  const betsAt = async (epk: string) =>
    (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(epk));

  /** /bet with event, market, selection and stake only; the public slip, or the private refusal. */
  async function bestBet(trail: Trail, user: APIUser, stake: number) {
    const handle = await desk.ld.sendCommand({
      user,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: shared.epk, market: shared.market, selection: shared.slug, stake },
    });
    trail.acks.push(await ackTime(handle));
    const isSlip = (m: LocalMessage) => /Bet slip/.test(textOf(m)) && (m.content ?? '').includes(user.id);
    return until(
      'the slip or a refusal',
      () => {
        const slip = handle.responses().find(isSlip);
        if (slip) return { slip, handle };
        const said = lastResponseText(handle);
        return said !== '' && !/posted below/.test(said) ? { slip: undefined, handle } : undefined;
      },
      { timeoutMs: 30_000 },
    );
  }

  it('makes the slip at the best book, says why, and Confirm places exactly one bet there', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const { slip, handle } = await bestBet(trail, bettor, 5);
    if (!slip) throw new Error(`no slip: ${lastResponseText(handle)}`);
    const shown = textOf(slip);
    expect(shown).toMatch(/Book\nbookie_c/);
    const prices = routePrices(slip);
    expect(Object.keys(prices).sort()).toEqual(['bookie_a', 'bookie_c']);
    expect(prices.bookie_c).toBeGreaterThan(prices.bookie_a as number);
    expect(shown).toMatch(/Best price of 2 books: bookie_c/);
    expect(shown).toMatch(/Left out: bookie_b \(not taking bets on this event\)/);

    await press(desk, trail, bettor, slip, /^Confirm$/);
    const placed = await messageMatching(desk, slip, /Bet placed ✅/, 30_000);
    const bets = await betsAt(shared.epk);
    expect(bets).toHaveLength(1);
    expect(textOf(placed)).toContain(bets[0]?.bet.bet_id);
    expect(bets[0]?.bet.session_id).toBe(SESSION.bookie_c);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 90_000);

  it('with a book named, takes a selection picked across books (its slug) at that book, with no routing line', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const handle = await desk.ld.sendCommand({
      user: bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: shared.epk, market: shared.market, selection: shared.slug, stake: 2, bookie: 'bookie_a' },
    });
    trail.acks.push(await ackTime(handle));
    const slip = await until(
      'the slip',
      () => handle.responses().find((m) => /Bet slip/.test(textOf(m)) && (m.content ?? '').includes(bettor.id)),
      { timeoutMs: 30_000 },
    );
    expect(textOf(slip)).toMatch(/Book\nbookie_a/);
    expect(textOf(slip)).not.toMatch(/Best price of/);
  }, 60_000);

  it('passes over the best book when its balance is below the stake, and names it left out', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    await drain(SESSION.bookie_c, 4_00);
    const { slip, handle } = await bestBet(trail, bettor, 10);
    if (!slip) throw new Error(`no slip: ${lastResponseText(handle)}`);
    const shown = textOf(slip);
    expect(shown).toMatch(/Book\nbookie_a/);
    expect(shown).toMatch(/The one book that can take it: bookie_a/);
    expect(shown).toMatch(/bookie_c \(balance \$4\.00 is below the \$10\.00 stake\)/);
  }, 60_000);

  it('answers privately with what to do when no book can take the stake', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    await drain(SESSION.bookie_a, 4_00);
    const { slip, handle } = await bestBet(trail, bettor, 10);
    expect(slip).toBeUndefined();
    expect(lastResponseText(handle)).toMatch(/No book can take this bet.*Try a smaller stake/s);
    expect(handle.responses().every((m) => m.visibleTo === bettor.id)).toBe(true);
  }, 60_000);

  it('offers, with no book chosen, the markets and selections every book names alike (never a market_ref)', async () => {
    const ask = async (focused: 'market' | 'selection', typed: string) =>
      (await desk.ld.autocomplete({
        user: desk.ld.users.bettor,
        channelId: desk.ld.channelIds.bets,
        name: 'bet',
        options: { event: shared.epk, market: focused === 'market' ? typed : shared.market, [focused]: typed },
        focused,
      })) as Array<{ name: string; value: string }>;
    // Autocomplete answers from cached cards: an ask may only start the read, so ask again until it has one.
    let markets = await ask('market', shared.market);
    for (let tries = 0; markets.length === 0 && tries < 40; tries++) {
      await new Promise((r) => setTimeout(r, 250));
      markets = await ask('market', shared.market);
    }
    expect(markets.map((c) => c.value)).toContain(shared.market);
    expect((await ask('selection', '')).map((c) => c.value)).toContain(shared.slug);
  });

  it('offers, with no book chosen, a selection only a later book lists (not only the first book’s)', async () => {
    const only = await pickLaterOnly(desk);
    const ask = async () =>
      (await desk.ld.autocomplete({
        user: desk.ld.users.bettor,
        channelId: desk.ld.channelIds.bets,
        name: 'bet',
        options: { event: only.epk, market: only.market, selection: only.label },
        focused: 'selection',
      })) as Array<{ name: string; value: string }>;
    // Autocomplete answers from cached cards: the first asks may only start the reads.
    let values = (await ask()).map((c) => c.value);
    for (let tries = 0; !values.includes(only.slug) && tries < 40; tries++) {
      await new Promise((r) => setTimeout(r, 250));
      values = (await ask()).map((c) => c.value);
    }
    expect(values).toContain(only.slug);
  });

  it('never shows the API key or the bot token', () => {
    const texts = desk.ld.messages(desk.ld.channelIds.bets).map((m) => JSON.stringify(m));
    expect(findSecrets({ messages: texts, logs: desk.logs.lines }, desk.secrets)).toEqual([]);
  });
});
