// Figure 5: 200 concurrent /markets through the local Discord and the sandbox gateway with the real bot:
// time to acknowledge (as the local Discord measures it, from dispatch to the bot's callback).
import { FIXTURE_IDS } from '../../src/local-discord/index.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { bookedEvents } from '../lib/sandbox-events.js';
import { SANDBOX_KEY, startStack } from '../lib/stack.js';
import { percentile } from '../lib/stats.js';
import { waitFor } from '../lib/wait.js';

const CONCURRENT = 200;
/** Distinct events stay under the gateway's 120 cards a minute, so every card can be served within the run. */
const DISTINCT_EVENTS = 100;
const DISCORD_LIMIT_MS = 3_000;

export async function interactionAck(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: false });
  try {
    const { ld } = stack;
    const picks = await bookedEvents(stack.sandbox.url, SANDBOX_KEY, DISTINCT_EVENTS + 1);
    const channelId = FIXTURE_IDS.channels.bets;
    const user = FIXTURE_IDS.users.bettor;
    const send = (i: number) => {
      const p = picks[i % picks.length]!;
      return ld.sendCommand({ user, channelId, name: 'markets', options: { event: p.epk, bookie: p.bookie } });
    };
    // One command first, not counted: connections and JIT, as after any bot start.
    const warm = await send(DISTINCT_EVENTS);
    await warm.acknowledged;

    const t0 = performance.now();
    const handles = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => send(i)));
    const acks = await Promise.allSettled(handles.map((h) => h.acknowledged));
    const ms = acks.flatMap((a) => (a.status === 'fulfilled' ? [a.value.ms] : []));
    const missed = acks.length - ms.length;
    // Every card should also arrive (the deferred reply is edited); bounded wait.
    const answered = () => handles.filter((h) => h.responses().some((m) => (m.embeds?.length ?? 0) > 0)).length;
    await waitFor(() => answered() === CONCURRENT, 60_000, 'every /markets card').catch(() => undefined);
    const allCardsS = (performance.now() - t0) / 1000;
    if (ms.length === 0) throw new Error(`no /markets of ${CONCURRENT} was acknowledged`);
    const note = `${CONCURRENT} /markets sent at once over ${DISTINCT_EVENTS} events; ${missed} not acknowledged within 3 s; ${answered()}/${CONCURRENT} cards shown within ${allCardsS.toFixed(1)} s; ack time as the local Discord measures it; baseline is Discord's 3 s limit`;
    return [
      figure({
        name: '5 /markets ack p50 (200 concurrent)',
        value: percentile(ms, 50),
        unit: 'ms',
        baseline: DISCORD_LIMIT_MS,
        target: { on: 'value', op: '<', limit: DISCORD_LIMIT_MS },
        note,
      }),
      figure({
        name: '5 /markets ack p99 (200 concurrent)',
        value: missed > 0 ? DISCORD_LIMIT_MS : percentile(ms, 99),
        unit: 'ms',
        baseline: DISCORD_LIMIT_MS,
        target: { on: 'value', op: '<', limit: 300 },
        note: missed > 0 ? `${missed} acknowledgements missed the 3 s window; ${note}` : note,
      }),
    ];
  } finally {
    await stack.close();
  }
}
