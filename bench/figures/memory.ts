// Figure 7: the bot's RSS (its own process, after a forced collection) after start and after 1,000
// interactions (/markets over 100 events: card cache, store, embeds, the discord.js caches).
import { FIXTURE_IDS } from '../../src/local-discord/index.js';
import { startChildBot } from '../lib/child-bot.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { bookedEvents } from '../lib/sandbox-events.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';
import { waitFor } from '../lib/wait.js';

const INTERACTIONS = 1_000;
const EVENTS = 100;
const AT_ONCE = 50;
const MB = 1024 * 1024;

export async function memory(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: false, startBotHere: false });
  try {
    // The floor: a logged-in bare discord.js process started the same way (node + tsx, as `npm start` runs).
    const bare = await startChildBot(stack.env, 'bare');
    let floor: { rss: number };
    try {
      await waitForBotReady(stack.ld, 'markets');
      floor = await bare.rss();
    } finally {
      await bare.stop();
    }
    await waitFor(() => stack.ld.connectedBots === 0, 10_000, 'the bare bot to disconnect');
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
      let shown = 0;
      for (let i = 0; i < INTERACTIONS; i += AT_ONCE) {
        const batch = await Promise.all(Array.from({ length: AT_ONCE }, (_, j) => send(i + j)));
        const acks = await Promise.allSettled(batch.map((h) => h.acknowledged));
        acknowledged += acks.filter((a) => a.status === 'fulfilled').length;
        // Let each batch finish (cards edited in) so memory is read with no work in flight.
        const done = () => batch.filter((h) => h.responses().some((m) => (m.embeds?.length ?? 0) > 0)).length;
        await waitFor(() => done() === AT_ONCE, 20_000, 'the batch of cards').catch(() => undefined);
        shown += done();
      }
      const after = await bot.rss();
      const growth = (after.rss - afterStart.rss) / MB;
      const note = `bot alone in a child process (node --expose-gc), RSS after two forced collections; ${acknowledged}/${INTERACTIONS} /markets acknowledged and ${shown} cards shown, ${AT_ONCE} at a time over ${EVENTS} events; heap ${(afterStart.heapUsed / MB).toFixed(1)} -> ${(after.heapUsed / MB).toFixed(1)} MB`;
      return [
        figure({
          name: '7 bot RSS after start',
          value: afterStart.rss / MB,
          unit: 'MB',
          baseline: floor.rss / MB,
          target: { on: 'value', op: '<', limit: 150 },
          note: `baseline: a bare logged-in discord.js process under node + tsx (how npm start runs); ${note}`,
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
