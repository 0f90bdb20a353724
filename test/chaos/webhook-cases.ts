import { signWebhook } from '../../src/gateway/webhooks.js';
import type { Rng } from './rng.js';

/** One hostile request for the webhook receiver; none of them may be accepted. */
export interface FuzzRequest {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  /** The body; `chunked` sends it without a content-length. */
  body: Buffer;
  chunked?: boolean;
}

export interface CaseContext {
  rng: Rng;
  apiKey: string;
  /** A different key: what an attacker who knows some other account's key would sign with. */
  otherKey: string;
  maxBodyBytes: number;
  now: number;
  /** Genuine deliveries the receiver already accepted; replaying them must be deduped. */
  delivered: Buffer[];
  /** A genuine delivery captured long ago (stale delivered_at), correctly signed. */
  captured: Buffer;
}

const PATH = '/webhooks/gateway';

let serial = 0;
/** Correlation ids the fuzzer invents carry a prefix, so the store can be checked for any that got in. */
export const FUZZ_ID_PREFIX = 'fuzz-';

function fuzzId(rng: Rng): string {
  serial += 1;
  return `${FUZZ_ID_PREFIX}${serial}-${rng.int(0, 1e9)}`;
}

function webhookBody(ctx: CaseContext, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    correlation_id: fuzzId(ctx.rng),
    result: { success: true, bet_id: `B${ctx.rng.int(1, 1e6)}`, odds: 2.1, stake: 5, potential_return: 10.5 },
    metadata: { bookie: 'bookie_a', username: 'fuzz', session_id: 'sess-fuzz' },
    delivered_at: new Date(ctx.now).toISOString(),
    ...overrides,
  };
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const sig = (body: Buffer, key: string) => signWebhook(body, key);
const post = (kind: string, body: Buffer, headers: Record<string, string | string[]> = {}): FuzzRequest => ({
  kind,
  method: 'POST',
  path: PATH,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});

function randomHex(rng: Rng, n: number): string {
  return rng
    .bytes(Math.ceil(n / 2))
    .toString('hex')
    .slice(0, n);
}

