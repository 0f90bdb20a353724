// Issue: a job that has read `timeout` must never complete later; the late-202 fault; placed bets in transactions.
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { type Receiver, receiver } from './receiver.js';
import { boot, get, post, TOMORROW, waitJob, worldOf } from './world-helpers.js';

const A = '5e55a1fa-0000-4000-8000-00000000000a';
const C = '5e55a1fa-0000-4000-8000-00000000000c';

let sb: RunningSandbox | undefined;
let hook: Receiver | undefined;
afterEach(async () => {
  await sb?.close();
  await hook?.close();
  sb = undefined;
  hook = undefined;
});

const poll = async (base: string, id: string) =>
  (await post(base, '/api/bet_status', { correlation_ids: [id] })).body.statuses[0];
const advance = (base: string, ms: number) => post(base, '/_sandbox/clock/advance', { ms });

function racingBet(running: RunningSandbox, extra: Record<string, unknown> = {}) {
  const race = worldOf(running).race('Flemington', 6, 'R', TOMORROW)!;
  return {
    session_id: A,
    category: 'racing',
    track: 'Flemington',
    race_num: 6,
    country: 'au',
    date: TOMORROW,
    runner: race.runners[0]!.name,
    market: 'win',
    stake: 7,
    target_odds: 1.01,
    ...extra,
  };
}

describe('the bookmaker work is bounded by timeout_at, random_delay included', () => {
  it('a place_bet whose random_delay ends after timeout_at reads timeout and never completes, places or calls back', async () => {
    sb = await boot();
    hook = await receiver();
    const res = await post(
      sb.url,
      '/v3/place_bet',
      racingBet(sb, { random_delay: { min: 400, max: 400 }, callback_url: hook.url }),
    );
    expect(res.status).toBe(202);
    const id = res.body.correlation_id;
    await advance(sb.url, 5 * 60_000);
    expect((await poll(sb.url, id)).status).toBe('timeout');
    await advance(sb.url, 10 * 60_000);
    expect((await poll(sb.url, id)).status).toBe('timeout');
    const state = (await get(sb.url, '/_sandbox/state')).body as { bets: { bet: { stake: number } }[] };
    expect(state.bets.filter((b) => b.bet.stake === 7)).toEqual([]);
    expect(hook.deliveries).toEqual([]);
    await advance(sb.url, 16 * 60_000);
    expect((await poll(sb.url, id)).status).toBe('unknown');
  });

  it('a random_delay that ends before timeout_at places the bet once the delay has passed', async () => {
    sb = await boot();
    const res = await post(sb.url, '/v3/place_bet', racingBet(sb, { random_delay: { min: 60, max: 60 } }));
    const id = res.body.correlation_id;
    await advance(sb.url, 59_000);
    expect((await poll(sb.url, id)).status).toBe('pending');
    await advance(sb.url, 2_000);
    const entry = await poll(sb.url, id);
    expect(entry.status).toBe('completed');
    expect(entry.result.success).toBe(true);
  });
});

describe('late 202 fault', () => {
  it('answers the 202 after the client gave up, while the bet is placed and listed by /v3/transactions', async () => {
    sb = await boot();
    const set = await post(sb.url, '/_sandbox/faults', {
      betting: [{ fault: 'late_202', route: '/v3/place_bet', session_id: A, delay_ms: 3_000 }],
    });
    expect(set.status).toBe(200);
    const body = racingBet(sb, { stake: 9 });
    const gaveUp = await request(`${sb.url}/v3/place_bet`, {
      method: 'POST',
      headers: { 'x-api-key': 'sandbox-key-alpha', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(500),
    }).then(
      () => 'answered',
      (err: Error) => err.name,
    );
    expect(gaveUp).not.toBe('answered');

    const deadline = Date.now() + 10_000;
    let bet: { stake: number; placed_at: string; selections: { selection: string; market: string }[] } | undefined;
    while (!bet && Date.now() < deadline) {
      const tx = await post(sb.url, '/v3/transactions', { session_id: A });
      const list = (await waitJob(sb.url, tx.body.correlation_id)).result.transactions;
      bet = list.find((t: { type: string; stake: number }) => t.type === 'bet' && t.stake === 9);
      if (!bet) await new Promise((r) => setTimeout(r, 100));
    }
    expect(bet).toMatchObject({ stake: 9, status: 'pending', selections: [{ selection: body.runner, market: 'win' }] });
    expect(Number.isNaN(Date.parse(bet!.placed_at))).toBe(false);
  });

  it('holds only the route and session it names', async () => {
    sb = await boot();
    await post(sb.url, '/_sandbox/faults', {
      betting: [{ fault: 'late_202', route: '/v3/place_bet', session_id: A, delay_ms: 60_000 }],
    });
    const otherSession = await post(sb.url, '/v3/place_bet', { ...racingBet(sb), session_id: C });
    expect(otherSession.status).toBe(202);
    const otherRoute = await post(sb.url, '/v3/transactions', { session_id: A });
    expect(otherRoute.status).toBe(202);
  });
});
