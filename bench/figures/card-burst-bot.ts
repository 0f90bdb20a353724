// Figure 8 through the bot: 300 /markets for distinct events inside one gateway minute, by users in the local
// Discord; counts what users are shown (cards, rate-limit notices, other notices), then the same 300 again
// (cards from the bot's cache). The sandbox runs at speed 20 and the bot's client's limiter window is the same
// 3 real seconds, so the minute is compressed for both sides alike; requests are counted at a proxy.
import { parseConfig } from '../../src/bot/config/config.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { FIXTURE_IDS, type InteractionHandle } from '../../src/local-discord/index.js';
import { loadStartBot } from '../lib/bot-loader.js';
import { countingProxy } from '../lib/counting-proxy.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { classify, type Shown } from '../lib/reply-kind.js';
import { bookedEvents, type EventPick } from '../lib/sandbox-events.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';
import { waitFor } from '../lib/wait.js';

const SPEED = 20;
const CARDS = 300;

export async function cardBurstBot(): Promise<FigureResult[]> {
  const startBot = await loadStartBot();
  const stack = await startStack({ webhook: false, startBotHere: false, sandbox: { speed: SPEED } });
  const proxy = await countingProxy(stack.sandbox.url);
  const gateway = new GatewayClient({
    baseUrl: proxy.url,
    apiKey: SANDBOX_KEY,
    marketRateLimit: { perMinute: 120, windowMs: stack.sandbox.sb.clock.toRealMs(60_000) },
  });
  try {
    const picks = await bookedEvents(stack.sandbox.url, SANDBOX_KEY, CARDS);
    const bot = await startBot(parseConfig(stack.env), { gateway });
    try {
      const { ld } = stack;
      await waitForBotReady(ld);
      const pass = async (list: EventPick[]) => {
        const handles: InteractionHandle[] = await Promise.all(
          list.map((p) =>
            ld.sendCommand({
              user: FIXTURE_IDS.users.bettor,
              channelId: FIXTURE_IDS.channels.bets,
              name: 'markets',
              options: { event: p.epk, bookie: p.bookie },
            }),
          ),
        );
        const acks = await Promise.allSettled(handles.map((h) => h.acknowledged));
        const settled = () => handles.filter((h) => classify(h.responses()) !== 'none').length;
        await waitFor(() => settled() === handles.length, 60_000, 'every /markets reply').catch(() => undefined);
        const counts: Record<Shown, number> = { card: 0, 'rate-limit': 0, other: 0, none: 0 };
        for (const h of handles) counts[classify(h.responses())]++;
        return { counts, unacknowledged: acks.filter((a) => a.status === 'rejected').length };
      };
      proxy.reset();
      const t0 = performance.now();
      const first = await pass(picks);
      const firstS = (performance.now() - t0) / 1000;
      const upstreamFirst = proxy.count('/v3/markets');
      const refused = proxy.count('/v3/markets', 429);
      const second = await pass(picks);
      const upstreamSecond = proxy.count('/v3/markets') - upstreamFirst;
      return [
        figure({
          name: '8 card burst: 429s shown to users (bot)',
          value: first.counts['rate-limit'] + second.counts['rate-limit'],
          unit: 'replies',
          baseline: null,
          target: { on: 'value', op: '==', limit: 0 },
          note: `${CARDS} /markets for distinct events at once, the gateway minute compressed to ${60 / SPEED} s on both sides (sandbox speed ${SPEED}): ${first.counts.card} cards, ${first.counts.other} other notices, ${first.counts.none} unanswered, ${first.unacknowledged} unacknowledged, all in ${firstS.toFixed(1)} s (${((firstS * SPEED) / 60).toFixed(1)} gateway minutes); ${upstreamFirst} card requests reached the gateway, ${refused} of them answered 429 and retried by the client`,
        }),
        figure({
          name: '8 card burst: repeat reads sent upstream (bot cache)',
          value: upstreamSecond,
          unit: 'requests',
          baseline: CARDS,
          target: { on: 'value', op: '==', limit: 0 },
          note: `the same ${CARDS} /markets again: ${second.counts.card} cards shown, ${second.counts['rate-limit']} rate-limit notices; baseline is one request per card without a cache`,
        }),
      ];
    } finally {
      await bot.stop();
    }
  } finally {
    await gateway.close();
    await proxy.close();
    await stack.close();
  }
}
