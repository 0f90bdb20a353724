// Betting-specific faults through /_sandbox/faults, each scoped to a route and/or a session.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { until } from '../../support/wait.js';
import { type Receiver, receiver } from './receiver.js';
import { boot, get, post, TOMORROW, upcomingEvent, waitJob, worldOf } from './world-helpers.js';

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

async function withFaults(betting: unknown[]): Promise<RunningSandbox> {
  const running = await boot();
  const res = await post(running.url, '/_sandbox/faults', { betting });
  expect(res.status).toBe(200);
  return running;
}

async function placeAndWait(base: string, body: Record<string, unknown>) {
  const res = await post(base, '/v3/place_bet', body);
  expect(res.status).toBe(202);
  return (await waitJob(base, res.body.correlation_id)).result;
}

function racingBet(running: RunningSandbox, session: string, stake: number) {
  const race = worldOf(running).race('Randwick', 7, 'R', TOMORROW)!;
  return {
    session_id: session,
    category: 'racing',
    track: 'Randwick',
    race_num: 7,
    date: TOMORROW,
    runner: race.runners[0]!.name,
    market: 'win',
    stake,
    target_odds: 1.01,
  };
}

async function h2h(base: string, epk: string, bookie: string) {
  const card = await get(base, '/v3/markets', { epk, bookie, market: 'head_to_head' });
  return card.body.markets[0].selections[0] as { odds: number; market_ref: string };
}

describe('bookmaker faults at placement', () => {
  it('price_moved: the live price at placement moves, so a bet at the card price is refused below target_odds', async () => {
    sb = await withFaults([{ fault: 'price_moved', route: '/v3/place_bet', session_id: A, factor: 0.9 }]);
    const world = worldOf(sb);
    const ev = upcomingEvent(world, (e) => world.link(e, 'bookie_a').linked && world.link(e, 'bookie_c').linked);
    const a = await h2h(sb.url, ev.epk, 'bookie_a');
    const moved = await placeAndWait(sb.url, {
      session_id: A,
      sport: ev.league,
      epk: ev.epk,
      market_ref: a.market_ref,
      stake: 5,
      target_odds: a.odds,
    });
    expect(moved.success).toBe(false);
    expect(moved.bet_result.error).toMatch(/^odds_below_target/);
    expect(moved.bet_result.odds).toBeLessThan(a.odds);

    const c = await h2h(sb.url, ev.epk, 'bookie_c');
    const untouched = await placeAndWait(sb.url, {
      session_id: C,
      sport: ev.league,
      epk: ev.epk,
      market_ref: c.market_ref,
      stake: 5,
      target_odds: c.odds,
    });
    expect(untouched.success).toBe(true);
  });

  it('max_stake: a stake above the account maximum is refused with the bookmaker message; one at it is placed', async () => {
    sb = await withFaults([{ fault: 'max_stake', session_id: A, max_stake: 20 }]);
    const over = await placeAndWait(sb.url, racingBet(sb, A, 25));
    expect(over.success).toBe(false);
    expect(over.bet_result.error).toBe('max_stake_exceeded: The maximum stake for this bet is $20.00.');
    expect(over.max_stake).toBe(20);
    const at = await placeAndWait(sb.url, racingBet(sb, A, 20));
    expect(at.success).toBe(true);
  });

  it('restricted: every bet of the session is refused, place_promo included; other sessions still bet', async () => {
    sb = await withFaults([{ fault: 'restricted', session_id: C }]);
    const refused = await placeAndWait(sb.url, racingBet(sb, C, 5));
    expect(refused.success).toBe(false);
    expect(refused.bet_result.error).toMatch(/^account_restricted/);
    const promos = await get(sb.url, '/v3/account_promos', { session_id: C });
    const card = promos.body.promos.find((p: { placeable_by_id: boolean }) => p.placeable_by_id);
    const promo = await post(sb.url, '/v3/place_promo', { session_id: C, promo_id: card.promo_id, stake: 5 });
    expect(promo.status).toBe(202);
    const promoResult = (await waitJob(sb.url, promo.body.correlation_id)).result;
    expect(promoResult.success).toBe(false);
    expect(promoResult.error).toMatch(/^account_restricted/);
    expect((await placeAndWait(sb.url, racingBet(sb, A, 5))).success).toBe(true);
  });

  it('applies a rule only to its route', async () => {
    sb = await withFaults([{ fault: 'restricted', route: '/v3/stacked_srm', session_id: A }]);
    expect((await placeAndWait(sb.url, racingBet(sb, A, 5))).success).toBe(true);
  });
});

describe('webhook faults', () => {
  async function completed(base: string, path: string, url: string) {
    const res = await post(base, path, { session_id: A, callback_url: url });
    expect(res.status).toBe(202);
    const entry = await waitJob(base, res.body.correlation_id);
    expect(entry.status).toBe('completed');
    return res.body.correlation_id as string;
  }

  it('webhook_lost: the job completes and polls, but its webhook never arrives', async () => {
    sb = await withFaults([{ fault: 'webhook_lost', route: '/v3/bonus_bets', session_id: A }]);
    hook = await receiver();
    const lost = await completed(sb.url, '/v3/bonus_bets', hook.url);
    const later = await completed(sb.url, '/v3/promos', hook.url);
    await until('the later webhook', () => hook!.deliveries.length > 0);
    expect(hook.deliveries.map((d) => d.body.correlation_id)).toEqual([later]);
    const state = await get(sb.url, '/_sandbox/state');
    expect(state.body.webhookDeliveries.find((d: { correlation_id: string }) => d.correlation_id === lost).state).toBe(
      'lost',
    );
  });

  it('webhook_duplicated: the same signed bytes arrive twice', async () => {
    sb = await withFaults([{ fault: 'webhook_duplicated', session_id: A }]);
    hook = await receiver();
    const id = await completed(sb.url, '/v3/bonus_bets', hook.url);
    await until('two deliveries', () => hook!.deliveries.length >= 2);
    const [first, second] = hook.deliveries;
    expect(first!.body.correlation_id).toBe(id);
    expect(second!.raw.equals(first!.raw)).toBe(true);
    expect(second!.headers['bet-signature']).toBe(first!.headers['bet-signature']);
  });

  it('webhook_out_of_order: a held delivery arrives after one for a job that completed later', async () => {
    sb = await withFaults([{ fault: 'webhook_out_of_order', route: '/v3/bonus_bets', session_id: A }]);
    hook = await receiver();
    const earlier = await completed(sb.url, '/v3/bonus_bets', hook.url);
    const later = await completed(sb.url, '/v3/promos', hook.url);
    await until('both deliveries', () => hook!.deliveries.length >= 2);
    expect(hook.deliveries.map((d) => d.body.correlation_id)).toEqual([later, earlier]);
  });
});

describe('fault settings', () => {
  it('refuses an unknown fault or a max_stake rule without an amount, naming the field', async () => {
    sb = await boot();
    const unknown = await post(sb.url, '/_sandbox/faults', { betting: [{ fault: 'gremlins' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/betting\[0\]\.fault must be one of/);
    const noAmount = await post(sb.url, '/_sandbox/faults', { betting: [{ fault: 'max_stake' }] });
    expect(noAmount.status).toBe(400);
    expect(noAmount.body.detail).toMatch(/max_stake/);
  });
});
