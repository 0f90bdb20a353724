// Figure 27: the watch scheduler on 500 watched cards under the 120-a-minute card budget, on a simulated clock.
// The sandbox runs in this process with its clock all but stopped (speed 1e-9) and is stepped 2 s at a time; the
// bot's WatchEngine (its real planner, store on SQLite, card reads over HTTP through the library's limiter, whose
// clock is the sandbox's) ticks after each step. Every card re-scrapes on the sandbox's own model (all books every
// 5 minutes); 50 watched selections a cycle are moved past or back from their price watch's target at the next
// scrape, so alerts fire. In the same run, on the same world and budget: a naive round-robin (another API key, the
// same limiter) reading the same cards in turn as fast as the budget allows, and the ideal schedule (it knows when
// each card changes and reads each once after its change, in the same priority order, through the same limiter).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CardLimitRefusal, type Catalog, cardLimitMessage } from '../../src/bot/catalog/catalog.js';
import { silentLogger } from '../../src/bot/config/logger.js';
import { nonceOf, Outbox } from '../../src/bot/outbox/outbox.js';
import { openStore } from '../../src/bot/store/index.js';
import { cardDigest, WatchEngine } from '../../src/bot/watch/engine.js';
import { priorityCompare } from '../../src/bot/watch/model/read-schedule.js';
import { alertView } from '../../src/bot/watch/views/watch.js';
import { CardLimitError, GatewayClient, type LimiterClock, MarketsLimiter } from '../../src/gateway/index.js';
import { type SimWorld, startSandbox } from '../../src/sandbox/index.js';
import { isBettable } from '../../src/sandbox/world/card-view.js';
import { DRIFT_STEP_MS, scrapeTime } from '../../src/sandbox/world/drift.js';
import { type FigureResult, figure, type Target } from '../lib/figure.js';
import { percentile } from '../lib/stats.js';
import {
  type CardChange,
  type CardReadLog,
  coverage,
  readTimesByCard,
  waitsToRead,
  wastedReads,
} from '../lib/watch-measures.js';

export const WATCHED_CARDS = 500;
const PER_MINUTE = 120;
const TICK_MS = 2_000;
/** The sandbox's re-scrape step: every card of every book changes then. */
const CYCLE_MS = DRIFT_STEP_MS;
/** The scheduler learns each book's cadence first (three re-scrapes); the measures count from here. */
const WARM_MS = 20 * 60_000;
const MEASURE_MS = 60 * 60_000;
const MOVES_PER_CYCLE = 50;
const TARGET = 50;
const KEYS = { scheduler: 'sandbox-key-alpha', roundRobin: 'sandbox-key-bravo' };

interface Card {
  key: string;
  epk: string;
  bookie: string;
  startsAt: number;
  market: string;
  selection: string;
}

/** The library's limiter on the sandbox's clock: the whole key's 120 a minute open to this lane (no members here). */
function limiterOn(clock: LimiterClock) {
  return { perMinute: PER_MINUTE, backgroundShare: 1, clock };
}

