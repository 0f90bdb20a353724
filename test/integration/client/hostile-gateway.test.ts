import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, GatewayClient, ResponseShapeError, ServerError } from '../../../src/gateway/index.js';
import { type Harness, json, startHarness } from './http-harness.js';

// A gateway that echoes the caller's API key everywhere it can: into job results (as values and as keys), into
// response headers and into error bodies. Nothing the client hands back may carry the key.
const KEY = 'sk-hostile-echo-4242';

let harness: Harness | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await harness?.close();
  client = undefined;
  harness = undefined;
});

const everyRendering = (value: unknown): string => {
  const e = value as Error;
  return [
    String(e),
    e?.message ?? '',
    e?.stack ?? '',
    JSON.stringify(e),
    inspect(e, { depth: 20 }),
    inspect(e, { depth: 20, showHidden: true }),
  ].join('\n');
};

const bet = {
  session_id: 's1',
  category: 'sports' as const,
  market_ref: 'ref-1',
  epk: 'basketball/us/nba/a_v_b/2026-11-22',
  sport: 'nba',
  stake: 5,
  target_odds: 1.5,
};

async function hostile(): Promise<Harness> {
  return startHarness((req, res) => {
    const key = String(req.headers['x-api-key']);
    const echo = { 'x-echo-key': key, 'x-request-id': `req-${key}` };
    if (req.path === '/v3/place_bet') {
      return json(res, 202, { status: 'pending', correlation_id: `c-${key}` }, echo);
    }
    if (req.path === '/api/bet_status') {
      const ids = (req.body as { correlation_ids: string[] }).correlation_ids;
      return json(
        res,
        200,
        {
          statuses: ids.map((id) => ({
            correlation_id: id,
            status: 'completed',
            // success must be a boolean: this result breaks the bet schema, with the key inside it.
            result: { success: `placed with ${key}`, bet_id: key, [key]: { note: key } },
          })),
        },
        echo,
      );
    }
    if (req.path === '/v3/balance') return json(res, 401, { detail: `bad key ${key}`, key }, echo);
    return json(res, 500, { status: 'error', message: `failed for ${key}` }, echo);
  });
}

describe('a gateway that echoes the API key', () => {
  it('never puts the key in the ResponseShapeError of a completed job, which says the job completed', async () => {
    harness = await hostile();
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, poller: { intervalMs: 20 } });
    const handle = await client.bets.place(bet);
    const err = await handle.wait().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as ResponseShapeError).jobCompleted).toBe(true);
    expect((err as Error).message).toMatch(/COMPLETED at the gateway/);
    expect((err as Error).message).toMatch(/Do not resubmit/);
    expect(everyRendering(err)).not.toContain(KEY);
  });

  it('never puts the key in the handle, its envelope or the response headers of a submission', async () => {
    harness = await hostile();
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY });
    const { data, response } = await client.bets.place(bet).withResponse();
    expect(JSON.stringify(response)).not.toContain(KEY);
    expect(response.headers['x-echo-key']).toBe('[redacted]');
    expect(response.requestId).toBe('req-[redacted]');
    expect(inspect(client, { depth: 20, showHidden: true })).not.toContain(KEY);
    // The correlation id is the gateway's own value: kept as sent so the job can be polled.
    expect(data.correlationId).toBe(`c-${KEY}`);
  });

  it('never puts the key in an API error, its body or its headers', async () => {
    harness = await hostile();
    client = new GatewayClient({ baseUrl: harness.url, apiKey: KEY, sleep: async () => {} });
    const auth = await client.balances.get({ session_id: 's1' }).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(AuthenticationError);
    expect((auth as AuthenticationError).headers?.['x-echo-key']).toBe('[redacted]');
    expect(everyRendering(auth)).not.toContain(KEY);
    const server = await client.sessions.list().catch((e: unknown) => e);
    expect(server).toBeInstanceOf(ServerError);
    expect(everyRendering(server)).not.toContain(KEY);
  });
});
