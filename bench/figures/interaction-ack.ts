// Figure 5: 200 concurrent /markets through the local Discord and the sandbox gateway with the real bot:
// time to acknowledge as the local Discord measures it (dispatch to the bot's callback). The bot runs in a
// child process, as in production where Discord and the gateway are not on its CPU; the same load is first
// sent to a bare discord.js bot that only defers, the floor any bot pays on this machine.
import { FIXTURE_IDS, type LocalDiscord } from '../../src/local-discord/index.js';
import { startChildBot } from '../lib/child-bot.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { bookedEvents, type EventPick } from '../lib/sandbox-events.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';
import { percentile } from '../lib/stats.js';
import { waitFor } from '../lib/wait.js';

const CONCURRENT = 200;
/** 200 commands over 100 events: users asking for the same popular cards, as in a busy channel. */
const DISTINCT_EVENTS = 100;
const DISCORD_LIMIT_MS = 3_000;
const CARD_WAIT_MS = 15_000;

interface Burst {
  ms: number[];
  missed: number;
  cardsShown: number;
}

async function burst(ld: LocalDiscord, picks: EventPick[], waitForCards: boolean): Promise<Burst> {
  const send = (i: number) => {
    const p = picks[i % picks.length]!;
    return ld.sendCommand({
      user: FIXTURE_IDS.users.bettor,
      channelId: FIXTURE_IDS.channels.bets,
      name: 'markets',
      options: { event: p.epk, bookie: p.bookie },
    });
  };
  // One command first, not counted: connections and JIT, as after any bot start.
  await (await send(DISTINCT_EVENTS)).acknowledged;
  const handles = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => send(i)));
  const acks = await Promise.allSettled(handles.map((h) => h.acknowledged));
  const ms = acks.flatMap((a) => (a.status === 'fulfilled' ? [a.value.ms] : []));
  const cardsShown = () => handles.filter((h) => h.responses().some((m) => (m.embeds?.length ?? 0) > 0)).length;
  if (waitForCards) await waitFor(() => cardsShown() === CONCURRENT, CARD_WAIT_MS, 'the cards').catch(() => undefined);
  return { ms, missed: acks.length - ms.length, cardsShown: cardsShown() };
}

export async function interactionAck(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: false, startBotHere: false });
  try {
    const { ld } = stack;
    const picks = await bookedEvents(stack.sandbox.url, SANDBOX_KEY, DISTINCT_EVENTS + 1);

    const bare = await startChildBot(stack.env, 'bare');
    let floor: Burst;
    try {
      await waitForBotReady(ld, 'markets');
      floor = await burst(ld, picks, false);
    } finally {
      await bare.stop();
    }
    await waitFor(() => ld.connectedBots === 0, 10_000, 'the bare bot to disconnect');

    const bot = await startChildBot(stack.env, 'bot');
    let real: Burst;
    try {
      await waitForBotReady(ld);
      real = await burst(ld, picks, true);
    } finally {
      await bot.stop();
    }
    if (real.ms.length === 0) throw new Error(`no /markets of ${CONCURRENT} was acknowledged`);
    const floorP99 = floor.ms.length > 0 ? percentile(floor.ms, 99) : null;
    const note = `${CONCURRENT} /markets sent at once over ${DISTINCT_EVENTS} events to the bot in its own process; ${real.missed} not acknowledged within 3 s; ${real.cardsShown}/${CONCURRENT} cards shown within ${CARD_WAIT_MS / 1000} s; baseline: a bare discord.js bot that only defers, same load (p50 ${floor.ms.length ? percentile(floor.ms, 50) : '-'} ms, ${floor.missed} missed)`;
    return [
      figure({
        name: '5 /markets ack p50 (200 concurrent)',
        value: percentile(real.ms, 50),
        unit: 'ms',
        baseline: floor.ms.length > 0 ? percentile(floor.ms, 50) : null,
        target: { on: 'value', op: '<', limit: DISCORD_LIMIT_MS },
        note,
      }),
      figure({
        name: '5 /markets ack p99 (200 concurrent)',
        value: real.missed > 0 ? DISCORD_LIMIT_MS : percentile(real.ms, 99),
        unit: 'ms',
        baseline: floorP99,
        target: { on: 'value', op: '<', limit: 300 },
        note: real.missed > 0 ? `${real.missed} acknowledgements missed the 3 s window; ${note}` : note,
      }),
    ];
  } finally {
    await stack.close();
  }
}
