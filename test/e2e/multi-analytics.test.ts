import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { DRIFT_STEP_MS } from '../../src/sandbox/world/drift.js';
import { finishingOrder, localDay, type Race, raceStartMs, TRACKS } from '../../src/sandbox/world/racing.js';
import type { RunningBot } from '../support/bot-entry.js';
import { messageMatching, newTrail, press } from '../support/flows.js';
import { cents, type FundFlows, fundFlows, fundReport, money } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { responseMatching, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/**
 * Same-race multis in the desk's statistics (issue 46, decision 2040), through the local Discord and the sandbox: two
 * 2-leg multis placed with /multi on one race through the fund's account, the race read by the race-close capture a
 * moment before its jump, the race settled; then each multi's close is its fair chance from the sandbox's own
 * recorded closing win prices (worked out here by hand: no-vig by the multiplicative method, averaged over the books,
 * Harville orders), and /stats, /leaderboard, /fund tipsters and /fund report mark them as multis and count them to
 * the cent of the gateway's transactions.
 */

type MultiBot = RunningBot & { raceCloses: { tick(): Promise<{ read: number; recorded: number; failed: number }> } };

interface Closing {
  books: Array<{
    bookie: string;
    markets: Array<{ market: string; selections: Array<{ label: string; odds: number }> }>;
  }>;
}

const MINUTE = 60_000;
const pct = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;
const fieldOf = (m: LocalMessage, name: string) => m.embeds?.[0]?.fields?.find((f) => f.name === name)?.value ?? '';

/** The Harville chance that each runner finishes within its places, over every order of the places the legs need. */
function harville(chances: ReadonlyMap<string, number>, legs: ReadonlyArray<{ runner: string; within: number }>) {
  const depth = Math.max(...legs.map((l) => l.within));
  const walk = (order: string[], left: number): number => {
    if (order.length === depth) {
      return legs.every((l) => order.indexOf(l.runner) >= 0 && order.indexOf(l.runner) < l.within) ? 1 : 0;
    }
    let total = 0;
    for (const [runner, p] of chances) {
      if (order.includes(runner)) continue;
      total += (p / left) * walk([...order, runner], left - p);
    }
    return total;
  };
  return walk([], 1);
}

describe('multis in the statistics: closing value at the race, marked and counted to the cent', () => {
  let desk: Desk<MultiBot>;
  let gw: GatewayClient;
  let flows: FundFlows;
  let race: Race;
  let order: string[];

  beforeAll(async () => {
    desk = await startDesk<MultiBot>({
      sandboxClock: true,
      // The sandbox's prices step every DRIFT_STEP_MS from its start and races jump on five-minute marks: started
      // half a step past a mark, every jump falls half a step into its price step, whatever second the test runs.
      sandbox: { start: new Date(Math.floor(Date.now() / DRIFT_STEP_MS) * DRIFT_STEP_MS + DRIFT_STEP_MS / 2) },
      env: { SETTLEMENT_INTERVAL_SECONDS: '1', FUND_CHECK_SECONDS: '3600' },
    });
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const session = (await gw.sessions.list()).find((s) => s.bookie === 'bookie_a' && s.active)?.session_id ?? '';
    flows = fundFlows(desk, gw, session);
    const world = desk.sandbox.sb.world;
    const now = world.nowMs();
    // A race at least 20 minutes off whose jump falls at least 40 s into its price step, so a read a little
    // before the jump sees the prices the sandbox records as the close (the price a moment before the jump).
    const candidates: Race[] = [];
    for (const def of TRACKS.filter((t) => t.race_type === 'R')) {
      for (const dayOffset of [0, 1, 2]) {
        const date = localDay(def, now + dayOffset * 86_400_000);
        for (let n = 1; n <= 8; n++) {
          const start = raceStartMs(def, n, date);
          const intoStep = (start - 1 - world.priceEpochMs) % DRIFT_STEP_MS;
          const r = start > now + 20 * MINUTE && intoStep >= 40_000 ? world.race(def.track, n, 'R', date) : undefined;
          if (r && r.runners.length >= 6) candidates.push(r);
        }
      }
    }
    expect(candidates.length, `open races after ${new Date(now).toISOString()}`).toBeGreaterThan(0);
    race = candidates.sort((a, b) => a.startMs - b.startMs)[0] as Race;
    order = finishingOrder(world.seed, race).map((n) => race.runners.find((r) => r.number === n)?.name ?? '?');
  }, 90_000);
  afterAll(async () => {
    await gw?.close();
    await desk?.close();
  });

  /** /multi as the bettor at bookie_a, confirmed, placed. */
  async function placeMulti(legs: string[], stake: number): Promise<void> {
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'multi',
      options: {
        track: `${race.track} (R)`,
        race: race.race_num,
        date: race.date,
        bookie: 'bookie_a',
        stake,
        ...Object.fromEntries(legs.map((l, k) => [`leg${k + 1}`, l])),
      },
    });
    const slip = await until('the multi slip', () => handle.responses().find((m) => m.visibleTo === null), {
      timeoutMs: 20_000,
    });
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
  }

  it('closes each multi at its fair chance at the race and shows the multis in every report', async () => {
    expect(await flows.openWithNav(10_000)).toMatch(/Struck/);
    const [first, second] = order as [string, string];
    const last = order[order.length - 1] as string;
    await placeMulti([`${first}|win`, `${second}|top3`], 4); // wins
    await placeMulti([`${last}|win`, `${first}|top2`], 3); // loses

    // The clock to a little before the jump, within the price step the sandbox's close is read in; one pass.
    const stepStart = race.startMs - 1 - ((race.startMs - 1 - desk.sandbox.sb.world.priceEpochMs) % DRIFT_STEP_MS);
    const target = Math.max(stepStart + 2_000, race.startMs - MINUTE);
    const now = await desk.advance(target - (await desk.advance(1)));
    expect(now).toBeLessThan(race.startMs);
    const pass = await desk.bot.raceCloses.tick();
    expect(pass.failed).toBe(0);
    await desk.control.settle(race.key);
    await until(
      'both multis settled at the desk',
      async () => (await desk.bot.store.query("SELECT 1 AS x FROM bet_records WHERE state = 'placed'")).length === 0,
      { timeoutMs: 30_000 },
    );

    // Past the jump (the multis settled, so no read follows), where the sandbox shows its recorded close.
    await desk.advance(race.startMs + 1_000 - (await desk.advance(1)));

    type Row = { bet_id: string; stake_cents: number; payload: string; close_odds: number; close_market: string };
    const rows = await desk.bot.store.query<Row>(
      "SELECT bet_id, stake_cents, payload, close_odds, close_market, close_at FROM bet_records WHERE market_key = 'srm' ORDER BY created_at",
    );
    expect(rows).toHaveLength(2);
    const txns = new Map((await flows.history()).map((t) => [t.id, t]));
    const clvs: number[] = [];
    const evs: number[] = [];
    let pnlCents = 0;
    for (const row of rows) {
      const multi = (
        JSON.parse(row.payload) as { multi: { probability: number; legs: Array<{ runner: string; position: string }> } }
      ).multi;
      const close = JSON.parse(row.close_market) as { kind: string; probability: number; books: string[] };
      expect(close.kind).toBe('fair');
      // The books the desk read: one active session of each.
      const active = [...new Set((await gw.sessions.list()).filter((s) => s.active).map((s) => s.bookie))].sort();
      expect([...close.books].sort()).toEqual(active);
      // The sandbox's recorded close at each of those books, its margin taken out, averaged.
      const chances = new Map<string, number>();
      for (const bookie of active) {
        const res = await fetch(
          `${desk.sandbox.url}/_sandbox/world/closing?epk=${encodeURIComponent(race.key)}&bookie=${bookie}`,
        );
        expect(res.status).toBe(200);
        const win = ((await res.json()) as Closing).books[0]?.markets.find((m) => m.market === 'win')?.selections ?? [];
        const booksum = win.reduce((s, x) => s + 1 / x.odds, 0);
        for (const x of win) chances.set(x.label, (chances.get(x.label) ?? 0) + 1 / x.odds / booksum / active.length);
      }
      const within = { win: 1, top2: 2, top3: 3, top4: 4 } as Record<string, number>;
      const fairClose = harville(
        chances,
        multi.legs.map((l) => ({ runner: l.runner, within: within[l.position] as number })),
      );
      expect(close.probability).toBeCloseTo(fairClose, 9);
      expect(row.close_odds).toBeCloseTo(1 / fairClose, 6);
      const tx = txns.get(row.bet_id);
      expect(tx?.status).toMatch(/^(won|lost)$/);
      pnlCents += cents(tx?.pnl);
      clvs.push(fairClose / multi.probability - 1);
      evs.push((tx?.odds as number) * fairClose - 1);
    }
    const statuses = rows.map((r) => txns.get(r.bet_id)?.status);
    expect(statuses).toEqual(['won', 'lost']);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const { admin, bettor } = desk.ld.users;

    // /stats: the multis' own field, inside totals that are the transactions' to the cent.
    const stats = await responseMatching(
      await desk.ld.sendCommand({
        user: bettor,
        channelId: desk.ld.channelIds.bets,
        name: 'stats',
        options: { days: 7 },
      }),
      /Close captured/,
      20_000,
    );
    expect(fieldOf(stats, 'Profit')).toBe(money(pnlCents));
    expect(fieldOf(stats, 'Close captured')).toBe('100.00% (2 of 2 settled)');
    expect(fieldOf(stats, 'Same-race multis (in every figure above)').split('\n')).toEqual([
      '2 multis · 2 legs each',
      `1 won · 1 lost · 0 void · 0 open · profit ${money(pnlCents)} on $7.00 staked`,
      `CLV against the race's close ${pct(mean(clvs))} (2 multis with a close) · EV at the fair close ${pct(mean(evs))}`,
    ]);

    // /leaderboard: the bettor ranked on the two multis' CLV, the line saying they are multis.
    const board = await responseMatching(
      await desk.ld.sendCommand({
        user: bettor,
        channelId: desk.ld.channelIds.bets,
        name: 'leaderboard',
        options: { days: 7, min_bets: 2 },
      }),
      /Leaderboard/,
      20_000,
    );
    expect(textOf(board)).toContain(`<@${bettor.id}> CLV ${pct(mean(clvs))} · `);
    expect(textOf(board)).toContain(`profit ${money(pnlCents)} · 2 multis · 2 legs each among them`);

    // /fund tipsters and /fund report (the weekly report's view): the multis in the tipster's line and their own line.
    const tipsters = await flows.command(admin, 'fund', 'tipsters', { period: 'all' }, /Who made the fund's money/);
    expect(tipsters).toContain(`<@${bettor.id}>: **${money(pnlCents)}**`);
    expect(tipsters).toContain(`of them 2 multis · 2 legs each: ${money(pnlCents)}`);
    expect(tipsters).toContain(`**Fund: ${money(pnlCents)}**`);
    const report = await fundReport(desk, admin);
    expect(fieldOf(report, 'Same-race multis (in the lines above)')).toBe(`2 multis · 2 legs each: ${money(pnlCents)}`);
  }, 180_000);
});
