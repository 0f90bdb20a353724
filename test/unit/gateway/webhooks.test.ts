import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  jsonDepth,
  parseWebhook,
  signWebhook,
  verifyWebhookSignature,
  WebhookKeyError,
  WebhookPayloadError,
  WebhookSignatureError,
} from '../../../src/gateway/index.js';

const KEY = 'sandbox-key-alpha';
const body = JSON.stringify({
  correlation_id: 'c-1',
  result: { success: true, bet_id: 'B-1', odds: 2.4, stake: 10, potential_return: 24 },
  metadata: { bookie: 'bookie_a', username: 'u', session_id: 's1' },
  delivered_at: '2026-11-21T10:00:00Z',
});

describe('verifying without a key', () => {
  // A receiver passing `process.env.KEY ?? ''` while the variable is unset: a body signed with '' would pass.
  const forged = signWebhook(body, '');
  const now = () => Date.parse('2026-11-21T10:00:30Z');

  it.each([
    ['an empty key', ''],
    ['a blank key', '   '],
    ['no key', undefined],
  ])('parseWebhook refuses %s with a WebhookKeyError saying to pass the API key', (_what, key) => {
    const call = () => parseWebhook(body, forged, key as string, { now });
    expect(call).toThrow(WebhookKeyError);
    expect(call).toThrow(/needs the API key the deliveries are signed with.*pass your account's API key/);
  });

  it('verifyWebhookSignature refuses an empty key instead of answering true for a body signed with it', () => {
    expect(() => verifyWebhookSignature(body, forged, '')).toThrow(WebhookKeyError);
  });
});

describe('webhook signatures', () => {
  it('signs as sha256= plus the hex HMAC-SHA256 of the raw body keyed with the API key', () => {
    const expected = createHmac('sha256', KEY).update(body).digest('hex');
    expect(signWebhook(body, KEY)).toBe(`sha256=${expected}`);
    expect(signWebhook(Buffer.from(body), KEY)).toBe(`sha256=${expected}`);
  });

  it('accepts a good signature over string or Buffer bytes and parses the typed body', () => {
    const sig = signWebhook(body, KEY);
    expect(verifyWebhookSignature(body, sig, KEY)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), sig, KEY)).toBe(true);
    const parsed = parseWebhook(Buffer.from(body), sig, KEY, { now: () => Date.parse('2026-11-21T10:00:30Z') });
    expect(parsed.correlation_id).toBe('c-1');
    expect(parsed.metadata?.bookie).toBe('bookie_a');
    expect((parsed.result as { bet_id: string }).bet_id).toBe('B-1');
  });

  it('rejects a tampered body', () => {
    const sig = signWebhook(body, KEY);
    const tampered = body.replace('"stake":10', '"stake":1000');
    expect(verifyWebhookSignature(tampered, sig, KEY)).toBe(false);
    expect(() => parseWebhook(tampered, sig, KEY)).toThrow(WebhookSignatureError);
  });

  it('rejects a signature made with another key', () => {
    const sig = signWebhook(body, 'sandbox-key-bravo');
    expect(verifyWebhookSignature(body, sig, KEY)).toBe(false);
    expect(() => parseWebhook(body, sig, KEY)).toThrow(/does not match/);
  });

  it('rejects a missing or malformed header without throwing from the length check', () => {
    expect(verifyWebhookSignature(body, undefined, KEY)).toBe(false);
    expect(verifyWebhookSignature(body, 'sha256=abc', KEY)).toBe(false);
    expect(verifyWebhookSignature(body, signWebhook(body, KEY).replace('sha256=', 'md5='), KEY)).toBe(false);
    expect(() => parseWebhook(body, undefined, KEY)).toThrow(/no Bet-Signature header/);
  });

  it('tells the caller to pass the raw request body when given a parsed object', () => {
    const obj = JSON.parse(body);
    const sig = signWebhook(body, KEY);
    expect(() => verifyWebhookSignature(obj as never, sig, KEY)).toThrow(WebhookPayloadError);
    expect(() => parseWebhook(obj as never, sig, KEY)).toThrow(/pass the raw request body/);
  });

  it('refuses a signed body that lacks the webhook shape', () => {
    const raw = JSON.stringify({ result: {} });
    expect(() => parseWebhook(raw, signWebhook(raw, KEY), KEY)).toThrow(/correlation_id/);
  });

  it('never puts the key in its errors', () => {
    let caught: unknown;
    try {
      parseWebhook(body, 'sha256=00', KEY);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(WebhookSignatureError);
    expect(JSON.stringify(caught) + String(caught) + (caught as Error).stack).not.toContain(KEY);
  });
  it('refuses a delivery outside a tolerance the caller sets', () => {
    const sig = signWebhook(body, KEY);
    expect(parseWebhook(body, sig, KEY, { toleranceMs: 120_000, now: () => AT + 60_000 }).correlation_id).toBe('c-1');
    expect(() => parseWebhook(body, sig, KEY, { toleranceMs: 30_000, now: () => AT + 60_000 })).toThrow(
      /60 s away from now \(tolerance 30 s\)/,
    );
  });
});

const AT = Date.parse('2026-11-21T10:00:00Z');

describe('parseWebhook freshness by default', () => {
  const sig = signWebhook(body, KEY);

  it('accepts a delivery within 300 s of now without any option', () => {
    expect(parseWebhook(body, sig, KEY, { now: () => AT + 299_000 }).correlation_id).toBe('c-1');
  });

  it('refuses a delivery more than 300 s old without any option', () => {
    expect(() => parseWebhook(body, sig, KEY, { now: () => AT + 3_600_000 })).toThrow(/3600 s away from now/);
  });

  it('refuses a delivery without delivered_at by default, naming the opt-out', () => {
    const raw = JSON.stringify({ correlation_id: 'c-2', result: {} });
    expect(() => parseWebhook(raw, signWebhook(raw, KEY), KEY)).toThrow(/toleranceMs: false/);
  });

  it('accepts an old delivery only when the check is turned off explicitly', () => {
    expect(parseWebhook(body, sig, KEY, { toleranceMs: false, now: () => AT + 86_400_000 }).correlation_id).toBe('c-1');
  });
});

describe('parseWebhook nesting limit', () => {
  const deep = (levels: number) =>
    `{"correlation_id":"c-3","delivered_at":"2026-11-21T10:00:00Z","result":${'['.repeat(levels)}${']'.repeat(levels)}}`;

  it('refuses a body nested 100 000 levels deep with a WebhookPayloadError, not a RangeError', () => {
    const raw = deep(100_000);
    let caught: unknown;
    try {
      parseWebhook(raw, signWebhook(raw, KEY), KEY, { now: () => AT });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(WebhookPayloadError);
    expect((caught as Error).message).toMatch(/deeper than 64 levels/);
  });

  it('takes the limit from maxDepth', () => {
    const raw = deep(10);
    expect(() => parseWebhook(raw, signWebhook(raw, KEY), KEY, { now: () => AT, maxDepth: 5 })).toThrow(
      /deeper than 5 levels/,
    );
    expect(parseWebhook(raw, signWebhook(raw, KEY), KEY, { now: () => AT, maxDepth: 11 }).correlation_id).toBe('c-3');
  });

  it('does not count brackets inside strings', () => {
    expect(jsonDepth('{"a":"[[[[{{{{","b":[1]}')).toBe(2);
    expect(jsonDepth('{"a":"\\"[[","b":[]}')).toBe(2);
  });
});
