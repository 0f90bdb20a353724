// Figure 20: what the fair-price line costs a slip. The slip factory makes the same sports slip (a named book, its
// price check at the sandbox at real speed, the slip stored in SQLite) with the line and without it, alternately,
// in paired rounds; the ratio is the median of the per-round ratios, against the 1.1 target. The other books' cards
// are in the catalog's cache after the first round, as they are after any /compare or /bet on the event.
// Its second row: a 4-leg same-race multi's slip (the race read at every book in one price check, the Harville fair
// price) against the single's slip with the line, in paired rounds the same way, against the 1.2 target (issue 46).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SetBank } from '../../src/bot/betting/bank.js';
import { SlipFactory } from '../../src/bot/betting/slip-factory.js';
import { SlipRepo } from '../../src/bot/betting/slips.js';
import { Catalog } from '../../src/bot/catalog/catalog.js';
import { parseConfig } from '../../src/bot/config/config.js';
import { bettable } from '../../src/bot/model/markets.js';
import { openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { localDay, type Race, raceStartMs, TRACKS } from '../../src/sandbox/world/racing.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { median, medianRatio } from '../lib/stats.js';

const ROUNDS = 20;
const BOOKS = ['bookie_a', 'bookie_b', 'bookie_c'];

export const MULTI_ROW = "20 slip time of a 4-leg same-race multi vs a single's";
export const MULTI_RACING_ROW = "20 slip time of a 4-leg same-race multi vs a racing single's";

/** The first thoroughbred race of at least 4 runners that jumps more than an hour from now. */
function openRace(
  world: { race(track: string, n: number, type: string, date: string): Race | undefined },
  now: number,
): Race {
  for (const def of TRACKS.filter((t) => t.race_type === 'R')) {
    for (const dayOffset of [0, 1]) {
      const date = localDay(def, now + dayOffset * 86_400_000);
      for (let n = 1; n <= 8; n++) {
        if (raceStartMs(def, n, date) < now + 3_600_000) continue;
        const race = world.race(def.track, n, 'R', date);
        if (race && race.runners.length >= 4) return race;
      }
    }
  }
  throw new Error('no thoroughbred race of 4 runners open in the next two days');
}

export async function slipEdgeTime(): Promise<FigureResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-slip-edge-'));
  const sandbox = await startSandbox({ quiet: true });
  const gateway = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key-alpha' });
  const store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
  try {
    const catalog = new Catalog(gateway, store);
    const { tunables } = parseConfig({ GATEWAY_BASE_URL: sandbox.url, GATEWAY_API_KEY: 'sandbox-key-alpha' });
    const events = await catalog.loadEvents({ status: 'prematch' });
    const event = events.find((e) => e.sport !== 'basketball' && BOOKS.every((b) => e.books?.includes(b)));
    if (!event) throw new Error('no prematch event listed by all three books');
    const card = await catalog.loadCard(event.event_id, 'bookie_a');
    const market = card.markets.find((m) => m.market === 'head_to_head') ?? card.markets[0];
    const sel = market ? bettable(market)[0] : undefined;
    if (!sel) throw new Error(`no bettable selection on ${event.event_id} at bookie_a`);
    const guildId = 'bench-guild';
    await SetBank.set(store, guildId, 10_000, Date.now());
    const deps = {
      gateway,
      store,
      catalog,
      slips: new SlipRepo(store),
      tunables,
      callbackUrl: undefined,
      now: Date.now,
      bank: new SetBank(store),
    };
    const variants = { with: new SlipFactory(deps), without: new SlipFactory({ ...deps, fairPrice: false }) };
    const req = {
      guildId,
      channelId: 'bench-channel',
      userId: 'bench-user',
      epk: event.event_id,
      bookie: 'bookie_a',
      marketRef: sel.market_ref,
      stakeCents: 200,
    };
    const time = async (f: SlipFactory) => {
      const t0 = performance.now();
      const slip = await f.prepareSlip(req);
      const ms = performance.now() - t0;
      return { ms, slip };
    };
    // Warm-up: caches, connections, and a check that the line is there with it and absent without it.
    const warm = await time(variants.with);
    await time(variants.without);
    if (!warm.slip.payload.edge) throw new Error('the slip made with the line carries no fair price');
    const withMs: number[] = [];
    const withoutMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
      for (const v of order) (v === 'with' ? withMs : withoutMs).push((await time(variants[v])).ms);
    }
    const books = warm.slip.payload.edge.books;
    const race = openRace(sandbox.sb.world, Date.now());
    const positions = ['win', 'top2', 'top3', 'top4'] as const;
    const multiReq = {
      guildId,
      channelId: 'bench-channel',
      userId: 'bench-user',
      bookie: 'bookie_a',
      track: race.track,
      raceNum: race.race_num,
      raceType: '(R)' as const,
      date: race.date,
      legs: positions.map((position, i) => ({ runner: race.runners[i]?.name ?? '', position })),
      stakeCents: 200,
    };
    const timeMulti = async () => {
      const t0 = performance.now();
      const slip = await variants.with.prepareMultiSlip(multiReq);
      return { ms: performance.now() - t0, slip };
    };
    const warmMulti = await timeMulti();
    if (warmMulti.slip.payload.multi?.probability === undefined)
      throw new Error('the multi slip carries no fair price');
    const racingReq = { ...multiReq, runner: race.runners[0]?.name ?? '', market: 'win' as const };
    const timeRacing = async () => {
      const t0 = performance.now();
      await variants.with.prepareRacingSlip(racingReq);
      return { ms: performance.now() - t0 };
    };
    await timeRacing();
    const multiMs: number[] = [];
    const singleMs: number[] = [];
    const racingMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const runs = [
        async () => singleMs.push((await time(variants.with)).ms),
        async () => multiMs.push((await timeMulti()).ms),
        async () => racingMs.push((await timeRacing()).ms),
      ];
      for (const run of i % 2 === 0 ? runs : runs.reverse()) await run();
    }
    return [
      figure({
        name: '20 slip time with the fair-price line vs without',
        value: median(withMs),
        unit: 'ms',
        baseline: median(withoutMs),
        ratio: medianRatio(withMs, withoutMs),
        target: { on: 'ratio', op: '<=', limit: 1.1 },
        note: `${ROUNDS} paired rounds, order alternating; the slip factory against the sandbox at real speed (price check polled), SQLite store; the line from ${books} book(s)' cards in the catalog's cache; medians ${median(withMs).toFixed(1)} ms with, ${median(withoutMs).toFixed(1)} ms without`,
      }),
      figure({
        name: MULTI_ROW,
        value: median(multiMs),
        unit: 'ms',
        baseline: median(singleMs),
        ratio: medianRatio(multiMs, singleMs),
        target: { on: 'ratio', op: '<=', limit: 1.2 },
        note: `${ROUNDS} paired rounds, order alternating; ${race.track} R${race.race_num} at bookie_a, legs win/top 2/top 3/top 4, its fair price from ${warmMulti.slip.payload.multi.books} book(s)' win prices read in one price check; medians ${median(multiMs).toFixed(1)} ms multi, ${median(singleMs).toFixed(1)} ms single (a sports slip, whose price check the sandbox answers in its 202; a racing price check is a job)`,
      }),
      figure({
        name: MULTI_RACING_ROW,
        value: median(multiMs),
        unit: 'ms',
        baseline: median(racingMs),
        ratio: medianRatio(multiMs, racingMs),
        target: { on: 'ratio', op: '<=', limit: 1.2 },
        note: `the same rounds; the racing single's slip (/bet-racing: one runner's price check at the book, no fair line) on the same race; medians ${median(multiMs).toFixed(1)} ms multi, ${median(racingMs).toFixed(1)} ms racing single`,
      }),
    ];
  } finally {
    await gateway.close();
    await store.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
