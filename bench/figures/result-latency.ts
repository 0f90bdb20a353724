// Figure 6: a bet's job completed at the gateway → the slip message edited in Discord with the receipt,
// once with webhooks (callback_url set) and once by the batched poller alone. Real bot, sandbox, local Discord;
// the bets go through /bet and the slip's Confirm button as a user would.
import type { APIMessage } from 'discord.js';
import { FIXTURE_IDS, type LocalMessage } from '../../src/local-discord/index.js';
import { type BetPick, betPicks } from '../lib/bet-picks.js';
import { betIdOf, watchCompletions } from '../lib/completion-watch.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { SANDBOX_KEY, startStack } from '../lib/stack.js';
import { percentile } from '../lib/stats.js';
import { waitFor } from '../lib/wait.js';

const BETS = 40;
const WORKERS = 8;
const USER = FIXTURE_IDS.users.bettor;
const CHANNEL = FIXTURE_IDS.channels.bets;

interface PathResult {
  ms: number[];
  placed: number;
  attempted: number;
  confirmed: number;
  slipFailures: string[];
}

function confirmButton(messages: LocalMessage[]): { message: APIMessage; customId: string } | undefined {
  for (const message of messages) {
    for (const row of (message.components ?? []) as { components?: { label?: string; custom_id?: string }[] }[]) {
      const button = row.components?.find((c) => c.label === 'Confirm' && c.custom_id);
      if (button?.custom_id) return { message, customId: button.custom_id };
    }
  }
  return undefined;
}

async function measurePath(webhook: boolean): Promise<PathResult> {
  const stack = await startStack({
    webhook,
    sandbox: { speed: 4 },
    env: { DEFAULT_MAX_STAKE_PER_DAY: '1000000', SLIP_EXPIRY_SECONDS: '600' },
  });
  try {
    const { ld } = stack;
    const picks = await betPicks(stack.sandbox.url, SANDBOX_KEY, 30);
    const completions = watchCompletions(stack.sandbox);
    const edited = new Map<string, number>();
    ld.events.on('messageUpdate', ({ message }: { message: LocalMessage }) => {
      const now = performance.now();
      const text = JSON.stringify([message.content, message.embeds]);
      for (const c of completions.values()) {
        const betId = betIdOf(c.result);
        if (betId && !edited.has(betId) && text.includes(betId)) edited.set(betId, now);
      }
    });
    const slipFailures: string[] = [];
    const bet = async (pick: BetPick) => {
      const cmd = await ld.sendCommand({
        user: USER,
        channelId: CHANNEL,
        name: 'bet',
        options: { event: pick.epk, bookie: pick.bookie, market: pick.market, selection: pick.marketRef, stake: 2 },
      });
      await cmd.acknowledged;
      try {
        await waitFor(() => confirmButton(cmd.responses()) !== undefined, 15_000, 'the bet slip with Confirm');
      } catch {
        const last = cmd.responses().at(-1);
        slipFailures.push(JSON.stringify(last?.embeds?.[0]?.description ?? last?.content ?? 'no slip').slice(0, 160));
        return;
      }
      const { message, customId } = confirmButton(cmd.responses())!;
      const click = await ld.clickButton({ user: USER, message: message.id, customId });
      await click.acknowledged;
      // The slip leaves its Confirm state once the bet is submitted (or refused): the flow is then done.
      await waitFor(
        () => {
          const now = ld.message(message.id);
          return now !== undefined && confirmButton([now]) === undefined;
        },
        15_000,
        'the slip to show submitted',
      ).catch(() => slipFailures.push('slip still asks to confirm after 15 s'));
      clicked++;
    };
    let clicked = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        for (let i = next++; i < BETS; i = next++) await bet(picks[i % picks.length]!);
      }),
    );
    const placedIds = () =>
      [...completions.values()].flatMap((c) => {
        const id = betIdOf(c.result);
        return id ? [{ id, at: c.at }] : [];
      });
    await waitFor(() => placedIds().every((p) => edited.has(p.id)), 30_000, 'every receipt edit').catch(
      () => undefined,
    );
    const placed = placedIds();
    const ms = placed.flatMap((p) => {
      const at = edited.get(p.id);
      return at === undefined ? [] : [at - p.at];
    });
    return { ms, placed: placed.length, attempted: BETS, confirmed: clicked, slipFailures };
  } finally {
    await stack.close();
  }
}

function rows(path: 'webhook' | 'poll', r: PathResult): FigureResult[] {
  if (r.ms.length === 0) {
    throw new Error(
      `no receipt edit seen on the ${path} path (${r.placed} bets placed of ${r.attempted}; slip failures: ${r.slipFailures.slice(0, 2).join(' | ') || 'none'})`,
    );
  }
  const note = `${r.ms.length} receipts of ${r.placed} placed bets (${r.attempted} slips via /bet, ${r.confirmed} confirmed, ${WORKERS} users at a time; bets refused at placement have no receipt; ${r.slipFailures.length} slips not shown${r.slipFailures[0] ? `: ${r.slipFailures[0]}` : ''}); from the sandbox finishing the bookmaker work to the local Discord applying the edit`;
  // No target is set for these: p99 is held to the 10 s a receipt may take before users doubt it.
  return [
    figure({
      name: `6 result latency ${path} p50`,
      value: percentile(r.ms, 50),
      unit: 'ms',
      baseline: null,
      target: { on: 'value', op: '<', limit: 10_000 },
      note,
    }),
    figure({
      name: `6 result latency ${path} p99`,
      value: percentile(r.ms, 99),
      unit: 'ms',
      baseline: null,
      target: { on: 'value', op: '<', limit: 10_000 },
      note,
    }),
  ];
}

export async function resultLatency(): Promise<FigureResult[]> {
  const viaWebhook = await measurePath(true);
  const viaPoll = await measurePath(false);
  return [...rows('webhook', viaWebhook), ...rows('poll', viaPoll)];
}
