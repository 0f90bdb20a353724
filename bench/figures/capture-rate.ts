// Figure 13: closing line capture on a busy day while members read cards. 300 open bets on the cards of every
// event starting in a 45-minute evening window (the day's bets crowded into its busiest hour), read by the
// capture exactly as the bot wires it (the bot's own gateway client, its limiter's background lane), while
// members run /markets for other events through the bot at two thirds of the card limit. The sandbox runs at
// speed 30 and the client's limiter window is the same 2 real seconds, so the minute is compressed alike.

import type { OpenSportsBet } from '../../src/bot/analytics/closing.js';
import { ClosingCapture } from '../../src/bot/analytics/closing.js';
import { parseConfig } from '../../src/bot/config/config.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { FIXTURE_IDS, type InteractionHandle } from '../../src/local-discord/index.js';
import { loadStartBot } from '../lib/bot-loader.js';
import { countingProxy } from '../lib/counting-proxy.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { classify, type Shown } from '../lib/reply-kind.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';
import { waitFor } from '../lib/wait.js';

const SPEED = 30;
const BETS = 300;
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const WINDOW_MS = 45 * MINUTE;
/** Member card reads per gateway minute (the limit is 120; capture may take a quarter). */
const MEMBER_READS_PER_MINUTE = 80;
const PICKER_KEY = 'sandbox-key-readonly';

interface Card {
  epk: string;
  bookie: string;
  startsAt: number;
  refs: string[];
}

/**
 * Every bound card of the events starting in the busiest window of the next three days (the most events × books
 * starting within WINDOW_MS, the first start at least 40 minutes away), with its bettable market_refs.
 */
async function busiestCards(baseUrl: string, now: number): Promise<Card[]> {
  const client = new GatewayClient({ baseUrl, apiKey: PICKER_KEY });
  try {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const events = (await client.events.all({ since: day(now), until: day(now + 3 * DAY), limit: 500 })).filter(
      (e) => (e.books ?? []).length > 0 && Date.parse(e.start_time) > now + 40 * MINUTE,
    );
    const starts = events.map((e) => Date.parse(e.start_time));
    const weight = (from: number) =>
      events.reduce(
        (n, e, i) =>
          n + ((starts[i] as number) >= from && (starts[i] as number) < from + WINDOW_MS ? (e.books ?? []).length : 0),
        0,
      );
    const from = starts.reduce((best, t) => (weight(t) > weight(best) ? t : best), starts[0] ?? now);
    const cards: Card[] = [];
    for (const [i, e] of events.entries()) {
      const t = starts[i] as number;
      if (t < from || t >= from + WINDOW_MS) continue;
      for (const bookie of e.books ?? []) {
        const card = await client.markets.get({ epk: e.event_id, bookie });
        if (!card.bound || !card.market_ref_betting_enabled) continue;
        const refs = card.markets.flatMap((m) => m.selections.flatMap((s) => (s.market_ref ? [s.market_ref] : [])));
        if (refs.length) cards.push({ epk: e.event_id, bookie, startsAt: t, refs });
      }
    }
    return cards;
  } finally {
    await client.close();
  }
}

/** 300 bets spread over the cards in turn, each on the card's next market_ref. */
function betsOn(cards: Card[]): OpenSportsBet[] {
  return Array.from({ length: BETS }, (_, i) => {
    const card = cards[i % cards.length] as Card;
    const ref = card.refs[Math.floor(i / cards.length) % card.refs.length] as string;
    return {
      betId: `b${i}`,
      sessionId: 's',
      epk: card.epk,
      bookie: card.bookie,
      marketRef: ref,
      startsAt: card.startsAt,
    };
  });
}