/** Each generator makes one request of its family; the mix is uniform over families. */
const families: Record<string, (ctx: CaseContext) => FuzzRequest> = {
  unsigned: (ctx) => post('unsigned', json(webhookBody(ctx))),
  random_signature: (ctx) =>
    post('random_signature', json(webhookBody(ctx)), { 'bet-signature': `sha256=${randomHex(ctx.rng, 64)}` }),
  other_key: (ctx) => {
    const body = json(webhookBody(ctx));
    return post('other_key', body, { 'bet-signature': sig(body, ctx.otherKey) });
  },
  tampered: (ctx) => {
    const body = json(webhookBody(ctx));
    const signature = sig(body, ctx.apiKey);
    const copy = Buffer.from(body);
    const at = ctx.rng.int(0, copy.length - 1);
    copy[at] = (copy[at]! + ctx.rng.int(1, 255)) % 256;
    return post('tampered', copy, { 'bet-signature': signature });
  },
  bad_header_form: (ctx) => {
    const body = json(webhookBody(ctx));
    const good = sig(body, ctx.apiKey);
    const hex = good.slice('sha256='.length);
    const header = ctx.rng.pick([
      hex,
      `sha1=${hex.slice(0, 40)}`,
      `SHA256=${hex.toUpperCase()}`,
      `sha256=${hex.toUpperCase()}`,
      `sha256=${hex.slice(0, 63)}`,
      `sha256=${hex}00`,
      `sha256=${Buffer.from(hex, 'hex').toString('base64')}`,
      'sha256=',
      '',
      `x${good}`,
    ]);
    return post('bad_header_form', body, { 'bet-signature': header });
  },
  legacy_header_only: (ctx) => {
    // The old X- header name with a forged value: still a bad signature.
    const body = json(webhookBody(ctx));
    return post('legacy_header_only', body, { 'x-bet-signature': `sha256=${randomHex(ctx.rng, 64)}` });
  },
  signed_not_json: (ctx) => {
    const body = ctx.rng.chance(0.5)
      ? ctx.rng.bytes(ctx.rng.int(0, 512))
      : json(webhookBody(ctx)).subarray(0, ctx.rng.int(1, 40));
    return post('signed_not_json', body, { 'bet-signature': sig(body, ctx.apiKey) });
  },
  signed_wrong_shape: (ctx) => {
    const value = ctx.rng.pick<unknown>([
      null,
      [],
      [webhookBody(ctx)],
      42,
      'correlation_id',
      {},
      { correlation_id: '' },
      { correlation_id: 12345, delivered_at: new Date(ctx.now).toISOString() },
      { correlation_id: null, delivered_at: new Date(ctx.now).toISOString() },
      { correlation_id: { $ne: '' }, delivered_at: new Date(ctx.now).toISOString() },
      { correlation_id: [fuzzId(ctx.rng)], delivered_at: new Date(ctx.now).toISOString() },
    ]);
    const body = json(value);
    return post('signed_wrong_shape', body, { 'bet-signature': sig(body, ctx.apiKey) });
  },
  stale_or_bad_time: (ctx) => {
    const hour = 3_600_000;
    const deliveredAt = ctx.rng.pick<unknown>([
      new Date(ctx.now - ctx.rng.int(1, 48) * hour).toISOString(),
      new Date(ctx.now + ctx.rng.int(1, 48) * hour).toISOString(),
      new Date(0).toISOString(),
      undefined,
      null,
      '',
      'yesterday',
      ctx.now,
      '2026-13-45T99:99:99Z',
    ]);
    const payload = webhookBody(ctx);
    if (deliveredAt === undefined) delete payload.delivered_at;
    else payload.delivered_at = deliveredAt;
    const body = json(payload);
    return post('stale_or_bad_time', body, { 'bet-signature': sig(body, ctx.apiKey) });
  },
  captured_replay: (ctx) => post('captured_replay', ctx.captured, { 'bet-signature': sig(ctx.captured, ctx.apiKey) }),
  fresh_replay: (ctx) => {
    const body = ctx.rng.pick(ctx.delivered);
    return post('fresh_replay', body, { 'bet-signature': sig(body, ctx.apiKey) });
  },
  oversized: (ctx) => {
    const pad = 'x'.repeat(ctx.maxBodyBytes + ctx.rng.int(1, 64 * 1024));
    const body = json(webhookBody(ctx, { padding: pad }));
    const signed = ctx.rng.chance(0.5);
    const req = post('oversized', body, signed ? { 'bet-signature': sig(body, ctx.apiKey) } : {});
    return ctx.rng.chance(0.5) ? { ...req, chunked: true } : req;
  },
  wrong_route: (ctx) => {
    const body = json(webhookBody(ctx));
    const signature = sig(body, ctx.apiKey);
    const [method, path] = ctx.rng.pick([
      ['GET', PATH],
      ['PUT', PATH],
      ['DELETE', PATH],
      ['POST', '/webhooks/gateway/extra'],
      ['POST', '/webhooks/GATEWAY'],
      ['POST', '/'],
      ['POST', '/webhooks/../webhooks/gateway/x'],
    ] as const);
    return {
      kind: 'wrong_route',
      method,
      path,
      headers: { 'content-type': 'application/json', 'bet-signature': signature },
      body: method === 'GET' ? Buffer.alloc(0) : body,
    };
  },
  duplicate_headers: (ctx) => {
    const body = json(webhookBody(ctx));
    // A forged value first and the right one second: the receiver must not pick whichever verifies.
    return post('duplicate_headers', body, {
      'bet-signature': [`sha256=${randomHex(ctx.rng, 64)}`, sig(body, ctx.otherKey)],
    });
  },
};

export const FAMILY_NAMES = Object.keys(families);

/** The n-th request of a run: families in turn, each randomised by the seeded generator. */
export function makeCase(ctx: CaseContext, index: number): FuzzRequest {
  const name = FAMILY_NAMES[index % FAMILY_NAMES.length]!;
  return families[name]!(ctx);
}
