import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FundRepo } from '../../../src/bot/fund/fund-repo.js';
import { UNIT_SCALE } from '../../../src/bot/fund/model/fund.js';
import { Ledger } from '../../../src/bot/ledger/ledger-repo.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

const T0 = 1_780_000_000_000;
const session = (balanceCents: number, bonusCents = 0) => [
  { sessionId: 's1', balanceCents, bonusCents, retrievedAt: null },
];

async function openBet(store: BotStore, id: string, stakeCents: number, createdAt: number, state = 'placed') {
  await store.query(
    `INSERT INTO bet_records (placement_id, slip_id, guild_key, channel_id, user_id, session_id, bookie, day,
       stake_cents, payload, state, created_at, updated_at) VALUES (?, ?, 'g1', 'c', 'u', 's1', 'bookie_a', 'd', ?, '{}', ?, ?, ?)`,
    id,
    `slip-${id}`,
    stakeCents,
    state,
    createdAt,
    createdAt,
  );
}

describe.each(ENGINES)('the fund store on %s', (engine) => {
  let store: BotStore;
  let repo: FundRepo;
  let cleanup: () => void;
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    repo = new FundRepo(store);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  // Each contribution's deposit is already matched (units are dealt only then: decision 1803).
  const contribute = (memberId: string, cents: number, at: number) =>
    repo.recordContribution({
      guildKey: 'g1',
      memberId,
      amountCents: cents,
      sessionId: 's1',
      reference: null,
      actor: 'treasurer',
      openingPriceCents: 100,
      at,
      depositId: `dep-${memberId}-${at}`,
    });
  const strikeAt = (key: string, at: number, balanceCents: number, fee = { rateBps: 0, period: 'p1' }) =>
    repo.strike({
      guildKey: 'g1',
      dealingKey: key,
      at,
      actor: null,
      sessions: session(balanceCents),
      feeRateBps: fee.rateBps,
      feePeriod: fee.period,
      feePeriodOf: () => 'p1',
      managerId: 'mgr',
      fundSessions: [{ sessionId: 's1', since: 0, account: 'bookie_a/ann' }],
    });

  it('issues units at the strike, values members at the next one, and writes each step to the ledger once', async () => {
    await contribute('ann', 10_000, T0);
    const first = await strikeAt('d1', T0 + 1, 10_000);
    expect(first.struck && first.strike.unitsAfter).toBe(100 * UNIT_SCALE);
    await contribute('bob', 6_000, T0 + 2);
    // The bank made $20 (cash 100 + 60 + 20): Bob buys at $1.20.
    const second = await strikeAt('d2', T0 + 3, 18_000);
    expect(second.struck && second.strike.price).toBe(120 * 1_000_000);
    expect(await repo.members('g1')).toEqual([
      { memberId: 'ann', units: 100 * UNIT_SCALE, joinedAt: T0 + 1 },
      { memberId: 'bob', units: 50 * UNIT_SCALE, joinedAt: T0 + 3 },
    ]);
    const kinds = (await new Ledger(store).range('g1', 0, T0 + 10)).map((e) => e.kind);
    expect(kinds).toEqual([
      'fund_contribution',
      'fund_strike',
      'fund_issue',
      'fund_contribution',
      'fund_strike',
      'fund_issue',
    ]);
    expect((await new Ledger(store).verify()).ok).toBe(true);
  });

  it('records what it dealt, member by member, and never counts a contribution waiting for its deposit as held by bets', async () => {
    await contribute('ann', 10_000, T0);
    const first = await strikeAt('d1', T0 + 1, 10_000);
    expect(first.struck && first.strike.inputs.dealt).toEqual({
      issued: [{ memberId: 'ann', cents: 10_000, units: 100 * UNIT_SCALE }],
      redeemed: [],
    });
    // Bob's contribution is recorded, its deposit not yet arrived: not dealt, and not said to wait for bets.
    await repo.recordContribution({
      guildKey: 'g1',
      memberId: 'bob',
      amountCents: 5_000,
      sessionId: 's1',
      reference: null,
      actor: 'treasurer',
      openingPriceCents: 100,
      at: T0 + 2,
      depositId: undefined,
    });
    const second = await strikeAt('d2', T0 + 3, 10_000);
    expect(second.struck && second.strike.inputs.deferred).toEqual({ contributions: 0, cashouts: 0 });
    expect(second.struck && second.strike.inputs.dealt).toBeUndefined();
  });

  it('strikes a dealing day once, however often it is asked', async () => {
    await contribute('ann', 10_000, T0);
    const results = await Promise.all([strikeAt('d1', T0 + 1, 10_000), strikeAt('d1', T0 + 1, 10_000)]);
    expect(results.filter((r) => r.struck)).toHaveLength(1);
    const rows = await store.query('SELECT COUNT(*) AS c FROM fund_strikes');
    expect(Number(rows[0]?.c)).toBe(1);
    expect(await repo.members('g1')).toHaveLength(1);
  });

  it('counts open bets at cost and holds a request made while a bet was open until it settles', async () => {
    await contribute('ann', 10_000, T0);
    await strikeAt('d1', T0 + 1, 10_000);
    await openBet(store, 'p1', 2_000, T0 + 2);
    await contribute('bob', 5_000, T0 + 3);
    const held = await strikeAt('d2', T0 + 4, 13_000);
    // Cash 130 − Bob's pending 50 + open stake 20 = NAV $100; Bob waits for the bet open when he asked.
    expect(held.struck && held.strike.navCents).toBe(10_000);
    expect(held.struck && held.strike.inputs.deferred).toEqual({ contributions: 1, cashouts: 0 });
    expect((await repo.contributions('g1', 'bob'))[0]?.state).toBe('pending');
    await store.query("UPDATE bet_records SET state = 'settled' WHERE placement_id = 'p1'");
    // The bet won $40 back: cash 170, Bob buys at $1.20.
    const dealt = await strikeAt('d3', T0 + 5, 17_000);
    expect(dealt.struck && dealt.strike.price).toBe(120 * 1_000_000);
    expect((await repo.contributions('g1', 'bob'))[0]?.units).toBe(Math.floor((5_000 * 100 * UNIT_SCALE) / 12_000));
  });

  it('refuses the first strike while the sessions hold money no contribution accounts for', async () => {
    await contribute('ann', 10_000, T0);
    const r = await strikeAt('d1', T0 + 1, 15_000);
    expect(!r.struck && r.reason).toMatch(/hold \$50\.00 that no contribution accounts for/);
    expect(await store.query('SELECT strike_id FROM fund_strikes')).toEqual([]);
  });

  it('refuses to strike while a bet is in flight, saying why', async () => {
    await contribute('ann', 10_000, T0);
    await openBet(store, 'p1', 2_000, T0 + 1, 'unknown');
    const r = await strikeAt('d1', T0 + 2, 8_000);
    expect(r.struck).toBe(false);
    expect(!r.struck && r.reason).toMatch(/1 bet is in flight or unresolved \(unknown\)/);
  });

  it('redeems a cash-out at the strike, then owes it until withdrawn and paid, each move in the ledger', async () => {
    await contribute('ann', 10_000, T0);
    await strikeAt('d1', T0 + 1, 10_000);
    const co = await repo.requestCashout({
      guildKey: 'g1',
      memberId: 'ann',
      ask: { kind: 'amount', cents: 3_000 },
      needsApproval: false,
      at: T0 + 2,
    });
    const r = await strikeAt('d2', T0 + 3, 10_000);
    expect(r.struck && r.strike.navAfterCents).toBe(7_000);
    const attempt = await repo.beginWithdrawal({
      cashoutId: co!.cashoutId,
      sessionId: 's1',
      at: T0 + 4,
      amountCents: 3_000,
    });
    expect(attempt?.state).toBe('sending');
    expect(
      await repo.beginWithdrawal({ cashoutId: co!.cashoutId, sessionId: 's1', at: T0 + 4, amountCents: 3_000 }),
    ).toBeUndefined();
    await repo.moveWithdrawal(attempt!.attemptId, 'markSubmitted', { correlationId: 'cid' }, T0 + 5);
    await repo.moveWithdrawal(attempt!.attemptId, 'markCompleted', { gatewayWithdrawalId: 'wd-1' }, T0 + 6);
    // Cash 70 after the withdrawal + 30 withdrawn not paid − 30 owed: NAV stays $70.
    const after = await strikeAt('d3', T0 + 7, 7_000);
    expect(after.struck && after.strike.navCents).toBe(7_000);
    expect((await repo.markPaid(co!.cashoutId, 'treasurer', T0 + 8))?.state).toBe('paid');
    expect(await repo.markPaid(co!.cashoutId, 'treasurer', T0 + 9)).toBeUndefined();
    const kinds = (await new Ledger(store).range('g1', T0 + 4, T0 + 10)).map((e) => e.kind);
    expect(kinds).toEqual(['fund_withdrawal', 'fund_withdrawal', 'fund_withdrawal', 'fund_strike', 'fund_paid']);
  });

  it('accrues the fee at each strike and crystallises it at the first strike of a new period as owed to the manager, NAV unchanged', async () => {
    const fee = (period: string) => ({ rateBps: 2_000, period });
    await contribute('ann', 10_000, T0);
    await strikeAt('d1', T0 + 1, 10_000, fee('p1'));
    // A win to $150: 20% of the $50 above the $1.00 mark accrues; then $140: the accrual comes back to $8.
    const up = await strikeAt('d2', T0 + 2, 15_000, fee('p1'));
    expect(up.struck && [up.strike.feeCents, up.strike.navCents]).toEqual([1_000, 14_000]);
    const down = await strikeAt('d3', T0 + 3, 14_000, fee('p1'));
    expect(down.struck && [down.strike.feeCents, down.strike.navCents]).toEqual([800, 13_200]);
    const crystal = await strikeAt('d4', T0 + 4, 14_000, fee('p2'));
    expect(crystal.struck && crystal.strike.navCents).toBe(13_200);
    expect(crystal.struck && crystal.strike.inputs.fee).toMatchObject({ crystallisedCents: 800, accruedAfterCents: 0 });
    const owed = (await repo.cashouts('g1')).filter((c) => c.ask.kind === 'fee');
    expect(owed).toMatchObject([{ memberId: 'mgr', state: 'redeemed', cents: 800, units: 0 }]);
    expect((await repo.redeemedWaiting('g1')).map((c) => c.cashoutId)).toEqual(owed.map((c) => c.cashoutId));
    // The next strike counts the fee as owed, charges nothing more at the mark, and NAV is $132 again.
    const next = await strikeAt('d5', T0 + 5, 14_000, fee('p2'));
    expect(next.struck && [next.strike.feeCents, next.strike.navCents]).toEqual([0, 13_200]);
    const entries = (await new Ledger(store).range('g1', T0 + 4, T0 + 5)).filter((e) => e.kind === 'fund_fee');
    expect(entries.map((e) => [e.amountCents, e.data.crystallisedCents])).toEqual([[800, 800]]);
  });

  it('owes the manager what a fund struck before fee periods had already charged, NAV unchanged', async () => {
    await contribute('ann', 10_000, T0);
    await strikeAt('d1', T0 + 1, 10_000);
    // As the first version left it: a $5 fee charged for good, and a strike recorded without a fee period.
    await store.query("UPDATE funds SET fees_accrued_cents = 500 WHERE guild_key = 'g1'");
    const [last] = await store.query<{ strike_id: string; inputs: string }>(
      'SELECT strike_id, inputs FROM fund_strikes ORDER BY at DESC LIMIT 1',
    );
    const { feePeriod: _, ...old } = JSON.parse(String(last?.inputs)) as Record<string, unknown>;
    await store.query('UPDATE fund_strikes SET inputs = ? WHERE strike_id = ?', JSON.stringify(old), last?.strike_id);
    const r = await strikeAt('d2', T0 + 2, 10_000);
    expect(r.struck && r.strike.navCents).toBe(9_500);
    expect((await repo.cashouts('g1')).filter((c) => c.ask.kind === 'fee')).toMatchObject([
      { memberId: 'mgr', state: 'redeemed', cents: 500 },
    ]);
    const next = await strikeAt('d3', T0 + 3, 10_000);
    expect(next.struck && next.strike.navCents).toBe(9_500);
  });

  it('lets a checker other than the member approve a cash-out above the tier', async () => {
    const co = await repo.requestCashout({
      guildKey: 'g1',
      memberId: 'ann',
      ask: { kind: 'all' },
      needsApproval: true,
      at: T0,
    });
    expect(await repo.decideCashout(co!.cashoutId, 'ann', true, T0 + 1)).toEqual({ ok: false, why: 'own' });
    const ok = await repo.decideCashout(co!.cashoutId, 'bob', true, T0 + 1);
    expect(ok.ok && ok.cashout.state).toBe('pending');
  });
});