export async function watchSchedule(): Promise<FigureResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-watch-'));
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    quiet: true,
    control: true,
    speed: 1e-9,
    start: new Date('2026-03-02T08:00:00Z'),
  });
  const { sb } = sandbox;
  const now = () => sb.clock.nowMs();
  const clock: LimiterClock = { now, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: clearTimeout };
  const client = (apiKey: string) =>
    new GatewayClient({ baseUrl: sandbox.url, apiKey, marketRateLimit: limiterOn(clock) });
  const schedClient = client(KEYS.scheduler);
  const rrClient = client(KEYS.roundRobin);
  const store = await openStore(`sqlite://${join(dir, 'watch.sqlite')}`);
  try {
    const t0 = now();
    const cards = pickCards(sb.world, t0);
    const schedLog: CardReadLog[] = [];
    const catalog = {
      async refreshCard(epk: string, bookie: string) {
        try {
          const card = await schedClient.markets.get({ epk, bookie }, { maxQueueMs: 0, lane: 'background' });
          schedLog.push({ card: `${epk}|${bookie}`, at: now(), digest: cardDigest(card) });
          return card;
        } catch (err) {
          if (err instanceof CardLimitError) throw new CardLimitRefusal(cardLimitMessage(err.retryAfterMs ?? 0));
          throw err;
        }
      },
    } as unknown as Catalog;
    /**
     * The bot's outbox on the same store: an alert is recorded there, and its post is measured when the poster
     * (Discord's side of it; posting through discord.js REST is figure 6's path) accepted it, on the simulated clock.
     * The outbox runs beside the loop as it does in the bot: a post not out before the next step counts the step.
     */
    const recorded: { key: string; at: number }[] = [];
    const posted: { key: string; at: number }[] = [];
    const keyOfNonce = new Map<string, string>();
    let postIds = 0;
    const outbox = new Outbox({
      store,
      logger: silentLogger,
      now,
      owner: 'bench',
      poster: {
        async edit() {},
        async post(_channelId, _view, nonce) {
          const key = keyOfNonce.get(nonce ?? '');
          if (key) posted.push({ key, at: now() });
          return String(++postIds);
        },
      },
    });
    const recordingOutbox = {
      async create(key: string, channelId: string, view: Parameters<Outbox['create']>[2]) {
        recorded.push({ key: `create:${key}`, at: now() });
        keyOfNonce.set(nonceOf(key), `create:${key}`);
        await outbox.create(key, channelId, view);
      },
    } as unknown as Outbox;
    const engine = new WatchEngine({
      alertView,
      store,
      catalog,
      outbox: recordingOutbox,
      logger: silentLogger,
      now,
      tickMs: TICK_MS,
      // The bot's defaults (WATCH_FALLBACK_SECONDS 60; probes a sixth of it; 30 minutes at most unread).
      schedule: { fallbackMs: 60_000, probeMs: 10_000, maxStaleMs: 30 * 60_000 },
    });
    for (const c of cards) {
      await engine.repo.add({
        guildId: 'g',
        userId: 'u',
        scope: 'server',
        channelId: 'alerts',
        epk: c.epk,
        eventName: c.epk,
        startsAt: c.startsAt,
        books: [c.bookie],
        market: c.market,
        selection: c.selection,
        selectionLabel: c.selection,
        bookie: c.bookie,
        rule: { kind: 'price', target: TARGET, direction: 'above' },
      });
    }

    const rr = roundRobin(cards, rrClient, now);
    const ideal = idealSchedule(cards, new MarketsLimiter(limiterOn(clock)), sb.world.priceEpochMs, now);
    const up = new Map<string, boolean>();
    /** Moves up past the target, by card: when they land. */
    const upMoves: CardChange[] = [];
    let moveRound = 0;
    let nextScrape = 0;
    const end = t0 + WARM_MS + MEASURE_MS;
    while (now() < end) {
      if (now() >= nextScrape) {
        // At every re-scrape (and the start): the next 50 cards in turn move at the following one, alternately
        // past the target (an alert) and back under its band (the episode closes).
        for (let i = 0; i < MOVES_PER_CYCLE; i++) {
          const c = cards[(moveRound * MOVES_PER_CYCLE + i) % cards.length]!;
          const goUp = !up.get(c.key);
          up.set(c.key, goUp);
          const move = sb.world.scheduleMove({
            bookie: c.bookie,
            epk: c.epk,
            market: c.market,
            selection: c.selection,
            factor: 1,
            price: goUp ? TARGET * 1.2 : TARGET * 0.4,
          });
          if (goUp) upMoves.push({ card: c.key, at: move.atMs });
        }
        moveRound++;
        nextScrape = sb.world.nextScrapeMs();
      }
      await engine.tick();
      await rr.tick();
      ideal.tick();
      sb.clock.advance(TICK_MS);
    }

    await outbox.idle();
    const from = t0 + WARM_MS;
    // Changes: each watched card at each re-scrape inside the measured span (the sandbox re-scrapes every card of
    // every book at each step; the wasted-read counts below check that from the cards' contents).
    const changes: CardChange[] = [];
    for (let at = sb.world.nextScrapeMs(from - 1) - CYCLE_MS; at < end - CYCLE_MS; at += CYCLE_MS) {
      if (at < from) continue;
      for (const c of cards) changes.push({ card: c.key, at });
    }
    const schedReads = readTimesByCard(schedLog);
    const floorWaits = waitsToRead(changes, readTimesByCard(ideal.reads));
    const alertKeyCard = new Map<string, string>();
    for (const r of recorded) {
      const alert = await engine.repo.alert(r.key.replace(/^create:watch:/, ''));
      if (alert) alertKeyCard.set(r.key, `${alert.payload.epk}|${alert.payload.bookie}`);
    }
    const byCard = (xs: { key: string; at: number }[]) =>
      readTimesByCard(xs.map((r) => ({ card: alertKeyCard.get(r.key) ?? '', at: r.at })));
    const measuredUps = upMoves.filter((m) => m.at >= from && m.at < end - CYCLE_MS);
    // The latency ends when the alert's outbox record was posted (Discord accepted it), not when it was recorded.
    const alertWaits = waitsToRead(measuredUps, byCard(posted));
    const recordedWaits = waitsToRead(measuredUps, byCard(recorded));
    const missedAlerts = measuredUps.length - alertWaits.length;
    const cov = coverage(changes, schedReads, CYCLE_MS);
    const schedMeasured = schedLog.filter((r) => r.at >= from);
    const rrMeasured = rr.log.filter((r) => r.at >= from);
    const schedWasted = wastedReads(schedLog, from);
    const rrWasted = wastedReads(rr.log, from);
    const s = (ms: number) => ms / 1000;
    const p = (xs: number[], q: number) => (xs.length === 0 ? Number.NaN : percentile(xs, q));
    const setting = `${cards.length} watched cards (${new Set(cards.map((c) => c.bookie)).size} books, one price watch each), ${PER_MINUTE} card reads a minute open to the watch lane (no member reads in this run), the sandbox re-scraping every card each ${CYCLE_MS / 60_000} min; simulated clock stepped ${TICK_MS / 1000} s, ${WARM_MS / 60_000} min to learn then ${MEASURE_MS / 60_000} min measured`;
    const floorNote = `floor: the ideal schedule (reads each card once after each re-scrape, same order and limiter) p50 ${s(p(floorWaits, 50)).toFixed(1)} s, p99 ${s(p(floorWaits, 99)).toFixed(1)} s over ${floorWaits.length} changes`;
    const latency = (q: 50 | 99, name: string, target: Target, note: string) =>
      figure({ name, value: s(p(alertWaits, q)), unit: 's', baseline: s(p(floorWaits, q)), target, note });
    return [
      latency(
        50,
        '27 watch alert latency p50 (500 cards, 120/min)',
        { on: 'ratio', op: '>=', limit: 0 },
        `information; from the re-scrape that moved the price to the alert's outbox record posted (the poster accepted it; to the record written: p50 ${s(p(recordedWaits, 50)).toFixed(1)} s, p99 ${s(p(recordedWaits, 99)).toFixed(1)} s; discord.js REST is figure 6's path), ${alertWaits.length} alerts of ${measuredUps.length} moves past the target (${missedAlerts} without an alert by the run's end); ${floorNote}; ${setting}`,
      ),
      latency(
        99,
        '27 watch alert latency p99 vs the floor',
        { on: 'ratio', op: '<=', limit: 1.5 },
        `${floorNote}; ${alertWaits.length} alerts`,
      ),
      figure({
        name: '27 watch coverage (changes read within one re-scrape)',
        value: cov * 100,
        unit: '%',
        baseline: null,
        target: { on: 'value', op: '>=', limit: 95 },
        note: `${changes.length} card changes in the measured span; the ideal schedule ${(coverage(changes, readTimesByCard(ideal.reads), CYCLE_MS) * 100).toFixed(1)} %, the round-robin ${(coverage(changes, readTimesByCard(rr.log), CYCLE_MS) * 100).toFixed(1)} %`,
      }),
      figure({
        name: '27 watch wasted reads vs round-robin',
        value: schedWasted,
        unit: 'reads',
        baseline: rrWasted,
        target: { on: 'ratio', op: '<=', limit: 0.5 },
        note: `reads whose card showed what its previous read did, measured span: scheduler ${schedWasted} of ${schedMeasured.length} reads, round-robin ${rrWasted} of ${rrMeasured.length}; whole run with the learning: scheduler ${wastedReads(schedLog)} of ${schedLog.length}, round-robin ${wastedReads(rr.log)} of ${rr.log.length}`,
      }),
    ];
  } finally {
    await schedClient.close();
    await rrClient.close();
    await store.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 500 cards: the first bettable selection of the first market with one at each book of events starting 3 h or more after `t0`. */
function pickCards(world: SimWorld, t0: number): Card[] {
  const cards: Card[] = [];
  const events = world
    .allEvents(t0)
    .filter((ev) => !ev.isOutright && ev.startMs > t0 + 3 * 3600_000)
    .sort((a, b) => a.startMs - b.startMs || a.epk.localeCompare(b.epk));
  for (const ev of events) {
    for (const link of ev.links) {
      if (cards.length >= WATCHED_CARDS) return cards;
      if (link.linkedFromMs > t0) continue;
      // A selection the card shows (GET /v3/markets lists bettable rows only by default).
      const market = world.card(ev, link.bookie).find((m) => m.selections.some(isBettable));
      const selection = market?.selections.find(isBettable);
      if (!market || !selection) continue;
      cards.push({
        key: `${ev.epk}|${link.bookie}`,
        epk: ev.epk,
        bookie: link.bookie,
        startsAt: ev.startMs,
        market: market.market,
        selection: selection.slug,
      });
    }
  }
  if (cards.length < WATCHED_CARDS) throw new Error(`the sandbox lists only ${cards.length} cards to watch`);
  return cards;
}

/** The naive schedule: every card in turn, as many reads each step as the budget lets through. */
function roundRobin(cards: readonly Card[], client: GatewayClient, now: () => number) {
  const log: CardReadLog[] = [];
  let i = 0;
  return {
    log,
    async tick() {
      for (;;) {
        const c = cards[i % cards.length]!;
        try {
          const card = await client.markets.get(
            { epk: c.epk, bookie: c.bookie },
            { maxQueueMs: 0, lane: 'background' },
          );
          log.push({ card: c.key, at: now(), digest: cardDigest(card) });
          i++;
        } catch (err) {
          if (err instanceof CardLimitError) return;
          throw err;
        }
      }
    },
  };
}

/**
 * The ideal schedule: it knows each re-scrape's time (the sandbox's step) and reads a card only when it changed
 * since its last read, in the scheduler's priority order, through a limiter of the same budget. Its waits are the
 * floor: no schedule sees a change before reading the card once after it.
 */
function idealSchedule(cards: readonly Card[], limiter: MarketsLimiter, epochMs: number, now: () => number) {
  const reads: { card: string; at: number }[] = [];
  const lastRead = new Map<string, number>();
  return {
    reads,
    tick() {
      const t = now();
      const lastScrape = scrapeTime(t, epochMs);
      const due = cards
        .filter((c) => (lastRead.get(c.key) ?? Number.NEGATIVE_INFINITY) < lastScrape)
        .map((c) => ({
          card: c,
          state: {
            epk: c.epk,
            bookie: c.bookie,
            readAt: lastRead.get(c.key) ?? null,
            changedAt: null,
            startsAt: c.startsAt,
            watches: 1,
            edge: 0,
          },
        }))
        .sort((a, b) => priorityCompare(t)(a.state, b.state));
      for (const { card } of due) {
        if (limiter.estimateWaitMs({ lane: 'background' }) > 0) return;
        void limiter.acquire({ lane: 'background', maxQueueMs: 0 }).then((grant) => limiter.settle(grant));
        lastRead.set(card.key, t);
        reads.push({ card: card.key, at: t });
      }
    },
  };
}
