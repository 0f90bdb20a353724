import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import { bettable } from '../../src/bot/model/markets.js';
import { GatewayClient, signWebhook } from '../../src/gateway/index.js';
import { API_KEY, type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

const SESSION = '5e55a1fa-0000-4000-8000-00000000000a';
let desk: Desk;
let other: GatewayClient;

beforeAll(async () => {
  desk = await startDesk();
  other = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
});
afterAll(async () => {
  await other?.close();
  await desk?.close();
});

/** A bet the bookmaker takes a minute over: its job stays pending at the gateway for the whole test. */
async function slowBet() {
  const ctx = desk.bot.context;
  for (const e of (await ctx.catalog.loadEvents(upcomingWindow(desk.now()))).filter(
    (x) => x.status === 'prematch' && (x.books ?? []).includes('bookie_a'),
  )) {
    const sel = (await ctx.catalog.loadCard(e.event_id, 'bookie_a')).markets.flatMap((m) => bettable(m))[0];
    if (!sel) continue;
    return other.bets.place({
      session_id: SESSION,
      category: 'sports',
      sport: e.sport,
      epk: e.event_id,
      market_ref: sel.market_ref,
      stake: 2,
      target_odds: 1.01,
      random_delay: { min: 60, max: 60 },
    });
  }
  throw new Error('no bettable bookie_a selection in the sandbox');
}

/** POSTs a delivery signed with the desk's key to the bot's receiver; the receiver's JSON answer. */
async function deliver(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const raw = Buffer.from(JSON.stringify({ ...body, delivered_at: new Date(desk.now()).toISOString() }));
  const res = await fetch(`${desk.bot.receiverUrl}/webhooks/gateway`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'bet-signature': signWebhook(raw, API_KEY) },
    body: raw,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const quarantined = (correlationId: string) =>
  desk.bot.store.query<{ reason: string }>(
    'SELECT reason FROM quarantined_deliveries WHERE correlation_id = ?',
    correlationId,
  );

describe('a signed delivery of the wrong shape that arrives before its job row', () => {
  it('is quarantined when its bet job is recorded, never applied: the job stays pending', async () => {
    const handle = await slowBet();
    const answer = await deliver({
      correlation_id: handle.correlationId,
      status: 'completed',
      result: { success: 'yes', note: 'not a receipt' },
    });
    expect(answer).toMatchObject({ ok: true });
    const ctx = desk.bot.context;
    await ctx.tracker.record({
      correlationId: handle.correlationId,
      kind: 'bet',
      guildId: desk.ld.guildId,
      channelId: desk.ld.channelIds.bets,
      messageId: null,
      userId: desk.ld.users.bettor.id,
      sessionId: SESSION,
      envelope: handle.envelope as unknown as Record<string, unknown>,
      context: {},
    });
    ctx.tracker.track(handle.envelope);
    const kept = await until('the delivery quarantined', async () => {
      const rows = await quarantined(handle.correlationId);
      return rows.length > 0 ? rows : undefined;
    });
    expect(kept.map((r) => r.reason)).toEqual(['result is not a bet result']);
    const [job] = await desk.bot.store.query<{ state: string }>(
      'SELECT state FROM jobs WHERE correlation_id = ?',
      handle.correlationId,
    );
    expect(job?.state).toBe('pending');
  });

  it('is quarantined at receipt when its completed result is not an object, whatever the job row', async () => {
    const handle = await slowBet();
    const answer = await deliver({ correlation_id: handle.correlationId, status: 'completed', result: 'placed' });
    expect(answer).toMatchObject({ ok: true, quarantined: true });
    expect((await quarantined(handle.correlationId)).map((r) => r.reason)).toEqual([
      'result of a completed job is not an object',
    ]);
  });
});
