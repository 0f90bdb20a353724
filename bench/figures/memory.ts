// Figure 7: the bot's RSS (its own process, after a forced collection) after start and after 1,000
// interactions (/markets over 100 events: card cache, store, embeds, the discord.js caches).
import { FIXTURE_IDS } from '../../src/local-discord/index.js';
import { startChildBot } from '../lib/child-bot.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { bookedEvents } from '../lib/sandbox-events.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';

const INTERACTIONS = 1_000;
const EVENTS = 100;
const AT_ONCE = 50;
const MB = 1024 * 1024;

export async function memory(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: false, startBotHere: false });
  try {
    const bot = await startChildBot(stack.env);
    try {
      const { ld } = stack;
      await waitForBotReady(ld);
      const picks = await bookedEvents(stack.sandbox.url, SANDBOX_KEY, EVENTS);
      const send = (i: number) => {
        const p = picks[i % picks.length]!;
        return ld.sendCommand({
          user: FIXTURE_IDS.users.bettor,
          channelId: FIXTURE_IDS.channels.bets,
          name: 'markets',
          options: { event: p.epk, bookie: p.bookie },
        });
      };
      const afterStart = await bot.rss();
      let acknowledged = 0;
      for (let i = 0; i < INTERACTIONS; i += AT_ONCE) {
        const batch = await Promise.all(Array.from({ length: AT_ONCE }, (_, j) => send(i + j)));
        const acks = await Promise.allSettled(batch.map((h) => h.acknowledged));
        acknowledged += acks.filter((a) => a.status === 'fulfilled').length;
      }
      const after = await bot.rss();
      const growth = (after.rss - afterStart.rss) / MB;
      const note = `bot alone in a child process (node --expose-gc), RSS after two forced collections; ${acknowledged}/${INTERACTIONS} /markets acknowledged, ${AT_ONCE} at a time over ${EVENTS} events; heap ${(afterStart.heapUsed / MB).toFixed(1)} -> ${(after.heapUsed / MB).toFixed(1)} MB`;
      return [
        figure({
          name: '7 bot RSS after start',
          value: afterStart.rss / MB,
          unit: 'MB',
          baseline: null,
          target: { on: 'value', op: '<', limit: 150 },
          note,
        }),
        figure({
          name: '7 bot RSS after 1,000 interactions',
          value: after.rss / MB,
          unit: 'MB',
          baseline: afterStart.rss / MB,
          target: { on: 'value', op: '<', limit: 150 },
          note,
        }),
        figure({
          name: '7 bot RSS growth over 1,000 interactions',
          value: growth,
          unit: 'MB',
          baseline: null,
          target: { on: 'value', op: '<', limit: 20 },
          note,
        }),
      ];
    } finally {
      await bot.stop();
    }
  } finally {
    await stack.close();
  }
}
