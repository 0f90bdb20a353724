import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import { bettable } from '../../src/bot/model/markets.js';
import type { JobOutcome } from '../../src/gateway/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { API_KEY, type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

const SESSION = '5e55a1fa-0000-4000-8000-00000000000a';
let desk: Desk;

beforeAll(async () => {
  desk = await startDesk();
});
afterAll(async () => {
  await desk?.close();
});

describe('a webhook that arrives before its 202 is stored', () => {
  it('is applied as soon as the job is tracked, while the gateway still has the job pending', async () => {
    const ctx = desk.bot.context;
    const events = await ctx.catalog.loadEvents(upcomingWindow(desk.now()));
    let pick: { epk: string; sport: string; ref: string } | undefined;
    for (const e of events.filter((x) => x.status === 'prematch' && (x.books ?? []).includes('bookie_a'))) {
      const sel = (await ctx.catalog.loadCard(e.event_id, 'bookie_a')).markets.flatMap((m) => bettable(m))[0];
      if (sel) {
        pick = { epk: e.event_id, sport: e.sport, ref: sel.market_ref };
        break;
      }
    }
    if (!pick) throw new Error('no bettable bookie_a selection in the sandbox');
    // A bet the bookmaker takes a minute over: its job stays pending at the gateway for the whole test.
    const other = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const handle = await other.bets.place({
      session_id: SESSION,
      category: 'sports',
      sport: pick.sport,
      epk: pick.epk,
      market_ref: pick.ref,
      stake: 2,
      target_odds: 1.01,
      random_delay: { min: 60, max: 60 },
    });

    // The receiver verified and stored the delivery, but no job row existed yet, so nothing applied it.
    const delivery = {
      correlation_id: handle.correlationId,
      status: 'completed',
      result: { success: true, bet_id: 'EARLY-DELIVERY-1' },
      delivered_at: new Date(desk.now()).toISOString(),
    };
    await desk.bot.store.query(
      'INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES (?, ?, ?)',
      handle.correlationId,
      JSON.stringify(delivery),
      desk.now(),
    );
    const seen: JobOutcome[] = [];
    ctx.tracker.on('early-test', async (_job, outcome) => {
      seen.push(outcome);
    });
    await ctx.tracker.record({
      correlationId: handle.correlationId,
      kind: 'early-test',
      guildId: desk.ld.guildId,
      channelId: desk.ld.channelIds.bets,
      messageId: null,
      userId: desk.ld.users.bettor.id,
      sessionId: SESSION,
      envelope: handle.envelope as unknown as Record<string, unknown>,
      context: {},
    });
    ctx.tracker.track(handle.envelope);

    await until('the stored delivery applied', () => seen.length > 0, { timeoutMs: 5_000 });
    expect(seen[0]).toMatchObject({ status: 'completed', result: { bet_id: 'EARLY-DELIVERY-1' } });
    const [atGateway] = await other.jobs.status([handle.correlationId]);
    await other.close();
    expect(atGateway?.status).toBe('pending');
  });
});
