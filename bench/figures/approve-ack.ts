// Figure 15: 100 Approve clicks at once on 100 open proposals, with the real bot in its own process: the time to
// acknowledge each click as the local Discord measures it. Approve defers first, then checks the live price and
// places; the acknowledgement is what Discord's 3 s window holds the bot to (the target: p99 < 300 ms).
import type { LocalMessage } from '../../src/local-discord/index.js';
import { betPicks } from '../lib/bet-picks.js';
import { startChildBot } from '../lib/child-bot.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { openBetting, SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';
import { percentile } from '../lib/stats.js';
import { waitFor } from '../lib/wait.js';

const PROPOSALS = 100;
const BATCH = 10;

export async function approveAck(): Promise<FigureResult[]> {
  const stack = await startStack({
    webhook: false,
    startBotHere: false,
    env: { DEFAULT_MAX_STAKE_PER_DAY: '1000000', DEFAULT_MAX_STAKE_PER_BET: '1000' },
  });
  try {
    const { ld } = stack;
    const [pick] = await betPicks(stack.sandbox.url, SANDBOX_KEY, 3);
    if (!pick) throw new Error('no bettable selection');
    const bot = await startChildBot(stack.env, 'bot');
    try {
      await waitForBotReady(ld);
      await openBetting(ld);
      const settings = await ld.sendCommand({
        user: ld.users.admin,
        channelId: ld.channelIds.bets,
        name: 'settings',
        subcommand: 'approvals',
        options: { t1: 1, t2: 1000, expiry_minutes: 60 },
      });
      await waitFor(() => settings.responses().some((m) => m.content === 'Saved.'), 15_000, 'the approval tiers');
      const proposals: LocalMessage[] = [];
      for (let b = 0; b < PROPOSALS / BATCH; b++) {
        const handles = await Promise.all(
          Array.from({ length: BATCH }, () =>
            ld.sendCommand({
              user: ld.users.bettor,
              channelId: ld.channelIds.bets,
              name: 'bet',
              options: {
                event: pick.epk,
                bookie: pick.bookie,
                market: pick.market,
                selection: pick.marketRef,
                stake: 5,
              },
            }),
          ),
        );
        const found = () =>
          handles.map((h) =>
            h.responses().find((m) => m.visibleTo === null && /Bet proposal/.test(JSON.stringify(m.embeds))),
          );
        await waitFor(() => found().every(Boolean), 60_000, 'the proposals');
        proposals.push(...(found() as LocalMessage[]));
      }
      const approveId = (m: LocalMessage) =>
        ((m.components ?? []) as Array<{ components?: Array<{ custom_id?: string }> }>)
          .flatMap((r) => r.components ?? [])
          .find((c) => c.custom_id?.includes(':prop:approve:'))?.custom_id ?? '';
      const clicks = await Promise.all(
        proposals.map((m) => ld.clickButton({ user: ld.users.admin, message: m.id, customId: approveId(m) })),
      );
      const acks = await Promise.allSettled(clicks.map((c) => c.acknowledged));
      const ms = acks.flatMap((a) => (a.status === 'fulfilled' ? [a.value.ms] : []));
      const missed = acks.length - ms.length;
      if (ms.length === 0) throw new Error('no Approve click was acknowledged');
      const placed = () =>
        proposals.filter((m) => /Bet placed|Bet submitted/.test(JSON.stringify(ld.message(m.id)?.embeds ?? []))).length;
      await waitFor(() => placed() === PROPOSALS, 60_000, 'the approved bets').catch(() => undefined);
      return [
        figure({
          name: '15 Approve ack p99 (100 concurrent approvals)',
          value: missed > 0 ? 3_000 : percentile(ms, 99),
          unit: 'ms',
          baseline: null,
          target: { on: 'value', op: '<', limit: 300 },
          note: `${PROPOSALS} open proposals approved at once by one approver, bot in its own process; p50 ${percentile(ms, 50)} ms; ${missed} not acknowledged within 3 s; ${placed()}/${PROPOSALS} placed within 60 s`,
        }),
      ];
    } finally {
      await bot.stop();
    }
  } finally {
    await stack.close();
  }
}
