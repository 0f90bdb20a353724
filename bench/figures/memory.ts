// Figure 7: the bot's RSS (its own process, after a forced collection) after start and after 1,000
// interactions (/markets over 100 events: card cache, store, embeds, the discord.js caches).
import { FIXTURE_IDS } from '../../src/local-discord/index.js';
import { type ChildBot, startChildBot } from '../lib/child-bot.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { bookedEvents, type EventPick } from '../lib/sandbox-events.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';
import { waitFor } from '../lib/wait.js';

const INTERACTIONS = 1_000;
const EVENTS = 100;
const AT_ONCE = 50;
const MB = 1024 * 1024;

/** Steady-state RSS: the least of a few reads half a second apart, so a transient peak is not read as size. */
async function settledRss(bot: ChildBot): Promise<{ rss: number; heapUsed: number }> {
  let best = await bot.rss();
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await bot.rss();
    if (now.rss < best.rss) best = now;
  }
  return best;
}

export async function memory(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: false, startBotHere: false });
  try {
    // The floor: a logged-in bare discord.js process started the same way (compiled, plain node, as `npm start` runs).
    const bare = await startChildBot(stack.env, 'bare');
    let floor: { rss: number };
    try {
      await waitForBotReady(stack.ld, 'markets');
      floor = await settledRss(bare);
    } finally {
      await bare.stop();
    }
    await waitFor(() => stack.ld.connectedBots === 0, 10_000, 'the bare bot to disconnect');
    const bot = await startChildBot(stack.env);
    try {
      const { ld } = stack;
      await waitForBotReady(ld);
      const picks = await bookedEvents(stack.sandbox.url, SANDBOX_KEY, EVENTS + 1);
      const sendPick = (p: EventPick) =>
        ld.sendCommand({
          user: FIXTURE_IDS.users.bettor,
          channelId: FIXTURE_IDS.channels.bets,
          name: 'markets',
          options: { event: p.epk, bookie: p.bookie },
        });
      const send = (i: number) => sendPick(picks[i % EVENTS]!);
      // "After start" means ready for users: one /markets answered first (start-up cache warming done).
      const first = await sendPick(picks[EVENTS]!);
      await first.acknowledged;
      await waitFor(() => first.responses().some((m) => (m.embeds?.length ?? 0) > 0), 20_000, 'the first card');
      const afterStart = await settledRss(bot);
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
      const after = await settledRss(bot);
      const growth = (after.rss - afterStart.rss) / MB;
      const note = `bot alone in a child process (compiled by npm run build, node --expose-gc, no tsx), RSS after two forced collections, least of 4 reads 0.5 s apart; ${acknowledged}/${INTERACTIONS} /markets acknowledged and ${shown} cards shown, ${AT_ONCE} at a time over ${EVENTS} events; heap ${(afterStart.heapUsed / MB).toFixed(1)} -> ${(after.heapUsed / MB).toFixed(1)} MB`;
      return [
        figure({
          name: '7 bot RSS after start',
          value: afterStart.rss / MB,
          unit: 'MB',
          baseline: floor.rss / MB,
          target: { on: 'value', op: '<', limit: 150 },
          note: `baseline: a bare logged-in discord.js process, compiled, under plain node (how npm start runs); ${note}`,
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
