import { createHook } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  GatewayClient,
  RateLimitError,
  RequestTimeoutError,
  RequestValidationError,
  ServerError,
  ServiceUnavailableError,
  SessionNotFoundError,
} from '../../../src/gateway/index.js';
import { until } from '../../support/wait.js';
import { type Harness, json, startHarness } from './http-harness.js';

const KEY = 'sk-call-options-key';
const balance = { session_id: 's1', bookie: 'bookie_a', balance: 7 };

let harness: Harness | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await harness?.close();
  client = undefined;
  harness = undefined;
});

describe('per-call options', () => {
  it('aborts a call in flight with the signal, rejecting with its reason', async () => {
    harness = await startHarness(() => {}); // never answers
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const ac = new AbortController();
    const call = client.balances.get({ session_id: 's1' }, { signal: ac.signal });
    await until('the balance request at the server', () => harness!.count('/v3/balance') === 1, {
      timeoutMs: 5_000,
      everyMs: 10,
    });
    ac.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
  });

  it('takes a per-call timeoutMs over the client default and says it is one deadline for the call', async () => {
    harness = await startHarness(() => {});
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, timeoutMs: 60_000 });
    const err = await client.sessions.list({ timeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect((err as Error).message).toMatch(/deadline of 100 ms \(one deadline for the whole call/);
  });

  it('sends per-call headers and refuses one that would replace the API key', async () => {
    harness = await startHarness((_req, res) => json(res, 200, balance));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    await client.balances.get({ session_id: 's1' }, { headers: { 'X-Trace-Id': 'trace-1' } });
    expect(harness.received[0]?.headers['x-trace-id']).toBe('trace-1');
    expect(harness.received[0]?.headers['x-api-key']).toBe(KEY);
    await expect(
      client.balances.get({ session_id: 's1' }, { headers: { 'X-API-Key': 'other' } }),
    ).rejects.toBeInstanceOf(RequestValidationError);
    expect(harness.count('/v3/balance')).toBe(1);
  });

  it('takes maxRetries per call: 0 sends a read once even when it would be retried', async () => {
    harness = await startHarness((_req, res) => json(res, 503, { detail: 'busy' }));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, maxRetries: 3, sleep: async () => {} });
    await expect(client.balances.get({ session_id: 's1' }, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(harness.count('/v3/balance')).toBe(1);
  });

  it('adds unknown body fields through extraBody, and refuses one the library already types', async () => {
    harness = await startHarness((_req, res) => json(res, 200, balance));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    await client.balances.get({ session_id: 's1' }, { extraBody: { new_flag: true } });
    expect(harness.received[0]?.body).toEqual({ session_id: 's1', new_flag: true });
    await expect(client.balances.get({ session_id: 's1' }, { extraBody: { session_id: 'other' } })).rejects.toThrow(
      /extraBody.session_id is already a typed field/,
    );
  });

  it('adds unknown query parameters through extraQuery', async () => {
    harness = await startHarness((_req, res) => json(res, 200, { count: 0, next_cursor: null, data: [] }));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    await client.events.list({ league: 'nba' }, { extraQuery: { region: 'au' } });
    expect(harness.received[0]?.query.get('league')).toBe('nba');
    expect(harness.received[0]?.query.get('region')).toBe('au');
  });
});

describe('Retry-After (429 and 503)', () => {
  const answers = (first: { status: number; retryAfter: string }) => {
    let calls = 0;
    return startHarness((_req, res) => {
      calls++;
      if (calls === 1) return json(res, first.status, { detail: 'later' }, { 'retry-after': first.retryAfter });
      json(res, 200, balance);
    });
  };

  it('waits out a 503 Retry-After before retrying a read', async () => {
    harness = await answers({ status: 503, retryAfter: '3' });
    const waits: number[] = [];
    client = new GatewayClient({
      baseUrl: harness.url,
      apiKey: KEY,
      timeoutMs: 30_000,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect((await client.balances.get({ session_id: 's1' })).balance).toBe(7);
    expect(waits).toEqual([3_000]);
  });

  it('does not sleep on a Retry-After above the cap: the error surfaces at once with retryAfterMs', async () => {
    harness = await answers({ status: 429, retryAfter: '3600' });
    const waits: number[] = [];
    client = new GatewayClient({
      baseUrl: harness.url,
      apiKey: KEY,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const err = await client.balances.get({ session_id: 's1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect(waits).toEqual([]);
    expect(harness.count('/v3/balance')).toBe(1);
  });

  it('takes the cap from maxRetryAfterMs', async () => {
    harness = await answers({ status: 503, retryAfter: '5' });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, maxRetryAfterMs: 1_000, sleep: async () => {} });
    const err = await client.balances.get({ session_id: 's1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).retryAfterMs).toBe(5_000);
  });

  it('does not start a retry whose Retry-After would pass the call deadline', async () => {
    harness = await answers({ status: 429, retryAfter: '20' });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, sleep: async () => {} });
    await expect(client.balances.get({ session_id: 's1' }, { timeoutMs: 5_000 })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(harness.count('/v3/balance')).toBe(1);
  });

  it('ends a Retry-After wait when the signal aborts', async () => {
    harness = await answers({ status: 429, retryAfter: '30' });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, timeoutMs: 120_000 });
    const ac = new AbortController();
    const call = client.balances.get({ session_id: 's1' }, { signal: ac.signal });
    await until('the balance request at the server', () => harness!.count('/v3/balance') === 1, {
      timeoutMs: 5_000,
      everyMs: 10,
    });
    ac.abort(new Error('stop waiting'));
    await expect(call).rejects.toThrow('stop waiting');
    expect(harness.count('/v3/balance')).toBe(1);
  });
});

describe('close()', () => {
  it('rejects a read sleeping on Retry-After at once with ClientClosedError and leaves no timer', async () => {
    harness = await startHarness((_req, res) => json(res, 429, { detail: 'later' }, { 'retry-after': '30' }));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, timeoutMs: 120_000 });
    // The client's own 30 s sleep, seen as it is created (counting every timer of the process raced with others).
    const sleeps: Array<{ _destroyed?: boolean }> = [];
    const hook = createHook({
      init(_id, type, _trigger, resource) {
        if (type === 'Timeout' && (resource as { _idleTimeout?: number })._idleTimeout === 30_000)
          sleeps.push(resource as { _destroyed?: boolean });
      },
    }).enable();
    try {
      const call = client.balances.get({ session_id: 's1' }).catch((e: unknown) => e);
      // A plain loop, not until(): it must not arm timers of its own.
      for (const end = Date.now() + 20_000; sleeps.length === 0; await new Promise((r) => setImmediate(r))) {
        if (Date.now() > end) throw new Error('the client armed no 30 s retry sleep within 20000 ms');
      }
      await client.close();
      expect(await call).toBeInstanceOf(ClientClosedError);
      expect(sleeps.map((t) => t._destroyed)).toEqual([true]);
    } finally {
      hook.disable();
    }
  });

  it('rejects a call in flight with ClientClosedError saying it may have reached the gateway', async () => {
    harness = await startHarness(() => {});
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const call = client.bets
      .place({
        session_id: 's1',
        category: 'racing',
        track: 'Flemington',
        race_num: 1,
        date: '2026-11-21',
        runner: 'R',
        market: 'win',
        stake: 1,
        target_odds: 2,
      })
      .catch((e: unknown) => e);
    await until('the place_bet request at the server', () => harness!.count('/v3/place_bet') === 1, {
      timeoutMs: 5_000,
      everyMs: 10,
    });
    await client.close();
    const err = await call;
    expect(err).toBeInstanceOf(ClientClosedError);
    expect((err as ClientClosedError).mayHaveReachedServer).toBe(true);
  });

  it('is idempotent, and later calls reject with ClientClosedError without sending', async () => {
    harness = await startHarness((_req, res) => json(res, 200, balance));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    await Promise.all([client.close(), client.close()]);
    await client.close();
    await expect(client.balances.get({ session_id: 's1' })).rejects.toBeInstanceOf(ClientClosedError);
    expect(harness.count('/v3/balance')).toBe(0);
  });
});

describe('.withResponse()', () => {
  it('gives status, headers and request id next to the data, for a read and for a job submission', async () => {
    harness = await startHarness((req, res) => {
      if (req.path === '/v3/balance') return json(res, 200, balance, { 'x-request-id': 'req-1' });
      json(res, 202, { status: 'pending', correlation_id: 'c-1' }, { 'x-request-id': 'req-2' });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const { data, response } = await client.balances.get({ session_id: 's1' }).withResponse();
    expect(data.balance).toBe(7);
    expect(response).toMatchObject({ status: 200, requestId: 'req-1' });
    expect(response.headers['content-type']).toBe('application/json');
    const submitted = await client.transactions.list({ session_id: 's1' }).withResponse();
    expect(submitted.data.correlationId).toBe('c-1');
    expect(submitted.response).toMatchObject({ status: 202, requestId: 'req-2' });
  });

  it('rejects withResponse() with the call error and leaves no unhandled rejection behind', async () => {
    harness = await startHarness((_req, res) => json(res, 404, { detail: 'Session not found or has expired' }));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    await expect(client.balances.get({ session_id: 's1' }).withResponse()).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(client.balances.get({ session_id: '' }).withResponse()).rejects.toBeInstanceOf(RequestValidationError);
    // Vitest fails the run on an unhandled rejection; give one a turn to surface.
    await new Promise((r) => setImmediate(r));
  });

  it('puts the response headers and request id on errors too', async () => {
    harness = await startHarness((_req, res) =>
      json(res, 404, { detail: 'Session not found or has expired' }, { 'x-request-id': 'req-404' }),
    );
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const err = (await client.balances.get({ session_id: 's1' }).catch((e: unknown) => e)) as ServerError;
    expect(err.requestId).toBe('req-404');
    expect(err.headers?.['x-request-id']).toBe('req-404');
  });
});