export async function captureRate(): Promise<FigureResult[]> {
  const startBot = await loadStartBot();
  const stack = await startStack({ webhook: false, startBotHere: false, sandbox: { speed: SPEED } });
  const sb = stack.sandbox.sb;
  const proxy = await countingProxy(stack.sandbox.url);
  const gateway = new GatewayClient({
    baseUrl: proxy.url,
    apiKey: SANDBOX_KEY,
    marketRateLimit: { perMinute: 120, windowMs: sb.clock.toRealMs(MINUTE) },
  });
  try {
    const cards = await busiestCards(stack.sandbox.url, sb.clock.nowMs());
    if (cards.length === 0) throw new Error('no bound card starts in the window');
    const bets = betsOn(cards);
    const lastStart = Math.max(...cards.map((c) => c.startsAt));
    // Member reads: other events' cards (not those the bets are on), in turn.
    const taken = new Set(cards.map((c) => c.epk));
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const now = sb.clock.nowMs();
    const listing = await gateway.events.all({ since: day(now - 2 * DAY), until: day(now + 5 * DAY), limit: 500 });
    const others = listing
      .filter((e) => !taken.has(e.event_id) && e.status !== 'finished')
      .flatMap((e) => (e.books ?? []).map((bookie) => ({ epk: e.event_id, bookie })));

    const bot = await startBot(parseConfig(stack.env), { gateway });
    const closes = new Map<string, { odds: number; at: number }>();
    const capture = new ClosingCapture({
      bets: { openSportsBets: async () => bets.filter((b) => !(sb.clock.nowMs() >= b.startsAt)) },
      cards: gateway.markets,
      recordClose: (betId, odds, _market, at) => void closes.set(betId, { odds, at }),
      now: () => sb.clock.nowMs(),
    });
    const handles: InteractionHandle[] = [];
    let stop = false;
    try {
      await waitForBotReady(stack.ld);
      // Straight to 31 minutes before the first start: the first reads are due at 30.
      const firstStart = Math.min(...cards.map((c) => c.startsAt));
      sb.clock.advance(Math.max(0, firstStart - 31 * MINUTE - sb.clock.nowMs()));
      proxy.reset();
      const members = (async () => {
        const every = sb.clock.toRealMs(MINUTE / MEMBER_READS_PER_MINUTE);
        for (let i = 0; !stop; i++) {
          const p = others[i % others.length]!;
          handles.push(
            await stack.ld.sendCommand({
              user: FIXTURE_IDS.users.bettor,
              channelId: FIXTURE_IDS.channels.bets,
              name: 'markets',
              options: { event: p.epk, bookie: p.bookie },
            }),
          );
          await new Promise((r) => setTimeout(r, every));
        }
      })();
      let reads = 0;
      let deferred = 0;
      let failed = 0;
      while (sb.clock.nowMs() < lastStart) {
        const pass = await capture.tick();
        reads += pass.read;
        deferred += pass.deferred;
        failed += pass.failed;
        await new Promise((r) => setTimeout(r, 200));
      }
      stop = true;
      await members;
      await waitFor(
        () => handles.every((h) => classify(h.responses()) !== 'none'),
        60_000,
        'every /markets reply',
      ).catch(() => undefined);
      const counts: Record<Shown, number> = { card: 0, 'rate-limit': 0, other: 0, none: 0 };
      for (const h of handles) counts[classify(h.responses())]++;
      const upstream = proxy.count('/v3/markets');
      const refused = proxy.count('/v3/markets', 429);
      const captured = bets.filter((b) => closes.has(b.betId)).length;
      const lastMinute = bets.filter((b) => {
        const c = closes.get(b.betId);
        return c !== undefined && b.startsAt - c.at <= 2 * MINUTE;
      }).length;
      return [
        figure({
          name: '13 closing capture rate (300-bet day, members reading cards)',
          value: (100 * captured) / BETS,
          unit: '%',
          baseline: null,
          target: { on: 'value', op: '>=', limit: 100 },
          note: `${BETS} open bets on ${cards.length} cards (${new Set(cards.map((c) => c.epk)).size} events) starting in the busiest ${WINDOW_MS / MINUTE}-minute window, read 30, 10, 3 and 1 minutes before each start by the capture as the bot wires it; ${captured} bets got a close, ${lastMinute} of them from the read within 2 minutes of the start; ${reads} card reads by the capture (${deferred} left for a later pass, ${failed} failed); sandbox speed ${SPEED}, the card minute compressed alike on both sides`,
        }),
        figure({
          name: '13 card-limit replies to members during capture',
          value: counts['rate-limit'],
          unit: 'replies',
          baseline: null,
          target: { on: 'value', op: '==', limit: 0 },
          note: `${handles.length} /markets by members at ${MEMBER_READS_PER_MINUTE} a gateway minute on other events through the same bot and client (${upstream - reads} member card reads reached the gateway, the rest came from the bot's cache; ${refused} requests answered 429 and retried by the client): ${counts.card} cards, ${counts.other} other notices, ${counts.none} unanswered`,
        }),
      ];
    } finally {
      stop = true;
      await capture.stop();
      await bot.stop();
    }
  } finally {
    await gateway.close();
    await proxy.close();
    await stack.close();
  }
}
