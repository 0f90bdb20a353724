import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../../src/bot/catalog/handlers/choices.js';
import { JobRepo } from '../../../src/bot/jobs/jobs-repo.js';
import { bettable } from '../../../src/bot/model/markets.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import { openStore } from '../../../src/bot/store/index.js';
import { GatewayClient } from '../../../src/gateway/index.js';
import { API_KEY, type Desk, startDesk } from '../../support/bot-desk.js';
import { until } from '../../support/wait.js';

let desk: Desk;

beforeAll(async () => {
  desk = await startDesk();
});
afterAll(async () => {
  await desk?.close();
});

describe('pending jobs after a restart', () => {
  it('takes over a job left pending by a stopped process and edits its result in once', async () => {
    const ctx = desk.bot.context;
    const events = await ctx.catalog.loadEvents(upcomingWindow(desk.now()));
    let placed: { epk: string; sport: string; ref: string; odds: number } | undefined;
    for (const e of events.filter((x) => x.status === 'prematch' && (x.books ?? []).includes('bookie_a'))) {
      const sel = (await ctx.catalog.loadCard(e.event_id, 'bookie_a')).markets.flatMap((m) => bettable(m))[0];
      if (sel) {
        placed = { epk: e.event_id, sport: e.sport, ref: sel.market_ref, odds: sel.odds };
        break;
      }
    }
    expect(placed).toBeDefined();
    const messageId = await ctx.poster.post(desk.ld.channelIds.bets, {
      embeds: [{ title: 'Bet submitted' }],
      components: [],
    });

    // Another process placed a bet, stored its 202, and died before the result came back.
    const other = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const handle = await other.bets.place({
      session_id: '5e55a1fa-0000-4000-8000-00000000000a',
      category: 'sports',
      sport: placed?.sport ?? '',
      epk: placed?.epk ?? '',
      market_ref: placed?.ref ?? '',
      stake: 3,
      target_odds: 1.01,
    });
    await other.close();
    const slip: SlipPayload = {
      epk: placed?.epk ?? '',
      sport: placed?.sport ?? '',
      eventName: 'resumed event',
      bookie: 'bookie_a',
      sessionId: '5e55a1fa-0000-4000-8000-00000000000a',
      marketKey: 'm',
      marketLabel: 'Market',
      selectionLabel: 'Selection',
      marketRef: placed?.ref ?? '',
      stakeCents: 300,
      shownOdds: placed?.odds ?? 2,
    };
    await desk.bot.stop();
    const store = await openStore(desk.env.STORE_URL as string);
    // A lease of -1 ms: already expired, as if its owner stopped renewing it.
    await new JobRepo(store, 'dead-process', -1).insert(
      {
        correlationId: handle.correlationId,
        kind: 'bet',
        guildId: desk.ld.guildId,
        channelId: desk.ld.channelIds.bets,
        messageId,
        userId: desk.ld.users.bettor.id,
        sessionId: '5e55a1fa-0000-4000-8000-00000000000a',
        envelope: handle.envelope as unknown as Record<string, unknown>,
        context: {
          slip,
          guildId: desk.ld.guildId,
          userId: desk.ld.users.bettor.id,
          day: '2026-01-01',
          odds: slip.shownOdds,
        },
      },
      desk.now(),
    );
    await store.close();

    const edits: string[] = [];
    desk.ld.events.on('messageUpdate', (e: { message: { id: string; embeds: Array<{ title?: string }> } }) => {
      if (e.message.id === messageId) edits.push(e.message.embeds[0]?.title ?? '');
    });
    await desk.restart();
    await until('the receipt after the restart', () => edits.some((t) => t.startsWith('Bet placed')), {
      timeoutMs: 20_000,
    });
    await desk.bot.context.tracker.idle();
    expect(edits.filter((t) => t.startsWith('Bet placed'))).toHaveLength(1);
    const job = await desk.bot.context.jobs.get(handle.correlationId);
    expect(job?.state).toBe('posted');
  });
});
