import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  GatewayClient,
  NetworkError,
  RequestTimeoutError,
  ResponseShapeError,
  ServerError,
} from '../../../src/gateway/index.js';
import { type Harness, json, startHarness } from './http-harness.js';

const KEY = 'sk-live-very-secret-123';
const bet = {
  session_id: 's1',
  category: 'racing' as const,
  track: 'Flemington',
  race_num: 3,
  date: '2026-11-21',
  runner: 'Fast Horse',
  market: 'win' as const,
  stake: 10,
  target_odds: 2.5,
};

let harness: Harness | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await harness?.close();
  client = undefined;
  harness = undefined;
});

const noWait = async () => {};
const captureError = async (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('expected a rejection'),
    (e: unknown) => e,
  );

describe('transport: state-changing calls are sent at most once', () => {
  it('does not send a second place_bet when the first times out after the server received it', async () => {
    harness = await startHarness(() => {}); // receives, never answers
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, timeoutMs: 250, maxReadRetries: 3, sleep: noWait });
    const err = await captureError(client.bets.place(bet));
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect((err as RequestTimeoutError).mayHaveReachedServer).toBe(true);
    // A retry would follow at once (sleep is a no-op); give it a moment to show up if it existed.
    await new Promise((r) => setTimeout(r, 150));
    expect(harness.count('/v3/place_bet')).toBe(1);
  });

  it('does not resend place_bet when the connection drops after the server received it', async () => {
    harness = await startHarness((_req, res) => {
      res.socket?.destroy();
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, maxReadRetries: 3, sleep: noWait });
    const err = await captureError(client.bets.place(bet));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).mayHaveReachedServer).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(harness.count('/v3/place_bet')).toBe(1);
  });

  it('holds a read to one deadline for the whole call: a timed-out attempt is not retried past it', async () => {
    harness = await startHarness(() => {});
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, timeoutMs: 150, maxRetries: 2, sleep: noWait });
    const err = await captureError(client.balances.get({ session_id: 's1' }));
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect((err as Error).message).toMatch(/deadline of 150 ms \(one deadline for the whole call: 1 attempt/);
    expect(harness.count('/v3/balance')).toBe(1);
  });

  it('retries a read whose connection dropped, within the same deadline', async () => {
    let calls = 0;
    harness = await startHarness((_req, res) => {
      calls++;
      if (calls === 1) res.socket?.destroy();
      else json(res, 200, { balance: 3 });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, maxRetries: 2, sleep: noWait });
    expect((await client.balances.get({ session_id: 's1' })).balance).toBe(3);
    expect(calls).toBe(2);
  });

  it('retries a read answered 503 and returns the later success', async () => {
    let calls = 0;
    harness = await startHarness((_req, res) => {
      calls++;
      if (calls === 1) return json(res, 503, { detail: 'busy' });
      json(res, 200, {
        session_id: 's1',
        bookie: 'bookie_a',
        username: 'u',
        balance: 12.5,
        bonus_balance: 2,
        withdrawable_balance: 10.5,
        retrieved_at: 'x',
      });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, sleep: noWait });
    const bal = await client.balances.get({ session_id: 's1' });
    expect(bal.balance).toBe(12.5);
    expect(calls).toBe(2);
  });

  it('waits out Retry-After before retrying a read answered 429', async () => {
    let calls = 0;
    harness = await startHarness((_req, res) => {
      calls++;
      if (calls === 1) return json(res, 429, { detail: 'slow down' }, { 'retry-after': '2' });
      json(res, 200, { sessions: [] });
    });
    const waits: number[] = [];
    client = new GatewayClient({
      baseUrl: harness.url,
      apiKey: KEY,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(await client.sessions.list()).toEqual([]);
    expect(waits).toEqual([2_000]);
    expect(calls).toBe(2);
  });

  it('does not retry a place_bet answered 503', async () => {
    harness = await startHarness((_req, res) => json(res, 503, { detail: 'busy' }));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, sleep: noWait });
    await expect(client.bets.place(bet)).rejects.toBeInstanceOf(ServerError);
    expect(harness.count('/v3/place_bet')).toBe(1);
  });

  it('reports a refused connection as not having reached the server, and does not retry the write', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    client = new GatewayClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, sleep: noWait });
    const err = await captureError(client.bets.place(bet));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).mayHaveReachedServer).toBe(false);
    expect((err as NetworkError).code).toBe('ECONNREFUSED');
  });

  it('sends the API key header, JSON body and sandbox header, and parses the 202 envelope into a job handle', async () => {
    harness = await startHarness((_req, res) =>
      json(res, 202, {
        status: 'pending',
        correlation_id: 'c-1',
        submitted_at: 'a',
        timeout_at: 'b',
        callback_url: null,
        extra_field: 7,
      }),
    );
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, sandbox: true });
    const handle = await client.bets.place(bet);
    expect(handle.correlationId).toBe('c-1');
    expect((handle.envelope as Record<string, unknown>).extra_field).toBe(7);
    const [req] = harness.received;
    expect(req?.headers['x-api-key']).toBe(KEY);
    expect(req?.headers['x-service-sandbox']).toBe('1');
    expect(req?.body).toEqual(bet);
  });
});

