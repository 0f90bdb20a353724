import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bot/config/logger.js';
import { OnceRepo } from '../../../src/bot/receiver/once.js';
import {
  type Receiver,
  shapeProblem,
  startReceiver,
  type WebhookDelivery,
} from '../../../src/bot/receiver/receiver.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { signWebhook } from '../../../src/gateway/webhooks.js';
import { until } from '../../support/wait.js';

const KEY = 'sandbox-key-alpha';
let dir: string;
let store: BotStore;
let receiver: Receiver;
const delivered: WebhookDelivery[] = [];
const logLines: string[] = [];
const quarantined: Array<{ id: string; reason: string }> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bot-receiver-'));
  store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
  receiver = await startReceiver({
    port: 0,
    maxBodyBytes: 4096,
    toleranceMs: 60_000,
    apiKey: KEY,
    once: new OnceRepo(store),
    // As the bot wires it: correlation ids starting "bet-" belong to place_bet jobs.
    check: async (body) => shapeProblem(body.correlation_id.startsWith('bet-') ? 'bet' : undefined, body),
    quarantine: async (body, _raw, reason) => {
      quarantined.push({ id: body.correlation_id, reason });
      return true;
    },
    onDelivery: async (body) => {
      delivered.push(body);
    },
    logger: createLogger({ level: 'debug', write: (l) => logLines.push(l) }),
    summaryIntervalMs: 200,
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
    const length = String(Buffer.byteLength(body));
    const all = { 'content-type': 'application/json', 'content-length': length, ...headers };
    const req = request(url, { method: 'POST', headers: all }, (res) => {
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
    await until('the delivery handed on', () => delivered.find((d) => d.correlation_id === 'good-1'), {
      timeoutMs: 15_000,
    });
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
    await until('the delivery', () => delivered.find((d) => d.correlation_id === 'dup-1'), { timeoutMs: 15_000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(delivered.filter((d) => d.correlation_id === 'dup-1')).toHaveLength(1);
  });

  it('refuses an oversized body with 413', async () => {
    const raw = JSON.stringify({
      correlation_id: 'big',
      pad: 'x'.repeat(10_000),
      delivered_at: new Date().toISOString(),
    });
    const res = await post(raw, signed(raw));
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

  it('quarantines a signed delivery whose shape is wrong for its bet job, then applies the real one', async () => {
    const wrong = JSON.stringify({
      correlation_id: 'bet-q1',
      result: { surprise: 1 },
      delivered_at: new Date().toISOString(),
    });
    const res = await post(wrong, signed(wrong));
    expect(res.body).toContain('"quarantined":true');
    expect(quarantined).toEqual([{ id: 'bet-q1', reason: 'result is not a bet result' }]);
    const right = delivery('bet-q1');
    expect((await post(right, signed(right))).body).toContain('"duplicate":false');
    await until('the genuine delivery handed on', () => delivered.find((d) => d.correlation_id === 'bet-q1'), {
      timeoutMs: 15_000,
    });
  });

  it('never applies a delivery whose status is not final (pending)', async () => {
    const raw = JSON.stringify({ correlation_id: 'bet-p1', status: 'pending', delivered_at: new Date().toISOString() });
    expect((await post(raw, signed(raw))).body).toContain('"quarantined":true');
    await new Promise((r) => setTimeout(r, 50));
    expect(delivered.find((d) => d.correlation_id === 'bet-p1')).toBeUndefined();
  });

  it('started without a key, says so in the log and refuses a body signed with the empty key', async () => {
    const lines: string[] = [];
    const keyless = await startReceiver({
      port: 0,
      maxBodyBytes: 4096,
      toleranceMs: 60_000,
      apiKey: '',
      once: new OnceRepo(store),
      onDelivery: async (body) => {
        delivered.push(body);
      },
      logger: createLogger({ write: (l) => lines.push(l) }),
    });
    try {
      const raw = delivery('keyless-forgery');
      const res = await fetch(`${keyless.url}/webhooks/gateway`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'bet-signature': signWebhook(raw, '') },
        body: raw,
      });
      expect(res.status).toBe(401);
      expect(lines.join('\n')).toMatch(/webhook receiver has no API key \(GATEWAY_API_KEY\)/);
      expect(delivered.find((d) => d.correlation_id === 'keyless-forgery')).toBeUndefined();
    } finally {
      await keyless.close();
    }
  });

  it('refuses a signed body nested 100,000 levels deep with 400 instead of overflowing the stack', async () => {
    const raw = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const small = await startReceiver({
      port: 0,
      maxBodyBytes: 1_000_000,
      toleranceMs: 60_000,
      apiKey: KEY,
      once: new OnceRepo(store),
      onDelivery: async () => undefined,
      logger: createLogger({ write: () => undefined }),
    });
    try {
      const res = await fetch(`${small.url}/webhooks/gateway`, { method: 'POST', headers: signed(raw), body: raw });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/nested too deeply/);
    } finally {
      await small.close();
    }
  });

  it('logs a flood of refused deliveries as one summary line per interval, not a line each', async () => {
    await new Promise((r) => setTimeout(r, 300)); // the earlier tests' refusals are summarised first
    const before = logLines.length;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => post(delivery(`flood-${i}`), { 'bet-signature': 'sha256=00' })),
    );
    const counted = () =>
      logLines
        .slice(before)
        .map((l) => (JSON.parse(l) as { byReason?: Record<string, number> }).byReason?.['bad signature'] ?? 0)
        .reduce((a, b) => a + b, 0);
    await until('summaries covering the 200 refusals', () => counted() === 200, { timeoutMs: 5_000 });
    // One line per 200 ms interval while the flood lasted, never one per refusal.
    expect(logLines.length - before).toBeLessThan(20);
  });
});
