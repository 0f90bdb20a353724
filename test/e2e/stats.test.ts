import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { offOf } from '../../src/sandbox/world/lifecycle.js';
import { findSecrets } from '../chaos/secrets.js';
import { type BettableSelection, betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { ACK_DEADLINE_MS, responseMatching } from '../support/messages.js';

const MINUTE = 60_000;
/** The capture schedule's lead times before the off (src/bot/analytics/closing.ts). */
const LEADS = [30 * MINUTE, 10 * MINUTE, 3 * MINUTE, MINUTE];

interface Closing {
  off_at: string;
  has_closing: boolean | null;
  books: { bookie: string; markets: { selections: { market_ref?: string; odds: number }[] }[] }[];
}

const money = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
const pct = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;
const fieldOf = (m: LocalMessage, name: string) => m.embeds?.[0]?.fields?.find((f) => f.name === name)?.value ?? '';

/**
 * Bets placed through the desk, their cards read before the off by the closing capture as the sandbox clock
 * moves on, the events settled, then /stats: CLV against the sandbox's own recorded close, every close
 * captured, P&L equal to the gateway's transactions, and the chart attached.
 */
describe('stats end to end: closes captured before the off, then /stats', () => {
  let desk: Desk;
  let sels: BettableSelection[];

  beforeAll(async () => {
    desk = await startDesk({ sandboxClock: true, env: { SETTLEMENT_INTERVAL_SECONDS: '1' } });
    // Three events starting over 35 minutes from now, so every read of the schedule lies ahead.
    sels = [];
    const soon = (await desk.advance(1)) + 35 * MINUTE;
    // Only events whose close the sandbox will record (about 5% have none: the spec's "could not be checked").
    const world = desk.sandbox.sb.world;
    const recordsClose = (epk: string) => {
      const ev = world.findEvent(epk);
      return ev !== undefined && offOf(world.seed, ev).hasClosing === true;
    };
    for (let skip = 0; sels.length < 3; skip++) {
      const sel = await pickEvent(desk, 'nba', skip);
      if (sel.startsAt > soon && recordsClose(sel.epk)) sels.push(sel);
    }
  }, 90_000);
  afterAll(() => desk?.close());

  it('shows CLV against the recorded close, 100% capture, the P&L of the transactions and a chart', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const stakes = [5, 7.5, 10];
    for (const [i, sel] of sels.entries()) {
      const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: stakes[i]! });
      await press(desk, trail, bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    }
    const placed = await desk.bot.store.query<{ bet_id: string; session_id: string }>(
      "SELECT bet_id, session_id FROM bet_records WHERE state = 'placed'",
    );
    expect(placed).toHaveLength(3);

    // The clock moves through each event's schedule; the capture runs a pass at every read time. Each
    // event is settled right after its last read, before its scheduled start, so its off is known (a natural
    // off falls 0–4 minutes after the start, which no client can see coming). The off is taken from the
    // sandbox clock as it is then: the clock keeps running in real time, and a slow capture pass (a loaded
    // machine) must not push the off past the start, where the sandbox's close is the next scrape.
    // The test runs every pass itself: the leader's own 5 s timer could start a pass on the clock as it was just
    // before an advance, which the test's tick would then share, and the slot due after the advance would be read
    // only with the next one (one read short).
    await desk.bot.closing.stop();
    const byStart = [...new Set(sels.map((s) => s.startsAt))].sort((a, b) => a - b);
    let now = await desk.advance(1);
    let reads = 0;
    for (const start of byStart) {
      for (const lead of LEADS) {
        if (start - lead <= now) continue;
        now = await desk.advance(start - lead - now);
        const pass = await desk.bot.closing.tick();
        expect(pass.failed).toBe(0);
        expect(pass.deferred).toBe(0);
        reads += pass.read;
      }
      now = await desk.advance(1);
      expect(now, 'the off comes before the scheduled start').toBeLessThan(start);
      for (const sel of sels.filter((s) => s.startsAt === start)) await desk.control.settle(sel.epk);
    }
    // One read per card and read time: bets never share a card here, so 4 reads per event.
    expect(reads).toBe(sels.length * LEADS.length);

    type Settled = { bet_id: string; bookie: string; close_odds: number | null; payload: string };
    let records: Settled[] = [];
    const deadline = Date.now() + 30_000;
    while (records.length < 3) {
      if (Date.now() > deadline) throw new Error(`only ${records.length} of 3 bets settled at the desk in 30 s`);
      await new Promise((r) => setTimeout(r, 100));
      records = await desk.bot.store.query<Settled>(
        "SELECT bet_id, bookie, close_odds, payload FROM bet_records WHERE state = 'settled'",
      );
    }

    // The desk's close is the sandbox's recorded close of the bet's market_ref at its book.
    const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const clvs: number[] = [];
    let profitCents = 0;
    try {
      const txs = await Promise.all(
        [...new Set(placed.map((p) => p.session_id))].map(async (session_id) => {
          const job = await client.transactions.list({ session_id, days_back: 7, limit: 200 });
          const out = await job.wait();
          if (out.status !== 'completed') throw new Error(`transactions of ${session_id}: ${out.status}`);
          return out.result.transactions;
        }),
      );
      const byId = new Map(txs.flat().map((t) => [t.id, t]));
      for (const r of records) {
        const { epk, marketRef } = JSON.parse(r.payload) as { epk: string; marketRef: string };
        const res = await fetch(
          `${desk.sandbox.url}/_sandbox/world/closing?epk=${encodeURIComponent(epk)}&bookie=${r.bookie}`,
        );
        expect(res.status).toBe(200);
        const closing = (await res.json()) as Closing;
        expect(closing.has_closing).toBe(true);
        const recorded = closing.books
          .flatMap((b) => b.markets.flatMap((m) => m.selections))
          .find((s) => s.market_ref === marketRef);
        expect(recorded, `the sandbox's close lists ${marketRef}`).toBeDefined();
        expect(r.close_odds).toBe(recorded!.odds);
        const tx = byId.get(r.bet_id);
        expect(tx?.status).toMatch(/^(won|lost|void)$/);
        profitCents += Math.round((tx!.pnl ?? 0) * 100);
        if (tx!.status !== 'void') clvs.push(tx!.odds! / recorded!.odds - 1);
      }
    } finally {
      await client.close();
    }

    const handle = await desk.ld.sendCommand({
      user: bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'stats',
      options: { days: 7 },
    });
    trail.acks.push((await handle.acknowledged).ms);
    const stats = await responseMatching(handle, /Close captured/, 20_000).catch((e) => {
      console.error(
        desk.logs.lines
          .filter((l) => /error|fail/i.test(l))
          .slice(-10)
          .join('\n'),
      );
      throw e;
    });
    expect(fieldOf(stats, 'Close captured')).toBe(`100.00% (${clvs.length} of ${clvs.length} settled)`);
    expect(fieldOf(stats, 'Profit')).toBe(money(profitCents));
    const meanClv = clvs.reduce((s, x) => s + x, 0) / clvs.length;
    expect(fieldOf(stats, 'CLV (mean)')).toMatch(new RegExp(`^${pct(meanClv).replace(/[+.]/g, '\\$&')} · log `));

    // The chart: a PNG attached to the reply, which the embed shows.
    expect(stats.embeds?.[0]?.image?.url).toBe('attachment://stats.png');
    const chart = stats.attachments.find((a) => a.filename === 'stats.png');
    expect(chart?.content_type).toBe('image/png');
    const png = Buffer.from(await (await fetch(chart!.url)).arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBe(chart!.size);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 180_000);

  it('never shows the API key or the bot token in any message or log line', () => {
    const texts = Object.values(desk.ld.channelIds).flatMap((c) => desk.ld.messages(c).map((m) => JSON.stringify(m)));
    expect(texts.length).toBeGreaterThan(0);
    expect(findSecrets({ messages: texts, logs: desk.logs.lines }, desk.secrets)).toEqual([]);
  });
});
