import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHA, ALPHA_A, ALPHA_C, get, post, type Sandbox, start, waitJob } from './platform-helpers.js';

describe('control routes', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ speed: 1, start: new Date('2026-11-21T09:00:00Z') });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('reports state: now, bets, deliveries and counters', async () => {
    const res = await get(sb.url, '/_sandbox/state');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      bets: expect.any(Array),
      webhookDeliveries: expect.any(Array),
      counters: expect.any(Object),
    });
    expect(Date.parse(res.body.now)).toBeGreaterThanOrEqual(Date.parse('2026-11-21T09:00:00Z'));
    expect(JSON.stringify(res.body)).not.toContain('sandbox-key-');
  });

  it('advances the sandbox clock by ms', async () => {
    const before = Date.parse((await get(sb.url, '/_sandbox/state')).body.now);
    const res = await post(sb.url, '/_sandbox/clock/advance', undefined, { ms: 3_600_000 });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.now) - before).toBeGreaterThanOrEqual(3_600_000);
    const bad = await post(sb.url, '/_sandbox/clock/advance', undefined, { ms: -5 });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('ms');
  });

  it('completes pending jobs when the clock is advanced past their work', async () => {
    const res = await post(sb.url, '/v3/bonus_bets', ALPHA, { session_id: ALPHA_A });
    await post(sb.url, '/_sandbox/clock/advance', undefined, { ms: 2_000 });
    const entry = await waitJob(sb.url, ALPHA, res.body.correlation_id);
    expect(entry.status).toBe('completed');
  });

  it('replaces fault settings and refuses bad ones with a message naming the field', async () => {
    const ok = await post(sb.url, '/_sandbox/faults', undefined, { errorRates: { '/v3/balance': 1 } });
    expect(ok.status).toBe(200);
    const failed = await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A });
    expect([500, 503]).toContain(failed.status);
    expect(failed.body.detail).toMatch(/injected fault/);
    await post(sb.url, '/_sandbox/faults', undefined, {});
    expect((await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A })).status).toBe(200);
    const bad = await post(sb.url, '/_sandbox/faults', undefined, { errorRates: { '/v3/balance': 2 } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain("errorRates['/v3/balance']");
    const unknown = await post(sb.url, '/_sandbox/faults', undefined, { explode: true });
    expect(unknown.body.detail).toContain('explode');
  });

  it('resets accounts and money to the fixtures', async () => {
    await post(sb.url, '/v3/stop_session', ALPHA, { session_id: ALPHA_C });
    const before = (await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A })).body.withdrawable_balance;
    const w = await post(sb.url, '/v3/withdraw_balance', ALPHA, { session_id: ALPHA_A, amount: 100 });
    await post(sb.url, '/_sandbox/clock/advance', undefined, { ms: 2_000 });
    await waitJob(sb.url, ALPHA, w.body.correlation_id);
    expect((await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A })).body.withdrawable_balance).toBe(
      before - 100,
    );
    const res = await post(sb.url, '/_sandbox/reset', undefined, {});
    expect(res.status).toBe(200);
    expect((await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A })).body.withdrawable_balance).toBe(before);
    const sessions = (await post(sb.url, '/api/session_ids', ALPHA)).body.sessions;
    expect(sessions.find((s: { session_id: string }) => s.session_id === ALPHA_C).active).toBe(true);
  });
});

describe('control routes switched off', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ control: false });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('does not mount /_sandbox without the control flag', async () => {
    expect((await get(sb.url, '/_sandbox/state')).status).toBe(404);
    expect((await post(sb.url, '/_sandbox/clock/advance', undefined, { ms: 1 })).status).toBe(404);
  });
});

describe('same seed, same sandbox', () => {
  it('gives the same account promos for the same seed and clock start', async () => {
    const startAt = new Date('2026-11-21T09:00:00Z');
    const a = await start({ seed: 7, start: startAt, speed: 1 });
    const b = await start({ seed: 7, start: startAt, speed: 1 });
    try {
      const pa = (await get(a.url, '/v3/account_promos', ALPHA)).body.promos;
      const pb = (await get(b.url, '/v3/account_promos', ALPHA)).body.promos;
      expect(pa.length).toBeGreaterThan(0);
      expect(pb).toEqual(pa);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('settle control route', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ speed: 1 });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('settles a pending ledger bet on a finished event and answers 404 for an unknown event key', async () => {
    const promos = (await get(sb.url, '/v3/account_promos', ALPHA)).body.promos;
    const card = promos.find((p: { placeable_by_id: boolean }) => p.placeable_by_id);
    const placed = await post(sb.url, '/v3/place_promo', ALPHA, {
      session_id: ALPHA_C,
      promo_id: card.promo_id,
      stake: 10,
    });
    await post(sb.url, '/_sandbox/clock/advance', undefined, { ms: 2_000 });
    await waitJob(sb.url, ALPHA, placed.body.correlation_id);
    expect(
      (await get(sb.url, '/_sandbox/state')).body.bets.find(
        (b: { bet: { bet_type: string } }) => b.bet.bet_type === 'promo',
      ).status,
    ).toBe('pending');
    const res = await post(sb.url, '/_sandbox/settle', undefined, { epk: card.epk });
    expect(res.status).toBe(200);
    const state = (await get(sb.url, '/_sandbox/state')).body;
    const bet = state.bets.find((b: { bet: { bet_type: string } }) => b.bet.bet_type === 'promo');
    expect(['won', 'lost']).toContain(bet.status);
    const unknown = await post(sb.url, '/_sandbox/settle', undefined, { epk: 'no/such/event' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.field).toBe('epk');
  });
});
