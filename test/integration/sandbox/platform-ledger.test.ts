import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHA, ALPHA_A, ALPHA_B, ALPHA_IDLE, post, type Sandbox, start, waitJob } from './platform-helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ speed: 50 });
});
afterAll(async () => {
  await sb.close();
});

const balance = async (session_id: string) => (await post(sb.url, '/v3/balance', ALPHA, { session_id })).body;

async function transactions(body: Record<string, unknown>) {
  const res = await post(sb.url, '/v3/transactions', ALPHA, body);
  expect(res.status).toBe(202);
  return (await waitJob(sb.url, ALPHA, res.body.correlation_id)).result;
}

describe('balances', () => {
  it('answers the balance record synchronously: total = cash + bonus', async () => {
    const res = await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A });
    expect(res.status).toBe(200);
    expect(res.body.correlation_id).toBeUndefined();
    const b = res.body;
    expect(b).toMatchObject({ session_id: ALPHA_A, bookie: 'bookie_a', username: 'alpha_a' });
    expect(b.balance).toBeCloseTo(b.withdrawable_balance + b.bonus_balance, 2);
    expect(b.bonus_balance).toBe(30); // the two AVAILABLE tokens, $25 and $5
    expect(Number.isNaN(Date.parse(b.retrieved_at))).toBe(false);
  });

  it('answers the legacy balance with bookie, username, balance and bonus_balance', async () => {
    const res = await post(sb.url, '/api/balance', ALPHA, { session_id: ALPHA_A });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['balance', 'bonus_balance', 'bookie', 'username']);
  });

  it('reads the cached balance of an idle session too', async () => {
    const res = await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_IDLE });
    expect(res.status).toBe(200);
    expect(res.body.bookie).toBe('bookie_b');
  });

  it('answers 400 when session_id is missing', async () => {
    const res = await post(sb.url, '/v3/balance', ALPHA, {});
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('session_id');
  });
});

describe('withdrawals', () => {
  it('echoes the amount in the envelope and moves the money when the job completes', async () => {
    const before = await balance(ALPHA_B);
    const res = await post(sb.url, '/v3/withdraw_balance', ALPHA, { session_id: ALPHA_B, amount: 20.5 });
    expect(res.status).toBe(202);
    expect(res.body.amount).toBe(20.5);
    const entry = await waitJob(sb.url, ALPHA, res.body.correlation_id);
    expect(entry.result).toMatchObject({ success: true, status: 'completed', bookie: 'bookie_b' });
    expect(entry.result.withdrawal_id).toEqual(expect.any(String));
    const after = await balance(ALPHA_B);
    expect(after.withdrawable_balance).toBeCloseTo(before.withdrawable_balance - 20.5, 2);
    const history = await transactions({ session_id: ALPHA_B, days_back: 1 });
    expect(history.transactions[0]).toMatchObject({
      type: 'withdrawal',
      stake: 20.5,
      pnl: -20.5,
      id: entry.result.withdrawal_id,
    });
  });

  it('fails a withdrawal above the withdrawable balance without moving money', async () => {
    const before = await balance(ALPHA_B);
    const res = await post(sb.url, '/v3/withdraw_balance', ALPHA, { session_id: ALPHA_B, amount: 1_000_000 });
    const entry = await waitJob(sb.url, ALPHA, res.body.correlation_id);
    expect(entry.result).toMatchObject({ success: false, status: 'failed' });
    expect(entry.result.message).toMatch(/Insufficient/);
    expect((await balance(ALPHA_B)).withdrawable_balance).toBe(before.withdrawable_balance);
  });

  it('refuses a missing or non-positive amount with 400', async () => {
    for (const amount of [undefined, 0, -5, '10']) {
      const res = await post(sb.url, '/v3/withdraw_balance', ALPHA, { session_id: ALPHA_B, amount });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.field).toBe('amount');
    }
  });
});

