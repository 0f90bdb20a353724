// Figure 18: 100 /fund me at once through the local Discord, the real bot in its own process over a fund of 100
// members and 5,000 open bets: the time to acknowledge each, as the local Discord measures it (target: p99 < 300 ms).

import { openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { FIXTURE_IDS } from '../../src/local-discord/index.js';
import { startChildBot } from '../lib/child-bot.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { seedFund } from '../lib/fund-seed.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';
import { percentile } from '../lib/stats.js';
import { waitFor } from '../lib/wait.js';

const CONCURRENT = 100;

export async function fundMeAck(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: false, startBotHere: false });
  try {
    const { ld } = stack;
    const client = new GatewayClient({ baseUrl: stack.sandbox.url, apiKey: SANDBOX_KEY });
    const sessionId = (await client.sessions.list()).find((s) => s.bookie === 'bookie_a' && s.active)?.session_id ?? '';
    await client.close();
    const store = await openStore(stack.env.STORE_URL as string);
    try {
      await seedFund(store, { guildKey: ld.guildId, members: 100, openBets: 5_000, sessionId, now: Date.now() });
      // The members who ask hold units too.
      for (const id of [FIXTURE_IDS.users.bettor, FIXTURE_IDS.users.viewer]) {
        await store.query(
          'INSERT INTO fund_members (guild_key, member_id, units, joined_at) VALUES (?, ?, ?, ?)',
          ld.guildId,
          id,
          500_000_000,
          Date.now(),
        );
      }
    } finally {
      await store.close();
    }
    const bot = await startChildBot(stack.env, 'bot');
    try {
      await waitForBotReady(ld, 'fund');
      const send = (i: number) =>
        ld.sendCommand({
          user: i % 2 === 0 ? FIXTURE_IDS.users.bettor : FIXTURE_IDS.users.viewer,
          channelId: FIXTURE_IDS.channels.bets,
          name: 'fund',
          subcommand: 'me',
          options: {},
        });
      // One first, not counted: connections and JIT, as after any bot start.
      await (await send(0)).acknowledged;
      const handles = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => send(i)));
      const acks = await Promise.allSettled(handles.map((h) => h.acknowledged));
      const ms = acks.flatMap((a) => (a.status === 'fulfilled' ? [a.value.ms] : []));
      const missed = acks.length - ms.length;
      if (ms.length === 0) throw new Error('no /fund me was acknowledged');
      const answered = () =>
        handles.filter((h) => h.responses().some((m) => /Your share of the fund/.test(JSON.stringify(m.embeds ?? []))))
          .length;
      await waitFor(() => answered() === CONCURRENT, 30_000, 'the statements').catch(() => undefined);
      return [
        figure({
          name: '18 /fund me ack p99 (100 concurrent)',
          value: missed > 0 ? 3_000 : percentile(ms, 99),
          unit: 'ms',
          baseline: null,
          target: { on: 'value', op: '<', limit: 300 },
          note: `${CONCURRENT} /fund me sent at once to the bot in its own process, fund of 102 members and 5,000 open bets on SQLite; ${missed} not acknowledged within 3 s; ${answered()}/${CONCURRENT} statements shown within 30 s; p50 ${percentile(ms, 50)} ms`,
        }),
      ];
    } finally {
      await bot.stop();
    }
  } finally {
    await stack.close();
  }
}
