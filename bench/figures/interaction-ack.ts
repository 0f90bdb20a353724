// Figure 5: 200 concurrent /markets through the local Discord and the sandbox gateway with the real bot:
// time to acknowledge as the local Discord measures it (dispatch to the bot's callback). The bot runs in a
// child process, as in production where Discord and the gateway are not on its CPU; the same load is sent to a
// bare discord.js bot that only defers, the floor any bot pays on this machine. Read as figure 1 reads its sides:
// paired rounds (each round one burst to each bot, in alternating order), the p99 ratio per round, and the median
// of those ratios, so one noisy burst cannot decide it.
import { FIXTURE_IDS, type LocalDiscord } from '../../src/local-discord/index.js';
import { pairedRounds } from '../lib/ab.js';
import { startChildBot } from '../lib/child-bot.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { cpuSecondsOf } from '../lib/proc.js';
import { bookedEvents, type EventPick } from '../lib/sandbox-events.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';
import { median, medianRatio, percentile } from '../lib/stats.js';
import { waitFor } from '../lib/wait.js';

export const CONCURRENT = 200;
/** 200 commands over 100 events: users asking for the same popular cards, as in a busy channel. */
export const DISTINCT_EVENTS = 100;
const DISCORD_LIMIT_MS = 3_000;
const CARD_WAIT_MS = 15_000;
/** Measured rounds (a multiple of 2: each order of the two bots equally often), after one warm-up round each. */
const ROUNDS = 16;
/** The desk's ack p99 against the bare bot's, read per round. */
const P99_RATIO_LIMIT = 1.1;

interface Burst {
  ms: number[];
  missed: number;
  cardsShown: number;
  /** CPU the bot process used over the burst (its card reads and replies included), ms per interaction. */
  cpuMsPer?: number;
}

/** For a trace (bench/ack-trace.ts): called as the measured burst is sent, and once its acknowledgements are in. */
export interface BurstMarks {
  sending(): void;
  acknowledged(): void;
}

export async function burst(
  ld: LocalDiscord,
  picks: EventPick[],
  waitForCards: boolean,
  marks?: BurstMarks,
): Promise<Burst> {
  const send = (i: number) => {
    const p = picks[i % picks.length]!;
    return ld.sendCommand({
      user: FIXTURE_IDS.users.bettor,
      channelId: FIXTURE_IDS.channels.bets,
      name: 'markets',
      options: { event: p.epk, bookie: p.bookie },
    });
  };
  const hasCard = (h: Awaited<ReturnType<typeof send>>) => h.responses().some((m) => (m.embeds?.length ?? 0) > 0);
  // One command first, not counted: connections and JIT, as after any bot start. It is answered in full before the
  // burst (the desk's card shown, the bare bot's defer), so the burst meets an idle bot on both sides: the desk's
  // acknowledgements are not timed against the tail of that card (its read from the sandbox, which runs in this
  // process beside the local Discord, and its render), which the bare bot never has.
  const first = await send(DISTINCT_EVENTS);
  await first.acknowledged;
  if (waitForCards) await waitFor(() => hasCard(first), CARD_WAIT_MS, 'the warm-up card').catch(() => undefined);
  marks?.sending();
  const handles = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => send(i)));
  const acks = await Promise.allSettled(handles.map((h) => h.acknowledged));
  marks?.acknowledged();
  const ms = acks.flatMap((a) => (a.status === 'fulfilled' ? [a.value.ms] : []));
  const cardsShown = () => handles.filter(hasCard).length;
  if (waitForCards) await waitFor(() => cardsShown() === CONCURRENT, CARD_WAIT_MS, 'the cards').catch(() => undefined);
  return { ms, missed: acks.length - ms.length, cardsShown: cardsShown() };
}

/** One burst to a bot started for it (its own process), stopped afterwards. */
async function burstTo(
  stack: Awaited<ReturnType<typeof startStack>>,
  picks: EventPick[],
  which: 'bot' | 'bare',
): Promise<Burst> {
  const { ld } = stack;
  const child = await startChildBot(stack.env, which);
  try {
    await waitForBotReady(ld, which === 'bare' ? 'markets' : undefined);
    const cpu0 = cpuSecondsOf(child.pid);
    const b = await burst(ld, picks, which === 'bot');
    return { ...b, cpuMsPer: ((cpuSecondsOf(child.pid) - cpu0) * 1000) / (CONCURRENT + 1) };
  } finally {
    await child.stop();
    await waitFor(() => ld.connectedBots === 0, 10_000, `the ${which} bot to disconnect`);
  }
}

export async function interactionAck(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: false, startBotHere: false });
  try {
    const picks = await bookedEvents(stack.sandbox.url, SANDBOX_KEY, DISTINCT_EVENTS + 1);
    const bursts: { bot: Burst[]; bare: Burst[] } = { bot: [], bare: [] };
    const p99Of = (b: Burst) => (b.missed > 0 ? DISCORD_LIMIT_MS : percentile(b.ms, 99));
    const side = (which: 'bot' | 'bare') => async () => {
      const b = await burstTo(stack, picks, which);
      if (b.ms.length === 0) throw new Error(`no /markets of ${CONCURRENT} was acknowledged by the ${which} bot`);
      bursts[which].push(b);
      return p99Of(b);
    };
    const [botP99, bareP99] = (await pairedRounds({ rounds: ROUNDS, warmup: 2 }, [side('bot'), side('bare')])) as [
      number[],
      number[],
    ];
    const measuredBot = bursts.bot.slice(-ROUNDS);
    const measuredBare = bursts.bare.slice(-ROUNDS);
    const missed = measuredBot.reduce((n, b) => n + b.missed, 0);
    const cards = measuredBot.map((b) => b.cardsShown).join(', ');
    const rounds = botP99.map((v, i) => `${v.toFixed(0)}/${bareP99[i]!.toFixed(0)}`).join(', ');
    const note = `${CONCURRENT} /markets sent at once over ${DISTINCT_EVENTS} events to the bot in its own process, ${ROUNDS} paired rounds (desk and bare bot alternating first) after a warm-up; ${missed} not acknowledged within 3 s; cards shown per round ${cards} of ${CONCURRENT} within ${CARD_WAIT_MS / 1000} s; p99 desk/bare per round (ms): ${rounds}; the desk's CPU per /markets (defer, card read, card reply) ${median(measuredBot.map((b) => b.cpuMsPer ?? 0)).toFixed(1)} ms, the bare bot's per defer ${median(measuredBare.map((b) => b.cpuMsPer ?? 0)).toFixed(1)} ms`;
    return [
      figure({
        name: '5 /markets ack p50 (200 concurrent)',
        value: median(measuredBot.map((b) => percentile(b.ms, 50))),
        unit: 'ms',
        baseline: median(measuredBare.map((b) => percentile(b.ms, 50))),
        target: { on: 'value', op: '<', limit: DISCORD_LIMIT_MS },
        note,
      }),
      figure({
        name: '5 /markets ack p99 (200 concurrent)',
        value: median(botP99),
        unit: 'ms',
        baseline: median(bareP99),
        ratio: medianRatio(botP99, bareP99),
        target: { on: 'ratio', op: '<=', limit: P99_RATIO_LIMIT },
        note: `median of the per-round ratios of p99s against a bare discord.js bot that only defers (target ≤ ${P99_RATIO_LIMIT}×); ${note}`,
      }),
    ];
  } finally {
    await stack.close();
  }
}
