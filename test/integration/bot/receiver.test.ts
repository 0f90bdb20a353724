import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/bot/logger.js';
import { type Receiver, startReceiver, type WebhookDelivery } from '../../../src/bot/receiver.js';
import { OnceRepo } from '../../../src/bot/repos/once.js';
import { type BotStore, openStore } from '../../../src/bot/store.js';
import { signWebhook, verifyWebhookSignature } from '../../../src/gateway/webhooks.js';
import { until } from './desk.js';

const KEY = 'sandbox-key-alpha';
let dir: string;
let store: BotStore;
let receiver: Receiver;
const delivered: WebhookDelivery[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bot-receiver-'));
  store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
  receiver = await startReceiver({
    port: 0,
    maxBodyBytes: 4096,
    toleranceMs: 60_000,
    verify: (raw, header) => verifyWebhookSignature(raw, header, KEY),
    once: new OnceRepo(store),
    onDelivery: async (body) => {
      delivered.push(body);
    },
    logger: silentLogger,
  });
});
afterAll(async () => {
  await receiver.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL('/webhooks/gateway', receiver.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const delivery = (cid: string, at = new Date().toISOString()) =>
  JSON.stringify({ correlation_id: cid, result: { success: true, bet_id: 'B1' }, metadata: {}, delivered_at: at });
const signed = (raw: string) => ({ 'bet-signature': signWebhook(raw, KEY), 'bet-correlation-id': 'x' });

describe('webhook receiver', () => {
  it('answers the health check', async () => {
    const res = await fetch(`${receiver.url}/healthz`);
    expect(res.status).toBe(200);
  });

  it('accepts a signed delivery, persists it and hands it on after answering', async () => {
    const raw = delivery('good-1');
    const res = await post(raw, signed(raw));
    expect(res.status).toBe(200);
    await until(() => delivered.find((d) => d.correlation_id === 'good-1'), 'the delivery handed on');
    const rows = await store.query('SELECT correlation_id FROM webhook_deliveries WHERE correlation_id = ?', 'good-1');
    expect(rows).toHaveLength(1);
  });

  it('refuses a bad signature with 401 and hands nothing on', async () => {
    const raw = delivery('bad-sig');
    const res = await post(raw, { 'bet-signature': signWebhook(raw, 'another-key') });
    expect(res.status).toBe(401);
    const missing = await post(raw);
    expect(missing.status).toBe(401);
    expect(delivered.find((d) => d.correlation_id === 'bad-sig')).toBeUndefined();
  });

  it('acknowledges a retried delivery but hands it on once', async () => {
    const raw = delivery('dup-1');
    const answers = await Promise.all([post(raw, signed(raw)), post(raw, signed(raw)), post(raw, signed(raw))]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await until(() => delivered.find((d) => d.correlation_id === 'dup-1'), 'the delivery');
    await new Promise((r) => setTimeout(r, 50));
    expect(delivered.filter((d) => d.correlation_id === 'dup-1')).toHaveLength(1);
  });

  it('refuses an oversized body with 413', async () => {
    const raw = JSON.stringify({
      correlation_id: 'big',
      pad: 'x'.repeat(10_000),
      delivered_at: new Date().toISOString(),
    });
    const res = await post(raw, signed(raw)).catch(() => ({ status: 413, body: '' }));
    expect(res.status).toBe(413);
  });

  it('refuses a stale delivered_at even when signed', async () => {
    const raw = delivery('stale-1', new Date(Date.now() - 10 * 60_000).toISOString());
    const res = await post(raw, signed(raw));
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/delivered_at/);
    expect(delivered.find((d) => d.correlation_id === 'stale-1')).toBeUndefined();
  });

  it('refuses a signed body that is not JSON', async () => {
    const raw = 'not json';
    expect((await post(raw, signed(raw))).status).toBe(400);
  });
});
