// Money moves in whole cents: a sub-cent amount is refused with a 400 naming the field (never rounded into a
// free cent), and however many small bets and withdrawals run, no cent is created or destroyed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHA, ALPHA_A, ALPHA_C, get, post, type Sandbox, start, waitJob } from './platform-helpers.js';

const TODAY = '2026-11-21';
const LATER = '2026-11-23';
let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ speed: 50, start: new Date(`${TODAY}T00:30:00Z`) });
});
afterAll(async () => {
  await sb.close();
});

const cents = (dollars: number) => Math.round(dollars * 100);

function racingBet(date: string, runner: string, stake: number) {
  return {
    session_id: ALPHA_A,
    category: 'racing',
    track: 'Randwick',
    race_num: 8,
    date,
    runner,
    market: 'win',
    stake,
    target_odds: 1.01,
  };
}

async function runners(date: string): Promise<string[]> {
  const check = await post(sb.url, '/v3/price_check', ALPHA, {
    session_ids: [ALPHA_A],
    category: 'racing',
    track: 'Randwick',
    race_num: 8,
    date,
  });
  const priced = await waitJob(sb.url, ALPHA, check.body.queries[0].correlation_id);
  return priced.result.selections.map((s: { runner: string }) => s.runner);
}

/** Cash on alpha's bookie_a account: the withdrawable part of its balance record. */
async function cashOfA(): Promise<number> {
  const res = await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A });
  expect(res.status).toBe(200);
  return res.body.withdrawable_balance;
}

describe('sub-cent money is refused with 400 naming the field', () => {
  it('refuses a $0.004 stake', async () => {
    const [runner] = await runners(TODAY);
    const res = await post(sb.url, '/v3/place_bet', ALPHA, racingBet(TODAY, runner!, 0.004));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'stake', detail: expect.stringContaining('whole cents') });
  });

  it('refuses a $0.005 withdrawal', async () => {
    const res = await post(sb.url, '/v3/withdraw_balance', ALPHA, { session_id: ALPHA_A, amount: 0.005 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'amount', detail: expect.stringContaining('whole cents') });
  });

  it('refuses a split max_amount of $2.505', async () => {
    const res = await post(sb.url, '/v3/split_bonus_bet', ALPHA, { session_id: ALPHA_A, max_amount: 2.505 });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('max_amount');
  });

  it('refuses a place_promo stake of $1.001', async () => {
    const res = await post(sb.url, '/v3/place_promo', ALPHA, { session_id: ALPHA_C, promo_id: 1, stake: 1.001 });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('stake');
  });

  it('refuses a stacked multi stake of $0.004 naming the bet', async () => {
    const legs = [{ runner: 'a' }, { runner: 'b' }];
    const res = await post(sb.url, '/v3/stacked_srm', ALPHA, {
      session_id: ALPHA_A,
      track: 'Randwick',
      race_num: 8,
      date: TODAY,
      bets: [
        { stake: 0.004, legs },
        { stake: 1, legs },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('bets[0].stake');
  });
});

describe('money is conserved', () => {
  it('many random small bets and withdrawals: cash + open stakes - settled pnl + withdrawn stays the opening cash', async () => {
    const today = await runners(TODAY);
    const later = await runners(LATER);
    const opening = cents(await cashOfA());
    // A fixed generator: the same amounts every run.
    let seed = 0x5eed;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let withdrawn = 0;
    const betIds: string[] = [];
    for (let i = 0; i < 60; i++) {
      const whole = 1 + Math.floor(next() * 300); // 1 to 300 cents
      const subCent = next() < 0.3;
      const amount = subCent ? (whole + 0.1 + Math.floor(next() * 8) / 10) / 100 : whole / 100;
      if (next() < 0.25) {
        const res = await post(sb.url, '/v3/withdraw_balance', ALPHA, { session_id: ALPHA_A, amount });
        expect(res.status).toBe(subCent ? 400 : 202);
        if (subCent) continue;
        const done = await waitJob(sb.url, ALPHA, res.body.correlation_id);
        if (done.result.success) withdrawn += cents(amount);
      } else {
        const date = next() < 0.5 ? TODAY : LATER;
        const pool = date === TODAY ? today : later;
        const runner = pool[Math.floor(next() * pool.length)]!;
        const res = await post(sb.url, '/v3/place_bet', ALPHA, racingBet(date, runner, amount));
        expect(res.status).toBe(subCent ? 400 : 202);
        if (subCent) continue;
        const done = await waitJob(sb.url, ALPHA, res.body.correlation_id);
        if (done.result.success) betIds.push(done.result.bet_result.bet_id);
      }
    }
    // Today's race is run and settled; the later day's bets stay open.
    await post(sb.url, '/_sandbox/clock/advance', undefined, { ms: 24 * 3_600_000 });
    await post(sb.url, '/_sandbox/settle', undefined, { epk: `Randwick/8/R/au/${TODAY}` });
    const bets = (await get(sb.url, '/_sandbox/state')).body.bets.filter((b: { bet: { bet_id: string } }) =>
      betIds.includes(b.bet.bet_id),
    );
    expect(bets).toHaveLength(betIds.length);
    expect(bets.some((b: { status: string }) => b.status === 'pending')).toBe(true);
    expect(bets.some((b: { status: string }) => b.status !== 'pending')).toBe(true);
    let open = 0;
    let pnl = 0;
    for (const b of bets) {
      if (b.status === 'pending') open += cents(b.bet.stake);
      else pnl += cents(b.pnl);
    }
    const closing = cents(await cashOfA());
    expect(closing + open - pnl + withdrawn).toBe(opening);
  });
});
