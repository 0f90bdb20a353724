import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ALPHA, ALPHA_A, get, post, type Sandbox, start, untilAnswer, waitJob } from './platform-helpers.js';

interface Hit {
  at: number;
  raw: Buffer;
  headers: IncomingHttpHeaders;
}

let receiver: Server | undefined;
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  receiver = undefined;
  sb = undefined;
});

async function listen(status: number): Promise<{ url: string; hits: Hit[] }> {
  const hits: Hit[] = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ at: performance.now(), raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, hits };
}

function verify(raw: Buffer, header: string | undefined, key: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', key).update(raw).digest('hex')}`);
  const got = Buffer.from(header ?? '');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

describe('webhook delivery', () => {
  it('POSTs the signed result body with Bet-Correlation-Id and a valid Bet-Signature', async () => {
    const hook = await listen(200);
    sb = await start({ speed: 50 });
    const res = await post(sb.url, '/v3/withdraw_balance', ALPHA, {
      session_id: ALPHA_A,
      amount: 12.5,
      callback_url: hook.url,
    });
    expect(res.body.callback_url).toBe(hook.url);
    await untilAnswer(
      'a webhook hit',
      async () => hook.hits.length,
      (n) => n >= 1,
    );
    const hit = hook.hits[0]!;
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['bet-correlation-id']).toBe(res.body.correlation_id);
    expect(verify(hit.raw, hit.headers['bet-signature'] as string, ALPHA)).toBe(true);
    expect(verify(hit.raw, hit.headers['bet-signature'] as string, 'sandbox-key-bravo')).toBe(false);
    const body = JSON.parse(hit.raw.toString());
    expect(body).toMatchObject({
      correlation_id: res.body.correlation_id,
      metadata: { bookie: 'bookie_a', username: 'alpha_a', session_id: ALPHA_A },
    });
    expect(Number.isNaN(Date.parse(body.delivered_at))).toBe(false);
    const polled = await waitJob(sb.url, ALPHA, res.body.correlation_id);
    expect(body.result).toEqual(polled.result);
    expect(body.result).toMatchObject({ success: true, status: 'completed', bookie: 'bookie_a' });
    const state = await untilAnswer(
      'a delivered webhook',
      () => get(sb!.url, '/_sandbox/state'),
      (s) => s.body.webhookDeliveries.some((d: { state: string }) => d.state === 'delivered'),
    );
    expect(state.body.counters.webhooksDelivered).toBe(1);
  });

  it('retries a failing receiver at 1 s, 4 s and 16 s (scaled by speed), then dead-letters, and polling still works', async () => {
    const hook = await listen(500);
    sb = await start({ speed: 20 });
    const res = await post(sb.url, '/v3/bonus_bets', ALPHA, { session_id: ALPHA_A, callback_url: hook.url });
    await untilAnswer(
      'four webhook hits',
      async () => hook.hits.length,
      (n) => n >= 4,
      8_000,
    );
    const [a, b, c, d] = hook.hits.map((h) => h.at) as [number, number, number, number];
    const gaps = [b - a, c - b, d - c];
    // At speed 20 the gaps are 50, 200 and 800 ms of real time, plus request overhead.
    expect(gaps[0]).toBeGreaterThanOrEqual(45);
    expect(gaps[1]).toBeGreaterThanOrEqual(190);
    expect(gaps[2]).toBeGreaterThanOrEqual(790);
    expect(gaps[0]).toBeLessThan(400);
    expect(gaps[1]).toBeLessThan(700);
    expect(gaps[2]).toBeLessThan(1_600);
    expect(gaps[2]! / gaps[1]!).toBeGreaterThan(2);
    const state = await untilAnswer(
      'a dead-lettered delivery',
      () => get(sb!.url, '/_sandbox/state'),
      (s) => s.body.webhookDeliveries.some((d: { state: string }) => d.state === 'dead_lettered'),
    );
    const delivery = state.body.webhookDeliveries.find(
      (x: { correlation_id: string }) => x.correlation_id === res.body.correlation_id,
    );
    expect(delivery.attempts).toHaveLength(4);
    expect(delivery.attempts[0].error).toContain('500');
    expect(hook.hits).toHaveLength(4);
    const polled = await waitJob(sb.url, ALPHA, res.body.correlation_id);
    expect(polled.status).toBe('completed');
  });

  it('treats a 2xx as failed when the webhook fault is on', async () => {
    const hook = await listen(200);
    sb = await start({ speed: 50, faults: { webhookFailures: 1 } });
    await post(sb.url, '/v3/promos', ALPHA, { session_id: ALPHA_A, callback_url: hook.url });
    const state = await untilAnswer(
      'the delivery dead-lettered',
      () => get(sb!.url, '/_sandbox/state'),
      (s) => s.body.webhookDeliveries[0]?.state === 'dead_lettered',
      8_000,
    );
    expect(state.body.webhookDeliveries[0].attempts.every((x: { ok: boolean }) => !x.ok)).toBe(true);
    expect(hook.hits).toHaveLength(4);
  });
});
