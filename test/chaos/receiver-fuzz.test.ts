import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ReceiverTarget, startReceiverTarget } from './receiver-target.js';
import { findSecrets } from './secrets.js';
import { FUZZ_ID_PREFIX } from './webhook-cases.js';
import { fuzzWebhooks, sendGenuine } from './webhook-fuzz.js';

const KEY = 'sandbox-key-alpha';

describe('the webhook receiver under 500 hostile requests', () => {
  let target: ReceiverTarget;
  let report: Awaited<ReturnType<typeof fuzzWebhooks>>;

  beforeAll(async () => {
    target = await startReceiverTarget(KEY, 16 * 1024);
    report = await fuzzWebhooks({
      url: target.url,
      apiKey: KEY,
      otherKey: 'sandbox-key-bravo',
      maxBodyBytes: target.maxBodyBytes,
      count: 500,
      seed: 3,
    });
  });
  afterAll(() => target?.close());

  it('accepts none of them and stores no invented correlation id', async () => {
    expect(report.sent).toBe(500);
    expect(report.acceptedKinds).toEqual([]);
    const rows = await target.store.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE correlation_id LIKE ?',
      `${FUZZ_ID_PREFIX}%`,
    );
    expect(rows[0]?.n).toBe(0);
    // Only the one genuine delivery reached the bot, once, although it was replayed.
    expect(target.handedOn.map((d) => d.correlation_id)).toEqual(report.genuineIds);
    expect(report.deduped).toBeGreaterThan(0);
  });

  it('answers every one with a 4xx (or a dedupe 200), never a 5xx', () => {
    expect(report.serverErrors).toBe(0);
    // Cutting off an oversized upload is allowed; any other request must get an answer.
    expect(report.connectionErrorKinds.filter((k) => k !== 'oversized')).toEqual([]);
    const statuses = Object.keys(report.byStatus).map(Number);
    expect(statuses.every((s) => s === 200 || (s >= 400 && s < 500))).toBe(true);
  });

  it('still takes a genuine delivery afterwards', async () => {
    const answer = await sendGenuine(target.url, KEY, `after-fuzz-${Date.now()}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"duplicate":false');
  });

  it('never writes the API key into its logs', async () => {
    await vi.waitFor(() => expect(target.logs.length).toBeGreaterThan(0), { timeout: 2_000 });
    expect(findSecrets({ logs: target.logs }, [KEY])).toEqual([]);
  });
});
