// Racing's promo types settled as the spec says (issue 46): money back on places (`2`, `2/3`, `2/3/4`), bonus
// boosts paid as a bonus bet, account tokens and day savers bet by promo_name, and a bonus multi above its token.
// Decision 1970 says what pays what; 1971 the stacked multi. Everything over HTTP against a seeded sandbox.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { addDays } from '../../../src/sandbox/world/dates.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import { finishingOrder, type Race, type Runner } from '../../../src/sandbox/world/racing.js';
import { get, post, START, waitJob } from './world-helpers.js';

const A = '5e55a1fa-0000-4000-8000-00000000000a';

let sb: RunningSandbox;
let world: SimWorld;
let snapshotId: string;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 7, speed: 50, control: true, quiet: true, start: START });
  world = sb.sb.world;
  snapshotId = (await post(sb.url, '/_sandbox/snapshot', {})).body.snapshot_id;
});
// Every test starts from the same money, tokens and clock: none depends on what another spent.
beforeEach(async () => {
  expect((await post(sb.url, '/_sandbox/restore', { snapshot_id: snapshotId })).status).toBe(200);
});
afterAll(async () => {
  await sb?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: job results are read field by field
async function job(path: string, body: Record<string, unknown>): Promise<any> {
  const res = await post(sb.url, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const entry = await waitJob(sb.url, res.body.correlation_id);
  expect(entry.status).toBe('completed');
  return entry.result;
}

interface RacePromo {
  track: string;
  race_num: number;
  race_type: 'R' | 'G' | 'H';
  promo_type: string;
  offer_name: string;
  max_reward: number;
  event_url: string;
}

/** The races /v3/promos lists with this promo type, as races of the world (the day is in event_url). */
async function promoRaces(promoType: string): Promise<{ promo: RacePromo; race: Race }[]> {
  const { promos } = await job('/v3/promos', { session_id: A });
  return (promos as RacePromo[])
    .filter((p) => p.promo_type === promoType)
    .map((promo) => {
      const date = promo.event_url.split('/')[4] as string;
      return { promo, race: world.race(promo.track, promo.race_num, promo.race_type, date) as Race };
    });
}

/** The runner that finishes in `place` (1 = the winner). */
const placed = (race: Race, place: number): Runner =>
  race.runners.find((r) => r.number === finishingOrder(world.seed, race)[place - 1]) as Runner;

function racingBet(race: Race, runner: Runner, extra: Record<string, unknown>) {
  return job('/v3/place_bet', {
    session_id: A,
    category: 'racing',
    track: race.track,
    race_num: race.race_num,
    race_type: `(${race.race_type})`,
    date: race.date,
    runner: runner.name,
    market: 'win',
    stake: 2,
    target_odds: 1.01,
    ...extra,
  });
}

async function settle(race: Race) {
  expect((await post(sb.url, '/_sandbox/settle', { epk: race.key })).status).toBe(200);
}

// biome-ignore lint/suspicious/noExplicitAny: transactions are read field by field
async function transactions(): Promise<Map<string, any>> {
  const r = await job('/v3/transactions', { session_id: A, limit: 500 });
  return new Map(r.transactions.map((t: { id: string }) => [t.id, t]));
}

const balance = async () => (await post(sb.url, '/v3/balance', { session_id: A })).body;
const totalBonus = async () => (await job('/v3/bonus_bets', { session_id: A })).total_bonus as number;
const cents = (dollars: number) => Math.round(dollars * 100);

describe('money back on places (bet_type 2, 2/3, 2/3/4)', () => {
  it('refunds in cash the stakes of the runners placed 2nd and 3rd when 2/3 is bet on every runner of a "Money back if 2nd or 3rd" race', async () => {
    const [{ promo, race }] = (await promoRaces('2/3')) as [{ promo: RacePromo; race: Race }];
    expect(promo.offer_name).toBe('Money back if 2nd or 3rd');
    const before = await balance();
    const bonusBefore = await totalBonus();
    const bets = await Promise.all(race.runners.map((r) => racingBet(race, r, { bet_type: '2/3' })));
    for (const b of bets) expect(b).toMatchObject({ success: true, bet_type: '2/3', promo_name: '2/3' });
    await settle(race);
    const txns = await transactions();
    const byRunner = (r: Runner) => txns.get(bets[race.runners.indexOf(r)].bet_id);
    for (const place of [2, 3]) {
      expect(byRunner(placed(race, place)), `runner placed ${place}`).toMatchObject({
        status: 'void',
        pnl: 0,
        bet_type: '2/3',
        promo_name: '2/3',
        promo_payout: { kind: 'refund', amount: 2, bonus_token_id: null },
        selections: [expect.objectContaining({ result: 'lost' })],
      });
    }
    const winner = byRunner(placed(race, 1));
    expect(winner.status).toBe('won');
    for (const r of race.runners.filter((x) => ![1, 2, 3].some((p) => placed(race, p) === x)))
      expect(byRunner(r)).toMatchObject({ status: 'lost', pnl: -2 });
    // Cash: every stake out, the winner's return and the two stakes back in; no bonus token appears.
    const after = await balance();
    const expected = cents(before.withdrawable_balance) - race.runners.length * 200 + cents(winner.pnl) + 200 + 400;
    expect(cents(after.withdrawable_balance)).toBe(expected);
    expect(await totalBonus()).toBe(bonusBefore);
  });

  it('refunds a bonus-bet stake as a bonus token of its value, leaving the cash alone', async () => {
    const [{ race }] = (await promoRaces('2/3')) as unknown as [{ race: Race }];
    const cashBefore = (await balance()).withdrawable_balance;
    const bonusBefore = await totalBonus();
    const bet = await racingBet(race, placed(race, 3), { bet_type: '2/3', use_bonus_bet: true, stake: 5 });
    expect(bet).toMatchObject({ success: true, is_bonus_bet: true, promo_name: '2/3' });
    expect(cents(await totalBonus())).toBe(cents(bonusBefore) - 500);
    await settle(race);
    const txn = (await transactions()).get(bet.bet_id);
    expect(txn).toMatchObject({ status: 'void', pnl: 0, promo_payout: { kind: 'refund', amount: 5 } });
    const tokens = (await job('/v3/bonus_bets', { session_id: A })).bonus_bets as { id: string; status: string }[];
    expect(tokens.find((t) => t.id === txn.promo_payout.bonus_token_id)).toMatchObject({ status: 'AVAILABLE' });
    expect(await totalBonus()).toBe(bonusBefore);
    expect((await balance()).withdrawable_balance).toBe(cashBefore);
  });

  it('refunds only the runner placed 2nd when bet_type 2 is bet on a "Money back if 2nd or 3rd" race', async () => {
    const { race } = (await promoRaces('2/3'))[1] as { race: Race };
    const second = await racingBet(race, placed(race, 2), { bet_type: '2' });
    const third = await racingBet(race, placed(race, 3), { bet_type: '2' });
    // The race's 2/3 promo is attached; bet_type 2 takes its cover on 2nd only.
    expect(second).toMatchObject({ success: true, bet_type: '2', promo_name: '2/3' });
    await settle(race);
    const txns = await transactions();
    expect(txns.get(second.bet_id)).toMatchObject({ status: 'void', pnl: 0, promo_payout: { amount: 2 } });
    expect(txns.get(third.bet_id)).toMatchObject({ status: 'lost', pnl: -2 });
    expect(txns.get(third.bet_id).promo_payout).toBeUndefined();
  });

  it('refunds the runner placed 2nd when bet_type 2 is bet on a "Money back if 2nd" race', async () => {
    const { race } = (await promoRaces('2'))[0] as { race: Race };
    const second = await racingBet(race, placed(race, 2), { bet_type: '2' });
    await settle(race);
    expect((await transactions()).get(second.bet_id)).toMatchObject({ status: 'void', pnl: 0 });
  });

  it('refunds the runners placed 2nd, 3rd and 4th when bet_type 2/3/4 is bet on a "Money back if 2nd, 3rd or 4th" race', async () => {
    const { promo, race } = (await promoRaces('2/3/4'))[0] as { promo: RacePromo; race: Race };
    expect(promo.offer_name).toBe('Money back if 2nd, 3rd or 4th');
    const bets = await Promise.all([2, 3, 4, 5].map((p) => racingBet(race, placed(race, p), { bet_type: '2/3/4' })));
    await settle(race);
    const txns = await transactions();
    expect(bets.map((b) => txns.get(b.bet_id).status)).toEqual(['void', 'void', 'void', 'lost']);
  });

  it('caps the refund at the promo max_reward: a stake above it gets max_reward back and settles lost', async () => {
    const { promo, race } = (await promoRaces('2/3'))[0] as { promo: RacePromo; race: Race };
    const stake = promo.max_reward + 10;
    const bet = await racingBet(race, placed(race, 2), { bet_type: '2/3', stake });
    await settle(race);
    expect((await transactions()).get(bet.bet_id)).toMatchObject({
      status: 'lost',
      pnl: -10,
      promo_payout: { kind: 'refund', amount: promo.max_reward },
    });
  });

  it('places 2/3/4 on a race whose promo covers only 2nd and 3rd without a promo, says so, and refuses it with skip_if_no_promo', async () => {
    const { race } = (await promoRaces('2/3'))[0] as { race: Race };
    const plain = await racingBet(race, placed(race, 4), { bet_type: '2/3/4' });
    expect(plain).toMatchObject({ success: true, promo_name: null });
    expect(plain.promo_note).toMatch(/no 2\/3\/4 on .*stake back if 2nd or 3rd.*placed without a promo/);
    const strict = await racingBet(race, placed(race, 4), { bet_type: '2/3/4', skip_if_no_promo: true });
    expect(strict.success).toBe(false);
    expect(strict.bet_result.error).toMatch(/^promo_not_available: no 2\/3\/4 on .*nothing was placed$/);
    await settle(race);
    expect((await transactions()).get(plain.bet_id)).toMatchObject({ status: 'lost', pnl: -2 });
  });
});

describe('bonus boosts (bet_type bonus_betboost_25pc, bonus_betboost_50pc)', () => {
  it('pays 25% of the winnings as a bonus bet on a winner of a race with that promo, up to the promo max_reward', async () => {
    const { promo, race } = (await promoRaces('bonus_betboost_25pc'))[0] as { promo: RacePromo; race: Race };
    const bonusBefore = await totalBonus();
    const small = await racingBet(race, placed(race, 1), { bet_type: 'bonus_betboost_25pc', stake: 4 });
    const big = await racingBet(race, placed(race, 1), { bet_type: 'bonus_betboost_25pc', stake: 200 });
    const loser = await racingBet(race, placed(race, 2), { bet_type: 'bonus_betboost_25pc' });
    expect(small).toMatchObject({ success: true, promo_name: 'bonus_betboost_25pc' });
    await settle(race);
    const txns = await transactions();
    const smallTxn = txns.get(small.bet_id);
    expect(smallTxn.status).toBe('won');
    const share = Math.round(cents(smallTxn.pnl) * 0.25) / 100;
    expect(share).toBeGreaterThan(0);
    expect(smallTxn.promo_payout).toEqual({ kind: 'bonus_bet', amount: share, bonus_token_id: expect.any(String) });
    expect(cents(txns.get(big.bet_id).pnl) * 0.25).toBeGreaterThan(cents(promo.max_reward));
    expect(txns.get(big.bet_id).promo_payout).toMatchObject({ amount: promo.max_reward });
    expect(txns.get(loser.bet_id).promo_payout).toBeUndefined();
    const bonusAfter = await totalBonus();
    expect(cents(bonusAfter)).toBe(cents(bonusBefore) + cents(share) + cents(promo.max_reward));
    expect(cents((await balance()).bonus_balance)).toBe(cents(bonusAfter));
  });

  it('pays 50% of the winnings as a bonus bet where /v3/promo_tokens offers a 50% bonus boost', async () => {
    let race: Race | undefined;
    for (let n = 1; n <= 8 && !race; n++) {
      const tokens = await job('/v3/promo_tokens', { session_id: A, track: 'Flemington', race_num: n });
      if (tokens.bonus_boost.available && tokens.bonus_boost.boost_percentage === 50)
        race = world.race('Flemington', n, 'R', world.upcomingMeetings().find((m) => m.track === 'Flemington')!.date);
    }
    if (!race) throw new Error('no Flemington race offers a 50% bonus boost');
    const bonusBefore = await totalBonus();
    const bet = await racingBet(race, placed(race, 1), { bet_type: 'bonus_betboost_50pc' });
    expect(bet).toMatchObject({ success: true, promo_name: 'bonus_betboost_50pc' });
    await settle(race);
    const txn = (await transactions()).get(bet.bet_id);
    const share = Math.round(cents(txn.pnl) * 0.5) / 100;
    expect(txn.promo_payout).toMatchObject({ kind: 'bonus_bet', amount: share });
    expect(cents(await totalBonus())).toBe(cents(bonusBefore) + cents(share));
  });
});

describe('promo_name: account tokens and day savers', () => {
  // biome-ignore lint/suspicious/noExplicitAny: promo rows are read field by field
  const accountToken = async (): Promise<any> =>
    (await get(sb.url, '/v3/account_promos', { session_id: A })).body.promos.find(
      (p: { promo: string; kind: string }) => p.kind === 'racing' && p.promo === '2/3',
    );

  async function betToken(extra: Record<string, unknown>) {
    const token = await accountToken();
    expect(token.how_to_bet).toMatchObject({ endpoint: '/v3/place_bet', promo_name: '2/3' });
    const race = world.race(token.track, token.race_num, token.race_type, token.date) as Race;
    const bet = await racingBet(race, placed(race, 2), { promo_name: token.how_to_bet.promo_name, ...extra });
    return { token, race, bet };
  }

  it('takes an account promo bet as its how_to_bet says, with skip_if_no_promo: applied, spent, and paid', async () => {
    const { race, bet } = await betToken({ bet_type: '2/3', skip_if_no_promo: true });
    expect(bet).toMatchObject({ success: true, promo_name: '2/3', bet_type: '2/3' });
    expect(await accountToken()).toBeUndefined();
    await settle(race);
    expect((await transactions()).get(bet.bet_id)).toMatchObject({ status: 'void', pnl: 0, promo_name: '2/3' });
  });

  it('takes an account promo bet without skip_if_no_promo the same way: promo_name recorded, token spent', async () => {
    const { bet } = await betToken({});
    expect(bet).toMatchObject({ success: true, promo_name: '2/3', bet_type: '2/3' });
    expect((await transactions()).get(bet.bet_id)).toMatchObject({ promo_name: '2/3', bet_type: '2/3' });
    expect(await accountToken()).toBeUndefined();
  });

  /** A thoroughbred race of the next racing day with no race promo and no account token: only the day saver. */
  async function saverRace(): Promise<Race> {
    const token = await accountToken();
    const promoKeys = new Set([...(await promoRaces('2/3')), ...(await promoRaces('2'))].map((x) => x.race.key));
    const meeting = world.upcomingMeetings().find((m) => m.race_type === 'R' && m.track !== token.track)!;
    for (let n = 1; n <= meeting.races; n++) {
      const race = world.race(meeting.track, n, 'R', meeting.date) as Race;
      if (!promoKeys.has(race.key)) return race;
    }
    throw new Error('no thoroughbred race without a money-back promo');
  }

  const daySavers = async (race: Race) =>
    (await job('/v3/promo_tokens', { session_id: A, track: race.track, race_num: race.race_num })).saver_tokens.filter(
      (t: { is_race_specific: boolean }) => !t.is_race_specific,
    );

  it('attaches the day saver of /v3/promo_tokens to a win bet on a thoroughbred race by promo_name, once', async () => {
    const race = await saverRace();
    expect(await daySavers(race)).toEqual([expect.objectContaining({ type: '2/3', is_race_specific: false })]);
    const bet = await racingBet(race, placed(race, 3), { promo_name: '2/3', skip_if_no_promo: true });
    expect(bet).toMatchObject({ success: true, promo_name: '2/3' });
    expect(await daySavers(race)).toEqual([]);
    await settle(race);
    expect((await transactions()).get(bet.bet_id)).toMatchObject({ status: 'void', pnl: 0 });
  });

  it('refuses a bet that names the day saver against its conditions (race type, day, win only), saying which', async () => {
    const race = await saverRace();
    const dog = world.race('Wentworth Park', 1, 'G', race.date) as Race;
    const later = world.race(race.track, race.race_num, 'R', addDays(race.date, 2)) as Race;
    const cases: [Race, Record<string, unknown>, RegExp][] = [
      [dog, {}, /thoroughbred races only; Wentworth Park R1 .* is a greyhound race/],
      [later, {}, new RegExp(`covers thoroughbred races on ${race.date} only`)],
      [race, { market: 'place' }, /takes win bets only; this is a place bet/],
    ];
    for (const [r, extra, why] of cases) {
      const bet = await racingBet(r, r.runners[0] as Runner, { promo_name: '2/3', ...extra });
      expect(bet.success, JSON.stringify(bet)).toBe(false);
      expect(bet.bet_result.error).toMatch(/^promo_conditions_not_met: /);
      expect(bet.bet_result.error).toMatch(why);
    }
    expect(await daySavers(race)).toHaveLength(1);
  });
});

describe('stacked multis paid by bonus tokens (decision 1971)', () => {
  it('refuses a bonus multi whose stake is above its token, takes no cash for it, and leaves the token unspent', async () => {
    const { race } = (await promoRaces('2/3'))[0] as { race: Race };
    const legs = [
      { runner: race.runners[0]!.name, position: 'top3' },
      { runner: race.runners[1]!.name, position: 'top3' },
    ];
    const cashBefore = (await balance()).withdrawable_balance;
    // Alpha's bookie_a account holds AVAILABLE tokens of $25 and $5: the $7 multi is given the $5 one.
    const r = await job('/v3/stacked_srm', {
      session_id: A,
      track: race.track,
      race_num: race.race_num,
      race_type: `(${race.race_type})`,
      date: race.date,
      bets: [
        { stake: 7, legs, bet_type: 'bonus' },
        { stake: 25, legs, bet_type: 'bonus' },
      ],
    });
    expect(r).toMatchObject({ success: true, placed: 1, failed: 1 });
    expect(r.results[0]).toMatchObject({ success: false, bet_id: null });
    expect(r.results[0].error).toMatch(
      /^bonus_stake_above_token: the stake \$7\.00 is more than its bonus token .*\(\$5\.00\)/,
    );
    expect(r.results[1].success).toBe(true);
    expect((await balance()).withdrawable_balance).toBe(cashBefore);
    const tokens = (await job('/v3/bonus_bets', { session_id: A })).bonus_bets as { amount: number; status: string }[];
    expect(tokens.filter((t) => t.status === 'AVAILABLE').map((t) => t.amount)).toEqual([5]);
  });
});