describe('the API key never leaks', () => {
  const leaks = (err: unknown) => {
    const e = err as Error;
    const texts = [
      String(e),
      e.message,
      e.stack ?? '',
      JSON.stringify(e),
      inspect(e, { depth: 10 }),
      inspect(e, { showHidden: true, depth: 10 }),
    ];
    return texts.some((t) => t.includes(KEY));
  };

  it('is absent from a 401 error even when the server echoes it', async () => {
    harness = await startHarness((req, res) =>
      json(res, 401, { detail: `Invalid or missing API key: ${req.headers['x-api-key']}` }),
    );
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const err = await captureError(client.sessions.list());
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as AuthenticationError).message).toContain('Invalid or missing API key');
    expect(leaks(err)).toBe(false);
  });

  it('is absent from a 500 error', async () => {
    harness = await startHarness((req, res) =>
      json(res, 500, {
        status: 'error',
        message: `boom for ${req.headers['x-api-key']}`,
        key: req.headers['x-api-key'],
      }),
    );
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, sleep: noWait });
    const err = await captureError(client.sessions.start({ session_id: 's1' }));
    expect(err).toBeInstanceOf(ServerError);
    expect(leaks(err)).toBe(false);
  });

  it('is absent from a response-shape error even when a 2xx body echoes it', async () => {
    harness = await startHarness((req, res) => json(res, 200, { sessions: 'nope', echoed: req.headers['x-api-key'] }));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const err = await captureError(client.sessions.list());
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(leaks(err)).toBe(false);
  });

  it('is absent from network and timeout errors, and from the client itself', async () => {
    harness = await startHarness(() => {});
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, timeoutMs: 100, maxReadRetries: 0 });
    const timeout = await captureError(client.sessions.list());
    expect(timeout).toBeInstanceOf(RequestTimeoutError);
    expect(leaks(timeout)).toBe(false);
    await harness.close();
    harness = undefined;
    const network = await captureError(client.sessions.list());
    expect(network).toBeInstanceOf(NetworkError);
    expect(leaks(network)).toBe(false);
    expect(JSON.stringify(client)).not.toContain(KEY);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(KEY);
    for (const part of [client.bets, client.markets, client.jobs, client.events, client.legacy]) {
      expect(inspect(part, { depth: 10, showHidden: true })).not.toContain(KEY);
    }
  });
});

