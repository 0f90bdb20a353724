import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src/gateway/index.js';
import { until } from '../../support/wait.js';
import { type Harness, json, startHarness } from './http-harness.js';

let harness: Harness | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await harness?.close();
  client = undefined;
  harness = undefined;
});

const envelope = (timeoutInMs = 300_000) => ({
  status: 'pending',
  correlation_id: randomUUID(),
  submitted_at: new Date().toISOString(),
  timeout_at: new Date(Date.now() + timeoutInMs).toISOString(),
});

describe('batched bet_status poller', () => {
  it('sends one bet_status request per tick for 250 pending jobs, and none once they resolve', async () => {
    const done = new Set<string>();
    const batchSizes: number[] = [];
    harness = await startHarness((req, res) => {
      if (req.path !== '/api/bet_status') return json(res, 404, {});
      const ids = (req.body as { correlation_ids: string[] }).correlation_ids;
      batchSizes.push(ids.length);
      // The first tick sees everything pending; from the second on the jobs are completed.
      const statuses = ids.map((id) =>
        done.has(id)
          ? { correlation_id: id, status: 'completed', result: { success: true, bet_result: { bet_id: `b-${id}` } } }
          : { correlation_id: id, status: 'pending' },
      );
      if (batchSizes.length === 1) for (const id of ids) done.add(id);
      json(res, 200, { statuses });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k-test', poller: { intervalMs: 40 } });
    const envelopes = Array.from({ length: 250 }, () => envelope());
    const outcomes = await Promise.all(envelopes.map((e) => client!.jobs.track(e)));

    expect(outcomes.every((o) => o.status === 'completed')).toBe(true);
    expect(batchSizes).toEqual([250, 250]);
    expect(client.jobs.pendingCount).toBe(0);
    expect(client.jobs.pollerActive).toBe(false);
    // Give the timer several intervals to misbehave: no further request may arrive.
    await new Promise((r) => setTimeout(r, 200));
    expect(harness.count('/api/bet_status')).toBe(2);
  });

  it('never polls a job past its timeout_at and reports it as timeout', async () => {
    harness = await startHarness((req, res) => {
      const ids = (req.body as { correlation_ids: string[] }).correlation_ids;
      json(res, 200, { statuses: ids.map((id) => ({ correlation_id: id, status: 'pending' })) });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k-test', poller: { intervalMs: 30 } });
    const env = envelope(150);
    const outcome = await client.jobs.track(env);
    expect(outcome.status).toBe('timeout');
    expect(outcome.entry?.correlation_id).toBe(env.correlation_id);
    const polls = harness.count('/api/bet_status');
    await new Promise((r) => setTimeout(r, 120));
    expect(harness.count('/api/bet_status')).toBe(polls);
    expect(client.jobs.pollerActive).toBe(false);
  });

  it('reports unknown and timeout poll statuses as outcomes without resubmitting anything', async () => {
    harness = await startHarness((req, res) => {
      const [a, b] = (req.body as { correlation_ids: string[] }).correlation_ids;
      json(res, 200, {
        statuses: [
          { correlation_id: a, status: 'unknown' },
          { correlation_id: b, status: 'timeout' },
        ],
      });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k-test', poller: { intervalMs: 20 } });
    const [ea, eb] = [envelope(), envelope()];
    const [oa, ob] = await Promise.all([client.jobs.track(ea), client.jobs.track(eb)]);
    expect(oa.status).toBe('unknown');
    expect(ob.status).toBe('timeout');
    expect(harness.received.every((r) => r.path === '/api/bet_status')).toBe(true);
  });

  it('removes a job from the batch as soon as a webhook resolves it', async () => {
    harness = await startHarness((req, res) => {
      const ids = (req.body as { correlation_ids: string[] }).correlation_ids;
      json(res, 200, { statuses: ids.map((id) => ({ correlation_id: id, status: 'pending' })) });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k-test', poller: { intervalMs: 25 } });
    const [ea, eb] = [envelope(), envelope()];
    const pa = client.jobs.track(ea);
    void client.jobs.track(eb).catch(() => {});
    await until('a bet_status poll', () => harness!.count('/api/bet_status') >= 1, { timeoutMs: 5_000, everyMs: 10 });
    const resolved = client.jobs.resolveFromWebhook({
      correlation_id: ea.correlation_id,
      result: { success: true, bet_id: 'B1', odds: 2.1, stake: 5 },
      metadata: { bookie: 'bookie_a', session_id: 's1' },
      delivered_at: new Date().toISOString(),
    });
    expect(resolved).toBe(true);
    const outcome = await pa;
    expect(outcome.status === 'completed' && (outcome.result as { bet_id: string }).bet_id).toBe('B1');
    // A poll sent before the webhook may still be on its way (polls are 25 ms apart); one poll at a time, so the
    // second to arrive from here was built after it.
    const before = harness.count('/api/bet_status');
    await until('a bet_status poll built after the webhook', () => harness!.count('/api/bet_status') >= before + 2, {
      timeoutMs: 5_000,
      everyMs: 10,
    });
    const last = harness.received.at(-1)!.body as { correlation_ids: string[] };
    expect(last.correlation_ids).toEqual([eb.correlation_id]);
  });
});
