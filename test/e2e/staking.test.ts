import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, type MarketCard } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { messageMatching, newTrail, press, steadyPrices } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { ackTime, findControl, lastResponseText, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

const BOOKS = ['bookie_a', 'bookie_b', 'bookie_c'];

/** A selection priced in a complete market at all three books, with the three markets as read over HTTP. */
interface Priced {
  epk: string;
  market: string;
  slug: string;
  /** Each book's prices of the selection's market (slug → decimal odds). */
  markets: Array<Map<string, number>>;
}

/**
 * The hand computation the slip must agree with, written out here rather than imported: each book's margin removed
 * by dividing its implied probabilities by their sum, the three books' fair probabilities averaged.
 */
function handFair(p: Priced): number {
  const perBook = p.markets.map((m) => {
    const booksum = [...m.values()].reduce((a, o) => a + 1 / o, 0);
    return 1 / (m.get(p.slug) as number) / booksum;
  });
  return perBook.reduce((a, x) => a + x, 0) / perBook.length;
}

/** A prematch selection all three books price in a complete market with no lines or players (a head-to-head). */
async function pickPriced(desk: Desk): Promise<Priced> {
  const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
  try {
    const page = await client.events.list({ status: 'prematch', limit: 200 });
    for (const e of page.data) {
      // bookie_c takes no basketball bets in the sandbox.
      if (e.sport === 'basketball' || !BOOKS.every((b) => e.books?.includes(b))) continue;
      const cards: MarketCard[] = await Promise.all(
        BOOKS.map((bookie) => client.markets.get({ epk: e.event_id, bookie })),
      );
      if (!cards.every((c) => c.bound)) continue;
      for (const m of cards[0]?.markets.filter((x) => x.tier !== 'unmapped') ?? []) {
        // A market with no lines or players: its selections are its whole outcome set.
        if (m.selections.some((s) => (s.line ?? null) !== null || (s.player ?? null) !== null)) continue;
        const rows = cards.map((c) => c.markets.find((x) => x.market === m.market));
        const slugs = new Set(rows.flatMap((r) => r?.selections.map((s) => s.slug) ?? []));
        const markets = rows.map(
          (r) => new Map((r?.selections ?? []).map((s) => [s.slug ?? '', s.odds ?? Number.NaN] as const)),
        );
        const complete = markets.every((mk) => [...slugs].every((s) => s && (mk.get(s) ?? 0) > 1));
        if (!complete || slugs.size < 2) continue;
        const slug = [...slugs][0];
        if (slug) return { epk: e.event_id, market: m.market, slug, markets };
      }
    }
  } finally {
    await client.close();
  }
  throw new Error('no prematch selection priced in a complete market at all three books');
}

describe('the fair price, the edge and the suggested stake on a slip', () => {
  let desk: Desk;
  let priced: Priced;

  beforeAll(async () => {
    desk = await startDesk();
    await steadyPrices(desk);
    priced = await pickPriced(desk);
    // bookie_c's live price lengthened by 15% (its card shows the move only from the next price step, which
    // steadyPrices keeps away): the slip routes there at a price above the fair one the cards give.
    const drift = await fetch(`${desk.sandbox.url}/_sandbox/world/drift`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        factor: 1.15,
        bookie: 'bookie_c',
        epk: priced.epk,
        market: priced.market,
        selection: priced.slug,
      }),
    });
    expect(drift.status).toBe(200);
  }, 90_000);
  afterAll(() => desk?.close());

  async function admin(options: Record<string, string | number>, subcommand: string) {
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name: 'settings',
      options,
      subcommand,
    });
    return until('the /settings reply', () => ix.responses().find((m) => m.embeds.length > 0), { timeoutMs: 20_000 });
  }

  /** /bet with no bookie (routed to the best price); the public slip, or the private answer when there is none. */
  async function bet(stake: number): Promise<{ slip?: LocalMessage; said: string }> {
    const user = desk.ld.users.bettor;
    const handle = await desk.ld.sendCommand({
      user,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: priced.epk, market: priced.market, selection: priced.slug, stake },
    });
    newTrail().acks.push(await ackTime(handle));
    return until(
      'the slip or a refusal',
      () => {
        const slip = handle.responses().find((m) => /Bet slip/.test(textOf(m)) && (m.content ?? '').includes(user.id));
        if (slip) return { slip, said: '' };
        const said = lastResponseText(handle);
        return said !== '' && !/posted below/.test(said) ? { said } : undefined;
      },
      { timeoutMs: 40_000 },
    );
  }

  it('shows the fair price and edge of the three markets, and ¼ Kelly of the bank as the suggested stake', async () => {
    await admin({ amount: 1000 }, 'bank');
    const { slip, said } = await bet(2);
    if (!slip) throw new Error(`no slip: ${said}`);
    const shown = textOf(slip);
    expect(shown).toMatch(/Book\nbookie_c/);
    const live = Number(/Live price\n(\d+\.\d+)/.exec(shown)?.[1]);
    const p = handFair(priced);
    const edge = p * live - 1;
    const pct = Math.round(edge * 1000) / 10;
    const edgeText = `${pct < 0 ? '-' : '+'}${Math.abs(pct).toFixed(1)}%`;
    expect(shown).toContain(`Fair ${(1 / p).toFixed(2)} (no-vig multiplicative, 3 books) · edge ${edgeText}`);
    // ¼ Kelly: 0.25 × edge / (odds − 1) × $1,000, rounded down to the $1 unit.
    const kellyDollars = Math.floor(0.25 * (Math.max(0, edge) / (live - 1)) * 1000);
    expect(kellyDollars).toBeGreaterThan(0);
    expect(shown).toContain(`Suggested stake\n$${kellyDollars}.00 (0.25 Kelly of the $1,000.00 bank)`);

    // The bet record keeps the fair price and the suggestion: /stats reports them once the bet is placed.
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 30_000);
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'stats',
    });
    const stats = await until('the /stats reply', () => ix.responses().find((m) => m.embeds.length > 0), {
      timeoutMs: 30_000,
    });
    const statsText = textOf(stats);
    expect(statsText).toContain(`Edge at placement\n+${(edge * 100).toFixed(2)}% over 1 bet with a fair price`);
    expect(statsText).toContain(
      `<@${desk.ld.users.bettor.id}> staked $2.00 vs suggested $${kellyDollars}.00 · 0 of 1 above`,
    );
  }, 120_000);

  it('/compare marks each price with its edge, and Bet at best offers ¼ Kelly of the bank as the stake', async () => {
    await admin({ amount: 1000 }, 'bank');
    await admin({ per_bet_pct: 0 }, 'limits');
    const user = desk.ld.users.bettor;
    const ix = await desk.ld.sendCommand({
      user,
      channelId: desk.ld.channelIds.bets,
      name: 'compare',
      options: { event: priced.epk, market: priced.market, selection: priced.slug },
    });
    const reply = await until('the /compare reply', () => ix.responses().find((m) => m.embeds.length > 0), {
      timeoutMs: 30_000,
    });
    const field = (reply.embeds[0]?.fields ?? [])[0]?.value ?? '';
    const p = handFair(priced);
    expect(field).toContain(`Fair ${(1 / p).toFixed(2)} (no-vig multiplicative, 3 books)`);
    const priceLines = [...field.matchAll(/(bookie_\w+): (\d+\.\d\d)\** · edge ([+-]\d+\.\d%)/g)];
    expect(priceLines.map((m) => m[1]).sort()).toEqual(BOOKS);
    for (const [, , price, shown] of priceLines) {
      const pct = Math.round((p * Number(price) - 1) * 1000) / 10;
      expect(shown).toBe(`${pct < 0 ? '-' : '+'}${Math.abs(pct).toFixed(1)}%`);
    }
    const best = Number(/⭐ \*\*bookie_c: (\d+\.\d\d)/.exec(field)?.[1]);
    const modal = new Promise<Record<string, unknown>>((resolve) => {
      const listener = (e: { userId: string; modal: Record<string, unknown> }) => {
        if (e.userId !== user.id) return;
        desk.ld.events.off('modal', listener);
        resolve(e.modal);
      };
      desk.ld.events.on('modal', listener);
    });
    const button = findControl(reply, /Bet at best/);
    if (!button) throw new Error(`no Bet at best button: ${textOf(reply)}`);
    await desk.ld.clickButton({ user, message: reply.id, customId: button.customId });
    const kellyDollars = Math.floor(0.25 * ((p * best - 1) / (best - 1)) * 1000);
    expect(kellyDollars).toBeGreaterThan(0);
    expect(JSON.stringify(await modal)).toContain(`"value":"${kellyDollars}.00"`);
  }, 120_000);

  it('a percentage cap refuses a stake the dollar cap allows, naming both', async () => {
    await admin({ amount: 1000 }, 'bank');
    await admin({ per_bet_pct: 5 }, 'limits');
    const { slip, said } = await bet(60);
    expect(slip).toBeUndefined();
    expect(said).toContain('$60.00 is above 5% of the bank ($50.00); the dollar cap is $100.00');
  }, 120_000);

  it('a slip keeps the share cap of the bank it was made with: a lower bank set before Confirm binds only new slips', async () => {
    await admin({ amount: 1000 }, 'bank');
    await admin({ per_bet_pct: 5 }, 'limits');
    const { slip, said } = await bet(40);
    if (!slip) throw new Error(`no slip: ${said}`);
    // 5% of $500 is $25: a new $40 slip is refused, the one already shown is not.
    await admin({ amount: 500 }, 'bank');
    const refused = await bet(40);
    expect(refused.said).toContain('$40.00 is above 5% of the bank ($25.00); the dollar cap is $100.00');
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 30_000);
  }, 120_000);
});