describe('transactions and the ledger', () => {
  it('lists history within days_back, newest first, and pages with limit, has_more and total_count', async () => {
    const week = await transactions({ session_id: ALPHA_A });
    expect(week.success).toBe(true);
    expect(week.total_count).toBe(2); // two settled bets in the last week; the deposit is 20 days old
    const month = await transactions({ session_id: ALPHA_A, days_back: 30 });
    expect(month.total_count).toBe(3);
    expect(month.transactions.at(-1)).toMatchObject({ type: 'deposit', stake: 500, odds: null });
    const paged = await transactions({ session_id: ALPHA_A, days_back: 30, limit: 2 });
    expect(paged.transactions).toHaveLength(2);
    expect(paged).toMatchObject({ has_more: true, total_count: 3 });
    const times = month.transactions.map((t: { placed_at: string }) => Date.parse(t.placed_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('refuses days_back or limit that are not positive whole numbers', async () => {
    for (const body of [{ days_back: 0 }, { limit: -1 }, { limit: 2.5 }, { days_back: 'x' }]) {
      const res = await post(sb.url, '/v3/transactions', ALPHA, { session_id: ALPHA_A, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe(Object.keys(body)[0]);
    }
  });

  it('records a bet as pending with a debit, then settles it with pnl and a credit', async () => {
    const ledger = sb.sb.ledger;
    const session = sb.sb.accounts.sessionById(ALPHA_A)!;
    const cash = ledger.available(session.account_id);
    ledger.recordBet({
      bet_id: 'test-bet-1',
      session_id: ALPHA_A,
      account_id: session.account_id,
      bookie: 'bookie_a',
      stake: 10,
      odds: 3,
      is_bonus_bet: false,
      placed_at: sb.sb.clock.now().toISOString(),
      selections: [{ event: 'Flemington R1', selection: 'Runner', market: 'win', odds: 3, result: 'pending' }],
    });
    expect(ledger.available(session.account_id)).toBeCloseTo(cash - 10, 2);
    expect(ledger.openBets().map((b) => b.bet_id)).toContain('test-bet-1');
    const pending = (await transactions({ session_id: ALPHA_A, days_back: 1 })).transactions[0];
    expect(pending).toMatchObject({ id: 'test-bet-1', status: 'pending', odds: null, settled_at: null, pnl: 0 });
    expect(ledger.settleBet('test-bet-1', 'won', sb.sb.clock.now())).toBe(true);
    expect(ledger.settleBet('test-bet-1', 'won', sb.sb.clock.now())).toBe(false);
    expect(ledger.available(session.account_id)).toBeCloseTo(cash + 20, 2);
    const settled = (await transactions({ session_id: ALPHA_A, days_back: 1 })).transactions[0];
    expect(settled).toMatchObject({ id: 'test-bet-1', status: 'won', odds: 3, pnl: 20 });
    expect(settled.selections[0].result).toBe('won');
    expect(settled.settled_at).toEqual(expect.any(String));
  });

  it('settles a lost bonus bet at pnl 0 without touching cash', () => {
    const ledger = sb.sb.ledger;
    const session = sb.sb.accounts.sessionById(ALPHA_A)!;
    const cash = ledger.available(session.account_id);
    ledger.recordBet({
      bet_id: 'test-bonus-1',
      session_id: ALPHA_A,
      account_id: session.account_id,
      bookie: 'bookie_a',
      stake: 5,
      odds: 4,
      is_bonus_bet: true,
      placed_at: sb.sb.clock.now().toISOString(),
      selections: [],
    });
    expect(ledger.available(session.account_id)).toBe(cash);
    ledger.settleBet('test-bonus-1', 'lost', sb.sb.clock.now());
    const row = ledger.bets().find((b) => b.bet.bet_id === 'test-bonus-1')!;
    expect(row).toMatchObject({ status: 'lost', pnl: 0 });
    expect(ledger.available(session.account_id)).toBe(cash);
  });
});

describe('bets placed through /v3/place_bet in the ledger', () => {
  let sb2: Sandbox;
  beforeAll(async () => {
    sb2 = await start({ speed: 50, start: new Date('2026-11-21T00:30:00Z') });
  });
  afterAll(async () => {
    await sb2.close();
  });

  it('lists a placed racing bet as pending with the stake debited, then settled after the race', async () => {
    const race = { track: 'Randwick', race_num: 8, race_type: '(R)', country: 'au', date: '2026-11-21' };
    const check = await post(sb2.url, '/v3/price_check', ALPHA, {
      session_ids: [ALPHA_A],
      category: 'racing',
      ...race,
    });
    const priced = await waitJob(sb2.url, ALPHA, check.body.queries[0].correlation_id);
    const sel = priced.result.selections[0];
    const win = sel.prices.find((p: { market: string }) => p.market === 'win').price;
    const before = (await post(sb2.url, '/v3/balance', ALPHA, { session_id: ALPHA_A })).body.withdrawable_balance;
    const bet = await post(sb2.url, '/v3/place_bet', ALPHA, {
      session_id: ALPHA_A,
      category: 'racing',
      ...race,
      runner: sel.runner,
      market: 'win',
      stake: 10,
      target_odds: 1.01,
    });
    expect(bet.status).toBe(202);
    const placed = await waitJob(sb2.url, ALPHA, bet.body.correlation_id);
    expect(placed.result.success).toBe(true);
    const betId = placed.result.bet_result.bet_id;
    expect(win).toBeGreaterThan(1);
    const after = (await post(sb2.url, '/v3/balance', ALPHA, { session_id: ALPHA_A })).body.withdrawable_balance;
    expect(after).toBeCloseTo(before - 10, 2);

    const txnsOf = async () => {
      const res = await post(sb2.url, '/v3/transactions', ALPHA, { session_id: ALPHA_A, days_back: 3 });
      return (await waitJob(sb2.url, ALPHA, res.body.correlation_id)).result.transactions;
    };
    const pending = (await txnsOf()).find((t: { id: string }) => t.id === betId);
    expect(pending).toMatchObject({ type: 'bet', status: 'pending', stake: 10, odds: null, settled_at: null });
    expect(pending.selections[0]).toMatchObject({ selection: sel.runner, result: 'pending' });

    // The race is run and settled: the bet is won or lost, with pnl to match.
    await post(sb2.url, '/_sandbox/clock/advance', undefined, { ms: 24 * 3_600_000 });
    await post(sb2.url, '/_sandbox/settle', undefined, {});
    const settled = (await txnsOf()).find((t: { id: string }) => t.id === betId);
    expect(['won', 'lost']).toContain(settled.status);
    expect(settled.pnl).toBeCloseTo(settled.status === 'won' ? 10 * (settled.odds - 1) : -10, 2);
    expect(settled.settled_at).toEqual(expect.any(String));
  });
});
