// Figure 7: the bot's RSS (its own process, after a forced collection) after start (the median of five starts
// per side) and after 1,000 interactions (/markets over 100 events: card cache, store, embeds, the discord.js caches).
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

/** Starts per side for "after start": one start's RSS moves by up to ±6 MB with nothing changed (a malloc arena). */
const STARTS = 5;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
type Stack = Awaited<ReturnType<typeof startStack>>;

const disconnected = (stack: Stack) => waitFor(() => stack.ld.connectedBots === 0, 10_000, 'the bot to disconnect');

/** One start of the floor: a logged-in bare discord.js process started the same way, read, stopped. */
async function bareStart(stack: Stack): Promise<number> {
  const bare = await startChildBot(stack.env, 'bare');
  try {
    await waitForBotReady(stack.ld, 'markets');
    return (await settledRss(bare)).rss;
  } finally {
    await bare.stop();
    await disconnected(stack);
  }
}

/** One start of the desk, read once it has answered one /markets (start-up cache warming done); left running. */
async function deskStart(
  stack: Stack,
  sendPick: (p: EventPick) => ReturnType<Stack['ld']['sendCommand']>,
  pick: EventPick,
) {
  const bot = await startChildBot(stack.env);
  try {
    await waitForBotReady(stack.ld);
    const first = await sendPick(pick);
    await first.acknowledged;
    await waitFor(() => first.responses().some((m) => (m.embeds?.length ?? 0) > 0), 20_000, 'the first card');
    return { bot, read: await settledRss(bot) };
  } catch (err) {
    await bot.stop();
    throw err;
  }
}

export async function memory(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: false, startBotHere: false });
  try {
    const { ld } = stack;
    const picks = await bookedEvents(stack.sandbox.url, SANDBOX_KEY, EVENTS + 1);
    const sendPick = (p: EventPick) =>
      ld.sendCommand({
        user: FIXTURE_IDS.users.bettor,
        channelId: FIXTURE_IDS.channels.bets,
        name: 'markets',
        options: { event: p.epk, bookie: p.bookie },
      });
    // Starts alternate, floor then desk, so both sides meet the same moments of the machine; each side's median is
    // read. The last desk start stays up for the 1,000 interactions.
    const bareRss: number[] = [];
    const deskRss: number[] = [];
    let last: Awaited<ReturnType<typeof deskStart>> | undefined;
    for (let i = 0; i < STARTS; i++) {
      if (last) {
        await last.bot.stop();
        await disconnected(stack);
      }
      bareRss.push(await bareStart(stack));
      last = await deskStart(stack, sendPick, picks[EVENTS]!);
      deskRss.push(last.read.rss);
    }
    const { bot, read: afterStart } = last!;
    try {
      const send = (i: number) => sendPick(picks[i % EVENTS]!);
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
      const starts = (xs: number[]) => xs.map((x) => (x / MB).toFixed(1)).join(', ');
      const note = `bot alone in a child process (compiled by npm run build, node --expose-gc, no tsx), RSS after two forced collections, least of 4 reads 0.5 s apart; ${acknowledged}/${INTERACTIONS} /markets acknowledged and ${shown} cards shown, ${AT_ONCE} at a time over ${EVENTS} events; heap ${(afterStart.heapUsed / MB).toFixed(1)} -> ${(after.heapUsed / MB).toFixed(1)} MB`;
      return [
        figure({
          name: '7 bot RSS after start',
          value: median(deskRss) / MB,
          unit: 'MB',
          baseline: median(bareRss) / MB,
          target: { on: 'value', op: '<', limit: 150 },
          note: `median of ${STARTS} starts per side, alternating floor and desk (desk ${starts(deskRss)} MB; floor ${starts(bareRss)} MB); baseline: a bare logged-in discord.js process, compiled, under plain node (how npm start runs); ${note}`,
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
