import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHA, ALPHA_B, post, type Sandbox, start, waitJob } from './platform-helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ speed: 50, control: true });
});
afterAll(async () => {
  await sb.close();
});

const cash = async () => (await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_B })).body.withdrawable_balance;

async function history() {
  const res = await post(sb.url, '/v3/transactions', ALPHA, { session_id: ALPHA_B, days_back: 2, limit: 200 });
  return (await waitJob(sb.url, ALPHA, res.body.correlation_id)).result.transactions as Array<Record<string, unknown>>;
}

async function withdraw(amount: number) {
  const res = await post(sb.url, '/v3/withdraw_balance', ALPHA, { session_id: ALPHA_B, amount });
  expect(res.status).toBe(202);
  return (await waitJob(sb.url, ALPHA, res.body.correlation_id)).result;
}

const mode = (m: string) => post(sb.url, '/_sandbox/withdrawals/mode', undefined, { mode: m });

describe('money in and out of a session (control routes for the fund)', () => {
  it('credits a deposit to the session and lists it as a deposit transaction', async () => {
    const before = await cash();
    const res = await post(sb.url, '/_sandbox/deposit', undefined, { session_id: ALPHA_B, amount: 250.25 });
    expect(res.status).toBe(200);
    expect(await cash()).toBeCloseTo(before + 250.25, 2);
    expect((await history()).find((t) => t.id === res.body.deposit_id)).toMatchObject({
      type: 'deposit',
      stake: 250.25,
      pnl: 250.25,
    });
  });

  it('holds a withdrawal pending, then completes it: the cash left at the request', async () => {
    await mode('pending');
    const before = await cash();
    const r = await withdraw(10);
    expect(r).toMatchObject({ success: true, status: 'pending' });
    expect(await cash()).toBeCloseTo(before - 10, 2);
    expect((await history()).find((t) => t.id === r.withdrawal_id)).toMatchObject({
      type: 'withdrawal',
      status: 'pending',
      withdrawal_status: 'pending',
      settled_at: null,
    });
    await post(sb.url, '/_sandbox/withdrawals/resolve', undefined, {
      withdrawal_id: r.withdrawal_id,
      status: 'completed',
    });
    expect((await history()).find((t) => t.id === r.withdrawal_id)).toMatchObject({ withdrawal_status: 'completed' });
    expect(await cash()).toBeCloseTo(before - 10, 2);
  });

  it('gives a failed pending withdrawal its cash back', async () => {
    await mode('pending');
    const before = await cash();
    const r = await withdraw(7.5);
    await post(sb.url, '/_sandbox/withdrawals/resolve', undefined, {
      withdrawal_id: r.withdrawal_id,
      status: 'failed',
    });
    expect(await cash()).toBeCloseTo(before, 2);
    expect((await history()).find((t) => t.id === r.withdrawal_id)).toMatchObject({
      withdrawal_status: 'failed',
      status: 'void',
    });
  });

  it('refuses withdrawals in failed mode without moving money', async () => {
    await mode('failed');
    const before = await cash();
    expect(await withdraw(5)).toMatchObject({ success: false, status: 'failed' });
    expect(await cash()).toBeCloseTo(before, 2);
    await mode('completed');
  });
});
