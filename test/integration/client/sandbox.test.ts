import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  DeprecatedEndpointError,
  type Event,
  errorFromResponse,
  GatewayClient,
  InvalidTierError,
  NoSubscriptionError,
  parseWebhook,
  RequestTimeoutError,
  SessionNotOwnedError,
  WebhookSignatureError,
} from '../../../src/gateway/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

const KEY = 'sandbox-key-alpha';
const SESSION_A = '5e55a1fa-0000-4000-8000-00000000000a';

let sandbox: RunningSandbox;
let client: GatewayClient;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seed: 1, speed: 10, control: true, quiet: true });
  client = new GatewayClient({ baseUrl: sandbox.url, apiKey: KEY, poller: { intervalMs: 100 } });
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

describe('client against the sandbox gateway', () => {
  it('lists sessions and reads a balance synchronously', async () => {
    const sessions = await client.sessions.list();
    expect(sessions.map((s) => s.session_id)).toContain(SESSION_A);
    const balance = await client.balances.get({ session_id: SESSION_A });
    expect(balance.bookie).toBe('bookie_a');
    expect(typeof balance.balance).toBe('number');
  });

  it('walks every page of the event listing with the same filters', async () => {
    const first = await client.events.list({ limit: 50 });
    expect(first.next_cursor).toBeTruthy();
    const all: Event[] = [];
    for await (const e of client.events.iterate({ limit: 50 })) all.push(e);
    expect(all.length).toBeGreaterThan(50);
    expect(new Set(all.map((e) => e.event_id)).size).toBe(all.length);
    expect(all.slice(0, 50).map((e) => e.event_id)).toEqual(first.data.map((e) => e.event_id));
  });

  it('reads a market card for a listed event and refuses an unknown tier locally', async () => {
    const page = await client.events.list({ status: 'prematch', limit: 20 });
    // The sandbox's world moves with the clock: a listed book's card may have no markets at some hour (at 08:45 the
    // first one's had none), so the first listed event and book whose card has markets is read.
    let found: { event: (typeof page.data)[number]; card: Awaited<ReturnType<typeof client.markets.get>> } | undefined;
    for (const event of page.data) {
      for (const bookie of event.books ?? []) {
        const card = await client.markets.get({ epk: event.event_id, bookie });
        if (card.markets.length > 0) {
          found = { event, card };
          break;
        }
      }
      if (found) break;
    }
    expect(found, 'no listed event and book with markets on its card').toBeDefined();
    const { event, card } = found!;
    expect(card.epk).toBe(event.event_id);
    const bettable = card.markets.flatMap((m) => m.selections).filter((s) => s.bettable);
    expect(bettable.every((s) => typeof s.market_ref === 'string')).toBe(true);
    await expect(
      client.markets.get({ epk: event.event_id, bookie: 'bookie_a', tier: 'gold' as never }),
    ).rejects.toThrow(/tier must be 'popular', 'other' or 'unmapped'/);
  });

  it('maps the gateway 422 for an unknown tier when validation is bypassed by the server', async () => {
    const page = await client.events.list({ limit: 1 });
    const event = page.data[0]!;
    const raw = await fetch(
      `${sandbox.url}/v3/markets?epk=${encodeURIComponent(event.event_id)}&bookie=bookie_a&tier=gold`,
      {
        headers: { 'x-api-key': KEY },
      },
    );
    const err = errorFromResponse({ status: raw.status, body: await raw.json(), method: 'GET', path: '/v3/markets' });
    expect(err).toBeInstanceOf(InvalidTierError);
    expect((err as InvalidTierError).validTiers).toEqual(expect.arrayContaining(['popular', 'other', 'unmapped']));
  });

  it('submits async reads and waits on them through the batched poller', async () => {
    const [tx, bonus, promos] = await Promise.all([
      client.transactions.list({ session_id: SESSION_A, days_back: 7 }),
      client.bonusBets.list({ session_id: SESSION_A }),
      client.promos.list({ session_id: SESSION_A }),
    ]);
    const [txOut, bonusOut, promosOut] = await Promise.all([tx.wait(), bonus.wait(), promos.wait()]);
    expect(txOut.status).toBe('completed');
    expect(txOut.status === 'completed' && Array.isArray(txOut.result.transactions)).toBe(true);
    expect(bonusOut.status === 'completed' && bonusOut.result.bonus_bets.length).toBeGreaterThan(0);
    expect(promosOut.status === 'completed' && promosOut.result.success).toBe(true);
    expect(client.jobs.pendingCount).toBe(0);
  });

  it('lists account promos and places a promo with an idempotency key that returns the same job', async () => {
    const promos = await client.accountPromos.list({ bookie: 'bookie_c' });
    const placeable = promos.promos.find((p) => p.placeable_by_id);
    expect(placeable).toBeDefined();
    const session = placeable!.session_id!;
    const first = await client.accountPromos.place({
      session_id: session,
      promo_id: placeable!.promo_id,
      stake: 5,
      idempotency_key: 'promo-test-1',
    });
    const again = await client.accountPromos.place({
      session_id: session,
      promo_id: placeable!.promo_id,
      stake: 5,
      idempotency_key: 'promo-test-1',
    });
    expect(again.correlationId).toBe(first.correlationId);
    expect(first.idempotencyKey).toBe('promo-test-1');
    const outcome = await first.wait();
    expect(outcome.status).toBe('completed');
  });

  it('maps auth, subscription and ownership refusals to their error classes', async () => {
    const bad = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'not-a-key' });
    const nosub = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key-nosub' });
    try {
      await expect(bad.sessions.list()).rejects.toBeInstanceOf(AuthenticationError);
      await expect(nosub.balances.get({ session_id: 'x' })).rejects.toBeInstanceOf(NoSubscriptionError);
      const bravo = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key-bravo' });
      const [bravoSession] = await bravo.sessions.list();
      await bravo.close();
      await expect(client.balances.get({ session_id: bravoSession!.session_id })).rejects.toBeInstanceOf(
        SessionNotOwnedError,
      );
    } finally {
      await bad.close();
      await nosub.close();
    }
  });

  it('resolves a job from a signed webhook before the poller asks, verifying the raw body', async () => {
    const slow = new GatewayClient({ baseUrl: sandbox.url, apiKey: KEY, poller: { intervalMs: 10_000 } });
    const verified: boolean[] = [];
    const receiver: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const body = parseWebhook(Buffer.concat(chunks), req.headers['bet-signature'], KEY);
          verified.push(slow.jobs.resolveFromWebhook(body));
          res.writeHead(204).end();
        } catch (e) {
          verified.push(false);
          res.writeHead(e instanceof WebhookSignatureError ? 401 : 400).end();
        }
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as AddressInfo;
    try {
      const handle = await slow.withdrawals.create({
        session_id: SESSION_A,
        amount: 1,
        callback_url: `http://127.0.0.1:${port}/webhooks/gateway`,
      });
      const outcome = await handle.wait();
      expect(outcome.status).toBe('completed');
      expect(outcome.status === 'completed' && outcome.result.success).toBe(true);
      expect(verified).toEqual([true]);
      expect(slow.jobs.pollerActive).toBe(false);
    } finally {
      await slow.close();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
  it('runs the whole sports flow: events, card, price check by market_ref, bet, result', async () => {
    const page = await client.events.list({ status: 'prematch', limit: 20 });
    const event = page.data.find((e) => e.books.includes('bookie_a'))!;
    const card = await client.markets.get({ epk: event.event_id, bookie: 'bookie_a' });
    expect(card.market_ref_betting_enabled).toBe(true);
    const pick = card.markets.flatMap((m) => m.selections).find((s) => s.bettable && s.market_ref)!;
    const { jobs } = await client.priceChecks.sports({
      session_ids: [SESSION_A],
      category: 'sports',
      market_ref: pick.market_ref!,
      epk: event.event_id,
      sport: event.league,
    });
    const priced = await jobs[0]!.wait();
    expect(priced.status).toBe('completed');
    const price = priced.status === 'completed' ? priced.result.selections?.[0] : undefined;
    expect(price && 'price' in price ? price.price : undefined).toEqual(expect.any(Number));
    const bet = await client.bets.place({
      session_id: SESSION_A,
      category: 'sports',
      market_ref: pick.market_ref!,
      epk: event.event_id,
      sport: event.league,
      stake: 2,
      target_odds: 1.01,
    });
    expect(bet.envelope.session_id).toBe(SESSION_A);
    const outcome = await bet.wait();
    expect(outcome.status).toBe('completed');
    if (outcome.status !== 'completed') return;
    expect(outcome.result.success).toBe(true);
    expect(outcome.result.bet_result?.bet_id).toEqual(expect.any(String));
  });

  it('re-tracks a persisted envelope with client.jobs.track after a restart', async () => {
    const handle = await client.transactions.list({ session_id: SESSION_A });
    const persisted = JSON.parse(JSON.stringify(handle.envelope));
    const restarted = new GatewayClient({ baseUrl: sandbox.url, apiKey: KEY, poller: { intervalMs: 100 } });
    try {
      const outcome = await restarted.jobs.track(persisted);
      expect(outcome.status).toBe('completed');
      expect(outcome.entry?.correlation_id).toBe(handle.correlationId);
    } finally {
      await restarted.close();
    }
  });

  it('sends X-Service-Sandbox for a key without subscription and keeps the sample fields', async () => {
    const nosub = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key-nosub', sandbox: true });
    try {
      const balance = await nosub.balances.get({ session_id: 'any' });
      expect((balance as Record<string, unknown>).sandbox).toBe(true);
      expect(typeof balance.balance).toBe('number');
    } finally {
      await nosub.close();
    }
  });

  it('reads the session promo summary synchronously through client.promos.sessionSummary', async () => {
    const summary = await client.promos.sessionSummary({ session_id: SESSION_A });
    expect(summary).toMatchObject({ success: true, session_id: SESSION_A, bookie: 'bookie_a' });
    await expect(client.promos.sessionSummary({ session_id: '' })).rejects.toThrow(/session_id/);
  });

  it('reports a sunset v2 route as DeprecatedEndpointError naming its successor', async () => {
    const err = await client.legacy.transactions({ session_id: SESSION_A }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeprecatedEndpointError);
    expect((err as DeprecatedEndpointError).use).toMatch(/\/v3\/transactions/);
  });
  it('sends place_bet once when the answer is late: the timeout surfaces and the gateway sees one request', async () => {
    const control = (path: string, body: unknown) =>
      fetch(`${sandbox.url}/_sandbox/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // The sandbox counts every request it receives, this state read included.
    const requestsSeen = async () =>
      ((await (await fetch(`${sandbox.url}/_sandbox/state`)).json()) as { counters: { requests: number } }).counters
        .requests;
    const page = await client.events.list({ status: 'prematch', limit: 20 });
    const event = page.data.find((e) => e.books.includes('bookie_a'))!;
    const card = await client.markets.get({ epk: event.event_id, bookie: 'bookie_a' });
    const pick = card.markets.flatMap((m) => m.selections).find((s) => s.bettable && s.market_ref)!;
    const impatient = new GatewayClient({ baseUrl: sandbox.url, apiKey: KEY, timeoutMs: 150, maxReadRetries: 3 });
    const before = await requestsSeen();
    await control('faults', { latency: { fixedMs: 5_000 } }); // 500 ms of real time at speed 10
    try {
      const err = await impatient.bets
        .place({
          session_id: SESSION_A,
          category: 'sports',
          market_ref: pick.market_ref!,
          epk: event.event_id,
          sport: event.league,
          stake: 1,
          target_odds: 1.01,
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestTimeoutError);
      expect((err as RequestTimeoutError).mayHaveReachedServer).toBe(true);
      await new Promise((r) => setTimeout(r, 300)); // a resend would arrive in this gap
    } finally {
      await control('faults', {});
      await impatient.close();
    }
    // faults on, one place_bet, faults off, this state read.
    expect((await requestsSeen()) - before).toBe(4);
  });
  it('runs the racing flow for tomorrow: price check per session, single bet, stacked same-race multis', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const race = { track: 'Randwick', race_num: 4, date: tomorrow };
    const { submission, jobs } = await client.priceChecks.racing({
      session_ids: [SESSION_A, '5e55a1fa-0000-4000-8000-00000000000b'],
      category: 'racing',
      ...race,
    });
    expect(submission.queries.map((q) => q.session_id)).toEqual([SESSION_A, '5e55a1fa-0000-4000-8000-00000000000b']);
    const outcomes = await Promise.all(jobs.map((j) => j.wait()));
    const first = outcomes[0]!;
    expect(first.status).toBe('completed');
    if (first.status !== 'completed') return;
    const runners = (first.result.selections ?? []).map((s) => String((s as { runner?: unknown }).runner ?? ''));
    expect(runners.length).toBeGreaterThanOrEqual(4);

    const single = await client.bets.place({
      session_id: SESSION_A,
      category: 'racing',
      ...race,
      country: 'au',
      runner: runners[0]!,
      market: 'win',
      stake: 1,
      target_odds: 1.01,
    });
    const placed = await single.wait();
    expect(placed.status === 'completed' && typeof placed.result.success).toBe('boolean');

    const stack = await client.bets.placeStackedSrm({
      session_id: SESSION_A,
      ...race,
      bets: [
        { stake: 1, legs: [{ runner: runners[0]! }, { runner: runners[1]!, position: 'top2' }] },
        { stake: 1, legs: [{ runner: runners[2]! }, { runner: runners[3]!, position: 'top3' }] },
      ],
    });
    const stacked = await stack.wait();
    expect(stacked.status).toBe('completed');
    if (stacked.status !== 'completed') return;
    // Either both multis went to placement (one result each) or a pre-confirm failure placed nothing.
    const results = stacked.result.results ?? [];
    if (stacked.result.success) expect(results).toHaveLength(2);
    else expect(results.filter((r) => r.success)).toHaveLength(0);
  });
  it('gives an already-resolved job when a sports price check hits fresh prices (fast path)', async () => {
    const page = await client.events.list({ status: 'prematch', limit: 20 });
    const event = page.data.find((e) => e.books.includes('bookie_a'))!;
    const card = await client.markets.get({ epk: event.event_id, bookie: 'bookie_a' });
    const pick = card.markets.flatMap((m) => m.selections).find((s) => s.bettable && s.market_ref)!;
    const request = {
      session_ids: [SESSION_A],
      category: 'sports' as const,
      market_ref: pick.market_ref!,
      epk: event.event_id,
      sport: event.league,
    };
    const fresh = await (await client.priceChecks.sports(request)).jobs[0]!.wait();
    expect(fresh.status).toBe('completed');
    const again = await client.priceChecks.sports(request);
    expect(again.submission.queries[0]?.status).toBe('success');
    expect(client.jobs.pendingCount).toBe(0);
    const outcome = await again.jobs[0]!.wait();
    expect(outcome.status === 'completed' && outcome.result.bookie).toBe('bookie_a');
    expect(outcome.status === 'completed' && outcome.result.selections?.length).toBeGreaterThan(0);
  });
});
