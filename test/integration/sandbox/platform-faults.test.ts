import { afterEach, describe, expect, it } from 'vitest';
import { ALPHA, ALPHA_A, get, post, type Sandbox, start } from './platform-helpers.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe('fault injection', () => {
  it('is off unless enabled', async () => {
    sb = await start();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => post(sb!.url, '/v3/balance', ALPHA, { session_id: ALPHA_A })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await get(sb.url, '/_sandbox/state')).body.faults).toEqual({});
  });

  it('answers a route with an error rate of 1 with 500 or 503 JSON, 503 with Retry-After', async () => {
    sb = await start({ faults: { errorRates: { '/v3/balance': 1 } } });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => post(sb!.url, '/v3/balance', ALPHA, { session_id: ALPHA_A })),
    );
    for (const r of results) {
      expect([500, 503]).toContain(r.status);
      if (r.status === 503) expect(r.headers.get('retry-after')).toBe('1');
    }
    expect(results.some((r) => r.status === 503)).toBe(true);
    expect(results.some((r) => r.status === 500)).toBe(true);
    // Other routes are untouched.
    expect((await post(sb.url, '/api/session_ids', ALPHA)).status).toBe(200);
  });

  it('turns on the default mix with faults: true', async () => {
    sb = await start({ faults: true });
    const faults = (await get(sb.url, '/_sandbox/state')).body.faults;
    expect(faults.errorRates['/v3/markets']).toBeGreaterThan(0);
    expect(faults.stuckJobs).toBeGreaterThan(0);
    expect(faults.webhookFailures).toBeGreaterThan(0);
  });

  it('never injects faults into control routes', async () => {
    sb = await start({ faults: { errorRates: { '*': 1 } } });
    expect((await get(sb.url, '/_sandbox/state')).status).toBe(200);
    expect((await post(sb.url, '/api/session_ids', ALPHA)).status).toBeGreaterThanOrEqual(500);
  });

  it('delays answers by the configured latency (sandbox ms at the sandbox speed)', async () => {
    sb = await start({ speed: 1, faults: { latency: { fixedMs: 300 } } });
    const t0 = performance.now();
    const res = await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A });
    expect(res.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });
});
