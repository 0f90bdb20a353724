import { afterEach, describe, expect, it } from 'vitest';
import {
  GatewayClient,
  GatewayError,
  NetworkError,
  RequestTimeoutError,
  ResponseTooLargeError,
} from '../../../src/gateway/index.js';
import { type HostileGateway, settledWithin, startHostileGateway } from '../../support/hostile-bodies.js';
import { json, startHarness } from './http-harness.js';

const KEY = 'sk-size-test-1';
const LIMIT = 64 * 1024;
const TIMEOUT_MS = 1_500;

let gateway: HostileGateway | undefined;
const clients: GatewayClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await gateway?.close();
  gateway = undefined;
});

const clientFor = (baseUrl: string, opts: Partial<ConstructorParameters<typeof GatewayClient>[0]> = {}) => {
  const c = new GatewayClient({ baseUrl, apiKey: KEY, timeoutMs: TIMEOUT_MS, maxResponseBytes: LIMIT, ...opts });
  clients.push(c);
  return c;
};

describe('a response larger than maxResponseBytes', () => {
  it('is cut off as it streams in: the call fails at once with ResponseTooLargeError naming the option', async () => {
    gateway = await startHostileGateway();
    const started = Date.now();
    const outcome = await settledWithin(clientFor(gateway.urlFor('endless')).sessions.list(), TIMEOUT_MS + 1_000);
    expect(outcome.state).toBe('rejected');
    const err = (outcome as { error: unknown }).error;
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as ResponseTooLargeError).limitBytes).toBe(LIMIT);
    expect((err as Error).message).toMatch(
      /POST \/api\/session_ids: the answer is larger than maxResponseBytes \(65536 bytes\)/,
    );
    expect((err as Error).message).toMatch(/raise the limit: new GatewayClient\(\{ \.\.\., maxResponseBytes: \d+ \}\)/);
    // Well before the deadline, which is what a client reading the whole endless body would hit.
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
  });

  it('closes the connection instead of reading the rest of the body', async () => {
    gateway = await startHostileGateway();
    await clientFor(gateway.urlFor('endless'))
      .sessions.list()
      .catch(() => undefined);
    const g = gateway;
    await expect.poll(() => g.cutOff, { timeout: 1_000 }).toBe(1);
  });

  it('is refused from its declared Content-Length before any of the body arrives', async () => {
    gateway = await startHostileGateway({ declaredBytes: LIMIT + 1 });
    const outcome = await settledWithin(clientFor(gateway.urlFor('declared')).sessions.list(), TIMEOUT_MS + 1_000);
    expect(outcome.state).toBe('rejected');
    expect((outcome as { error: unknown }).error).toBeInstanceOf(ResponseTooLargeError);
  });

  it('is refused on an error answer too, and a read is not retried after it', async () => {
    let served = 0;
    const harness = await startHarness((_req, res) => {
      served++;
      json(res, 500, { status: 'error', message: 'x'.repeat(LIMIT) });
    });
    try {
      const err = await clientFor(harness.url, { sleep: async () => {} })
        .sessions.list()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ResponseTooLargeError);
      expect(served).toBe(1);
    } finally {
      await harness.close();
    }
  });

  it('leaves answers within the limit alone', async () => {
    const harness = await startHarness((_req, res) =>
      json(res, 200, { sessions: [{ session_id: 's'.repeat(LIMIT - 200), bookie: 'bookie_a', active: true }] }),
    );
    try {
      const sessions = await clientFor(harness.url).sessions.list();
      expect(sessions[0]?.session_id).toHaveLength(LIMIT - 200);
    } finally {
      await harness.close();
    }
  });
});

describe('every hostile body settles the call once, before its deadline, with a typed error', () => {
  it('a body cut off by the server mid-way: NetworkError', async () => {
    gateway = await startHostileGateway();
    const outcome = await settledWithin(
      clientFor(gateway.urlFor('broken'), { maxRetries: 0 }).sessions.list(),
      TIMEOUT_MS + 1_000,
    );
    expect(outcome.state).toBe('rejected');
    expect((outcome as { error: unknown }).error).toBeInstanceOf(NetworkError);
  });

  it('a body that stalls past the deadline: RequestTimeoutError at the deadline', async () => {
    gateway = await startHostileGateway();
    const started = Date.now();
    const outcome = await settledWithin(clientFor(gateway.urlFor('stalled')).sessions.list(), TIMEOUT_MS + 1_000);
    expect(outcome.state).toBe('rejected');
    expect((outcome as { error: unknown }).error).toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });
});

describe('the maxResponseBytes option', () => {
  it('defaults to 16 MiB and refuses a value no string can hold, saying what range it takes', () => {
    expect(() => new GatewayClient({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY, maxResponseBytes: 0 })).toThrow(
      /maxResponseBytes must be a whole number of bytes from 1 to \d+ \(got 0\)/,
    );
    expect(() => new GatewayClient({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY, maxResponseBytes: 2 ** 40 })).toThrow(
      GatewayError,
    );
  });
});
