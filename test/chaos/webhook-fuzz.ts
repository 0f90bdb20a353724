import { Agent, request } from 'node:http';
import { signWebhook } from '../../src/gateway/webhooks.js';
import { createRng } from './rng.js';
import { type CaseContext, FUZZ_ID_PREFIX, type FuzzRequest, makeCase } from './webhook-cases.js';

export interface WebhookFuzzOptions {
  /** The receiver's origin, e.g. bot.receiverUrl. */
  url: string;
  apiKey: string;
  otherKey: string;
  maxBodyBytes: number;
  count: number;
  seed?: number;
  concurrency?: number;
  /** The receiver's clock, which stamps every delivered_at (default the machine's; a pinned desk's own). */
  now?: () => number;
}

export interface WebhookFuzzReport {
  sent: number;
  /** Answered 2xx as a new delivery: must be zero. */
  accepted: number;
  /** Answered 2xx as a duplicate (replays of genuine deliveries): correct, not an acceptance. */
  deduped: number;
  /** Answered 5xx: the receiver broke on the input. */
  serverErrors: number;
  /** The connection failed (refused, reset before any answer) — fine after a 413, counted to spot a dead server. */
  connectionErrors: number;
  /** Families whose requests lost their connection (only oversized bodies may: the receiver stops reading). */
  connectionErrorKinds: string[];
  byStatus: Record<string, number>;
  acceptedKinds: string[];
  genuineIds: string[];
}

interface Answer {
  status: number;
  body: string;
}

function send(agent: Agent, origin: URL, req: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[] | number> = { ...req.headers };
    if (!req.chunked && req.method !== 'GET') headers['content-length'] = req.body.length;
    const r = request(
      { host: origin.hostname, port: origin.port, method: req.method, path: req.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.setTimeout(15_000, () => r.destroy(new Error('receiver did not answer within 15 s')));
    r.on('error', reject);
    if (req.method === 'GET') return void r.end();
    if (req.chunked) {
      // Several writes without a length: the receiver must bound the stream, not the header.
      const step = 16 * 1024;
      for (let at = 0; at < req.body.length; at += step) r.write(req.body.subarray(at, at + step));
      r.end();
    } else {
      r.end(req.body);
    }
  });
}

/** Posts one genuine, freshly signed delivery (what the gateway would send), stamped `at` on the receiver's clock. */
export async function sendGenuine(
  url: string,
  apiKey: string,
  correlationId: string,
  at = Date.now(),
): Promise<Answer> {
  const agent = new Agent({ keepAlive: false });
  const body = genuineBody(correlationId, at);
  try {
    return await send(agent, new URL(url), {
      kind: 'genuine',
      method: 'POST',
      path: '/webhooks/gateway',
      headers: { 'content-type': 'application/json', 'bet-signature': signWebhook(body, apiKey) },
      body,
    });
  } finally {
    agent.destroy();
  }
}

function genuineBody(correlationId: string, at: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      correlation_id: correlationId,
      result: { success: false, error: 'fuzz seed delivery' },
      metadata: { bookie: 'bookie_a', username: 'fuzz', session_id: 'sess-fuzz' },
      delivered_at: new Date(at).toISOString(),
    }),
  );
}

/**
 * Sends `count` hostile requests (bad signatures, malformed and oversized bodies, stale delivered_at,
 * replays, wrong routes) with bounded concurrency and counts how the receiver answered.
 */
export async function fuzzWebhooks(opts: WebhookFuzzOptions): Promise<WebhookFuzzReport> {
  const rng = createRng(opts.seed ?? 7);
  const origin = new URL(opts.url);
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency ?? 16 });
  const report: WebhookFuzzReport = {
    sent: 0,
    accepted: 0,
    deduped: 0,
    serverErrors: 0,
    connectionErrors: 0,
    connectionErrorKinds: [],
    byStatus: {},
    acceptedKinds: [],
    genuineIds: [],
  };
  // One genuine delivery first: replays of it must come back as duplicates, never as new deliveries.
  const now = opts.now ?? Date.now;
  const genuineId = `genuine-${opts.seed ?? 7}-${Date.now()}`;
  const first = await sendGenuine(opts.url, opts.apiKey, genuineId, now());
  if (first.status !== 200) {
    agent.destroy();
    throw new Error(`the receiver refused a genuine, correctly signed delivery (${first.status} ${first.body})`);
  }
  report.genuineIds.push(genuineId);
  const ctx: CaseContext = {
    rng,
    apiKey: opts.apiKey,
    otherKey: opts.otherKey,
    maxBodyBytes: opts.maxBodyBytes,
    now: now(),
    delivered: [genuineBody(genuineId, now())],
    captured: genuineBody(`${FUZZ_ID_PREFIX}captured-${opts.seed ?? 7}`, now() - 2 * 86_400_000),
  };
  let next = 0;
  const worker = async () => {
    while (next < opts.count) {
      const index = next++;
      ctx.now = now();
      const req = makeCase(ctx, index);
      report.sent += 1;
      try {
        const answer = await send(agent, origin, req);
        report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
        if (answer.status >= 500) report.serverErrors += 1;
        if (answer.status >= 200 && answer.status < 300) {
          const duplicate = /"duplicate"\s*:\s*true/.test(answer.body);
          if (duplicate && req.kind === 'fresh_replay') report.deduped += 1;
          else {
            report.accepted += 1;
            report.acceptedKinds.push(req.kind);
          }
        }
      } catch {
        report.connectionErrors += 1;
        if (!report.connectionErrorKinds.includes(req.kind)) report.connectionErrorKinds.push(req.kind);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.concurrency ?? 16 }, worker));
  } finally {
    agent.destroy();
  }
  return report;
}
