// Control inputs out of range are refused with a 400 naming the field and the allowed range, and the sandbox
// keeps answering every route afterwards (a huge clock step once left every route answering 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHA, ALPHA_A, get, post, type Sandbox, start } from './platform-helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ speed: 1, start: new Date('2026-11-21T09:00:00Z') });
});
afterAll(async () => {
  await sb.close();
});

/** A keyed route, a control route and the reset all still answer 200. */
async function expectUsable(): Promise<void> {
  expect((await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A })).status).toBe(200);
  expect((await get(sb.url, '/_sandbox/state')).status).toBe(200);
  expect((await post(sb.url, '/_sandbox/reset', undefined, {})).status).toBe(200);
}

describe('control input bounds', () => {
  it.each([1e308, 2 ** 53, 31 * 86_400_000 + 1])('refuses a clock step of %d ms with the allowed range', async (ms) => {
    const res = await post(sb.url, '/_sandbox/clock/advance', undefined, { ms });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'ms', detail: expect.stringContaining('31 days') });
    await expectUsable();
  });

  it.each([
    ['latency.fixedMs', { latency: { fixedMs: 1e308 } }],
    ['latency.spikeMs', { latency: { spikeMs: 2 ** 53, spikeProbability: 1 } }],
    ['betting[0].delay_ms', { betting: [{ fault: 'late_202', delay_ms: 1e308 }] }],
    ['betting[0].hold_ms', { betting: [{ fault: 'webhook_out_of_order', hold_ms: 1e308 }] }],
    ['betting[0].factor', { betting: [{ fault: 'price_moved', factor: 1e308 }] }],
    ['betting[0].max_stake', { betting: [{ fault: 'max_stake', max_stake: 0.004 }] }],
  ])('refuses a fault setting %s out of range with a message naming it', async (name, config) => {
    const res = await post(sb.url, '/_sandbox/faults', undefined, config);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(name);
    expect((await get(sb.url, '/_sandbox/state')).body.faults).toEqual({});
    await expectUsable();
  });

  it.each([1e-320, 1e308])('refuses a price drift factor of %d with the allowed range', async (factor) => {
    const res = await post(sb.url, '/_sandbox/world/drift', undefined, { factor });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'factor', detail: expect.stringContaining('between 0.01 and 100') });
    await expectUsable();
  });

  it('refuses a snapshot document whose time is not a date, and keeps the clock', async () => {
    const { document } = (await post(sb.url, '/_sandbox/snapshot', undefined, { document: true })).body;
    const before = (await get(sb.url, '/_sandbox/state')).body.now;
    const res = await post(sb.url, '/_sandbox/restore', undefined, { document: { ...document, now: 'not a time' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'document', detail: expect.stringContaining("'now'") });
    expect(Date.parse((await get(sb.url, '/_sandbox/state')).body.now)).toBeGreaterThanOrEqual(Date.parse(before));
    await expectUsable();
  });

  it('refuses a snapshot document whose time is more than a year from the start', async () => {
    const { document } = (await post(sb.url, '/_sandbox/snapshot', undefined, { document: true })).body;
    const res = await post(sb.url, '/_sandbox/restore', undefined, {
      document: { ...document, now: '+123456-01-01T00:00:00.000Z' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'document', detail: expect.stringContaining('within a year') });
    await expectUsable();
  });

  it('refuses a clock step past a year after the start, saying how much is left', async () => {
    const fresh = await start({ speed: 1, start: new Date('2026-11-21T09:00:00Z') });
    try {
      for (let i = 0; i < 11; i++) await post(fresh.url, '/_sandbox/clock/advance', undefined, { ms: 31 * 86_400_000 });
      const res = await post(fresh.url, '/_sandbox/clock/advance', undefined, { ms: 31 * 86_400_000 });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field: 'ms', detail: expect.stringContaining('ms are left') });
    } finally {
      await fresh.close();
    }
  });

  it('puts the state back when a snapshot document does not load', async () => {
    const { document } = (await post(sb.url, '/_sandbox/snapshot', undefined, { document: true })).body;
    const res = await post(sb.url, '/_sandbox/restore', undefined, { document: { ...document, accounts: 'garbage' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('document');
    await expectUsable();
  });
});