describe('a baseUrl with user:password@ and an upstream error that carries secrets', () => {
  const PASSWORD = 'hunter2-base-url-pass';
  const USER = 'desk-operator';
  const renderings = (e: unknown) => {
    const err = e as Error;
    return [String(err), err.message, err.stack ?? '', JSON.stringify(err), inspect(err, { depth: 10 })].join('\n');
  };
  const closedPort = async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((r) => server.close(() => r()));
    return port;
  };

  it('never shows the user name or password of the baseUrl in a connection error or in the client', async () => {
    const port = await closedPort();
    client = new GatewayClient({ baseUrl: `http://${USER}:${PASSWORD}@127.0.0.1:${port}`, apiKey: KEY });
    const err = await captureError(client.sessions.list());
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain(`could not connect to http://[redacted]@127.0.0.1:${port}`);
    for (const secret of [PASSWORD, USER]) {
      expect(renderings(err)).not.toContain(secret);
      expect(JSON.stringify(client)).not.toContain(secret);
      expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(secret);
    }
  });

  it('masks the key and the password in the message, code and name of an error from below HTTP', async () => {
    const port = await closedPort();
    const leaky = `${KEY} ${PASSWORD}`;
    // A dispatcher (a proxy, say) whose error repeats what it was given.
    const dispatcher = {
      dispatch(_opts: unknown, handler: { onError(err: Error): void }) {
        const err = Object.assign(new Error(`proxy refused ${leaky}`), { code: `E_${leaky}`, name: `Proxy ${leaky}` });
        setImmediate(() => handler.onError(err));
        return true;
      },
    } as unknown as import('undici').Dispatcher;
    client = new GatewayClient({
      baseUrl: `http://${USER}:${PASSWORD}@127.0.0.1:${port}`,
      apiKey: KEY,
      dispatcher,
      maxRetries: 0,
    });
    const err = await captureError(client.sessions.list());
    expect(err).toBeInstanceOf(NetworkError);
    expect(renderings(err)).toContain('[redacted]');
    expect(renderings(err)).not.toContain(KEY);
    expect(renderings(err)).not.toContain(PASSWORD);
    expect(inspect((err as Error).cause, { depth: 10 })).not.toMatch(new RegExp(`${KEY}|${PASSWORD}`));
  });
});

describe('deprecated routes', () => {
  it('reports a deprecated route once, not on every response', async () => {
    harness = await startHarness((_req, res) =>
      json(
        res,
        200,
        { success: true, transactions: [] },
        {
          deprecation: 'true',
          sunset: 'Sun, 17 May 2026 00:00:00 GMT',
          link: '</v3/transactions>; rel="successor-version"',
        },
      ),
    );
    const notices: unknown[] = [];
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, onDeprecation: (n) => notices.push(n) });
    await client.legacy.transactions({ session_id: 's1' });
    await client.legacy.transactions({ session_id: 's1' });
    expect(notices).toEqual([
      {
        method: 'GET',
        path: '/v2/transactions',
        sunset: 'Sun, 17 May 2026 00:00:00 GMT',
        successor: '/v3/transactions',
      },
    ]);
  });
});

describe('place_promo idempotency', () => {
  it('always sends an idempotency key, generating one when absent and handing it back', async () => {
    harness = await startHarness((_req, res) =>
      json(res, 202, { status: 'pending', correlation_id: 'c-p', promo_id: 7 }),
    );
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const generated = await client.accountPromos.place({ session_id: 's1', promo_id: 7, stake: 5 });
    const given = await client.accountPromos.place({
      session_id: 's1',
      promo_id: 7,
      stake: 5,
      idempotency_key: 'mine',
    });
    const sent = harness.received.map((r) => (r.body as { idempotency_key: string }).idempotency_key);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.idempotencyKey).toBe(sent[0]);
    expect(sent[1]).toBe('mine');
    expect(given.idempotencyKey).toBe('mine');
  });
});

describe('transport: reading the answer', () => {
  const balanceOf = (bookie: string) => ({ session_id: 's1', bookie, balance: 7 });

  it('joins a body sent in small pieces, a character split between two of them, and skips a byte-order mark', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(balanceOf('bookié')))]);
    const split = body.indexOf(Buffer.from('é')) + 1; // between the two bytes of "é"
    harness = await startHarness((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: each write is its own piece
      res.write(body.subarray(0, split));
      setTimeout(() => res.end(body.subarray(split)), 20);
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const got = await client.balances.get({ session_id: 's1' });
    expect(got.bookie).toBe('bookié');
  });

  it('skips an informational 103 answer and returns the real one', async () => {
    harness = await startHarness((_req, res) => {
      res.writeEarlyHints({ link: '</x>; rel=preload' });
      json(res, 200, balanceOf('bookie_a'));
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const got = await client.balances.get({ session_id: 's1' }).withResponse();
    expect(got.response.status).toBe(200);
    expect(got.data.balance).toBe(7);
  });

  it('keeps the path of a baseUrl that has one', async () => {
    harness = await startHarness((_req, res) => json(res, 200, balanceOf('bookie_a')));
    client = new GatewayClient({ baseUrl: `${harness.url}/gateway/`, apiKey: KEY });
    await client.balances.get({ session_id: 's1' });
    expect(harness.received[0]?.path).toBe('/gateway/v3/balance');
    expect(harness.received[0]?.body).toEqual({ session_id: 's1' });
  });
});
