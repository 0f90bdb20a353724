import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileDay } from '../../src/bot/audit/daily-reconciliation.js';
import type { FundService } from '../../src/bot/fund/fund-service.js';
import { GatewayClient } from '../../src/gateway/index.js';
import type { RunningBot } from '../support/bot-entry.js';
import {
  type BettableSelection,
  betSlip,
  messageMatching,
  newTrail,
  press,
  SlipRefusedError,
} from '../support/flows.js';
import { cashOf, cents, deskCommand, historyOf, strikeFund } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { until } from '../support/wait.js';

/** The in-process bot, with the fund service its commands call (for the second server, see defect 3). */
type FundBot = RunningBot & { context: { fund: FundService } };

/**
 * The fund's books exactly right (issue 30), through the local Discord with the desk's own commands, each end state
 * read from the sandbox's own records (cash per account, the withdrawals it lists) and the desk's rows, never from
 * the desk's words. One desk, the defects in turn: the fund holds alpha's bookie_c account (Ann's opening $640),
 * then its bookie_b account, reached through two sessions (two machines on one account).
 */
describe('the fund values only its own accounts, each once, and pays each cash-out with its own withdrawal', () => {
  let desk: Desk<FundBot>;
  let gw: GatewayClient;
  const ids = { c: '', b: '', b2: '', a: '' };
  let ann: APIUser;
  let bob: APIUser;
  let admin: APIUser;
  /** bookie_a's cash as it joined the fund: a float the fund does not own. */
  let float = 0;

  beforeAll(async () => {
    desk = await startDesk<FundBot>({
      proxy: true,
      // The settlement watcher is slow here, so a strike meets a bet the book has settled and the desk has not read.
      env: {
        FUND_CHECK_SECONDS: '1',
        RECONCILE_WINDOW_SECONDS: '3',
        GATEWAY_JOB_DEADLINE_SECONDS: '3',
        SETTLEMENT_INTERVAL_SECONDS: '3600',
      },
    });
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const sessions = await gw.sessions.list();
    const find = (bookie: string, id: string) =>
      sessions.find((s) => s.bookie === bookie && s.session_id.endsWith(id))?.session_id ?? '';
    ids.a = find('bookie_a', '00a');
    ids.b = find('bookie_b', '00b');
    ids.b2 = find('bookie_b', '0b2');
    ids.c = find('bookie_c', '00c');
    expect(Object.values(ids).every(Boolean)).toBe(true);
    ({ admin, bettor: ann, viewer: bob } = desk.ld.users);
    await deskCommand(desk, admin, 'settings', 'results-channel', { channel: desk.ld.channelIds.results }, /Saved/);
  }, 90_000);
  afterAll(async () => {
    await gw?.close();
    await desk?.close();
  });

  const fund = (user: APIUser, sub: string, options: Record<string, string | number | boolean>, done: RegExp) =>
    deskCommand(desk, user, 'fund', sub, options, done);
  const withdrawalsOf = async (sessionId: string) =>
    (await historyOf(gw, sessionId)).filter((t) => t.type === 'withdrawal');
  const q = <T extends Record<string, unknown>>(sql: string, ...params: unknown[]) =>
    desk.bot.store.query<T>(sql, ...params);
  const unitsOf = async (member: APIUser) =>
    Number(
      (await q<{ units: number }>('SELECT units FROM fund_members WHERE member_id = ?', member.id))[0]?.units ?? 0,
    );
  const lastStrike = async () =>
    (
      await q<{ nav_after_cents: number; price: number; units_after: number }>(
        'SELECT nav_after_cents, price, units_after FROM fund_strikes ORDER BY at DESC LIMIT 1',
      )
    )[0];
  /**
   * Two strikes with nothing changed after `dealt` (a strike that may have dealt money): the first keeps its NAV and
   * units, and its price, NAV over units, may sit one millionth of a cent above the dealing price (units are issued
   * rounded down); the second repeats the first exactly. The first's row.
   */
  const strikesWithNothingChanged = async (dealt: Awaited<ReturnType<typeof lastStrike>>) => {
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const first = await lastStrike();
    expect({ nav: first?.nav_after_cents, units: first?.units_after }).toEqual({
      nav: dealt?.nav_after_cents,
      units: dealt?.units_after,
    });
    expect(Number(first?.price) - Number(dealt?.price)).toBeOneOf([0, 1]);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    expect(await lastStrike()).toEqual(first);
    return first;
  };
  /** A bettable selection of an upcoming event at a book, well ahead of the sandbox clock. */
  async function selectionAt(bookie: string, skip: number): Promise<BettableSelection> {
    const page = await gw.events.list({ league: 'nba', status: 'prematch', limit: 50 });
    const soon = Date.parse((await desk.control.state()).now) + 3 * 3_600_000;
    for (const e of page.data) {
      if (!e.books?.includes(bookie) || Date.parse(e.start_time) < soon) continue;
      const card = await gw.markets.get({ epk: e.event_id, bookie });
      if (!card.bound || !card.market_ref_betting_enabled) continue;
      const m = card.markets.find(
        (x) => x.selections.length === 2 && x.selections.every((y) => y.bettable && y.market_ref),
      );
      if (!m || skip-- > 0) continue;
      const sel = m.selections[0]!;
      return {
        epk: e.event_id,
        name: e.name,
        bookie,
        market: m.market,
        marketRef: sel.market_ref as string,
        label: sel.label ?? '',
        startsAt: Date.parse(e.start_time),
      };
    }
    throw new Error(`no two-way market at ${bookie}`);
  }
  /** Ann bets through a book with /bet and Confirm; the selection's event, once placed. */
  async function placeBet(bookie: string, stake: number): Promise<BettableSelection> {
    const trail = newTrail();
    for (let skip = 0; skip < 6; skip++) {
      const sel = await selectionAt(bookie, skip);
      const shown = await betSlip(desk, trail, { user: ann, sel, stake }).catch((err) =>
        err instanceof SlipRefusedError ? undefined : Promise.reject(err),
      );
      if (!shown) continue;
      await press(desk, trail, ann, shown.slip, /^Confirm$/);
      await messageMatching(desk, shown.slip, /Bet placed ✅/, 30_000);
      return sel;
    }
    throw new Error(`no event at ${bookie} took a slip`);
  }
  const strikeCount = async () => (await q('SELECT strike_id FROM fund_strikes')).length;

  it('opens on an account already holding money by recording it as the opening bank, not by inventing a deposit', async () => {
    const held = await cashOf(gw, ids.c);
    const outside = await fund(
      admin,
      'contribute',
      { member: ann.id, amount: 10, session: ids.c },
      /not one of the fund's accounts/,
    );
    expect(outside).toContain('/fund accounts action:add session:`, picking bookie_c/alpha_c from the list');
    expect(outside).not.toContain(ids.c);
    const refused = await fund(admin, 'accounts', { action: 'add', session: ids.c }, /already holds/);
    expect(refused).toContain('bookie_c/alpha_c');
    expect(refused).toContain('opening_member');
    expect(await q('SELECT bookie FROM fund_accounts')).toEqual([]);
    await fund(admin, 'accounts', { action: 'add', session: ids.c, opening_member: ann.id }, /Added bookie_c\/alpha_c/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    expect(await unitsOf(ann)).toBe(held * 10_000);
    expect((await lastStrike())?.nav_after_cents).toBe(await cashOf(gw, ids.c));
  });

  it('3: refuses another server an account this fund holds: no contribution, no account, no withdrawal', async () => {
    const before = await cashOf(gw, ids.c);
    // The local Discord takes slash commands in its first server only; the second server's admin is the call its
    // /fund command makes on the same desk (the desk serves both servers from one key, as a shared desk would).
    const other = desk.ld.elsewhere.guildId;
    const service = desk.bot.context.fund;
    await expect(
      service.addAccount({ guildId: other, sessionId: ids.c, actor: bob.id, openingMemberId: bob.id }),
    ).rejects.toThrow(/bookie_c\/alpha_c belongs to another server's fund/);
    await expect(
      service.contribute({
        guildId: other,
        memberId: bob.id,
        amountCents: 64_000,
        sessionId: ids.c,
        reference: null,
        actor: bob.id,
      }),
    ).rejects.toThrow(/belongs to another server's fund/);
    expect((await service.strike(other, { actor: bob.id })).ok).toBe(false);
    await service.tick([other]);
    expect(await q('SELECT guild_key FROM fund_contributions WHERE guild_key = ?', desk.ld.elsewhere.guildId)).toEqual(
      [],
    );
    expect(await q('SELECT guild_key FROM fund_accounts WHERE guild_key = ?', desk.ld.elsewhere.guildId)).toEqual([]);
    expect(await withdrawalsOf(ids.c)).toEqual([]);
    expect(await cashOf(gw, ids.c)).toBe(before);
  });

  it('7: refuses a strike while a deposit nobody recorded sits in the account, naming it; shares it out to no one', async () => {
    const price = (await lastStrike())?.price;
    const struck = await strikeCount();
    const { deposit_id } = await desk.control.deposit(ids.c, 100);
    const refused = await strikeFund(desk);
    expect(refused).toMatch(/Not struck: unexplained money on bookie_c\/alpha_c: a deposit/);
    expect(refused).toContain(deposit_id);
    expect(await strikeCount()).toBe(struck);
    // It was Bob's: recorded, matched to that deposit, and dealt at the price before it.
    await fund(admin, 'contribute', { member: bob.id, amount: 100, session: ids.c }, /Recorded/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    expect((await lastStrike())?.price).toBe(price);
    expect(await unitsOf(bob)).toBe(100_000_000);
    expect((await lastStrike())?.nav_after_cents).toBe(await cashOf(gw, ids.c));
  });

  it('5: deals a contribution only once its deposit has reached the account', async () => {
    const annUnits = await unitsOf(ann);
    await fund(admin, 'contribute', { member: bob.id, amount: 160, session: ids.c }, /Recorded/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    expect(await unitsOf(bob)).toBe(100_000_000);
    const [waiting] = await q<{ state: string; deposit_id: string | null }>(
      'SELECT state, deposit_id FROM fund_contributions WHERE member_id = ? AND amount_cents = 16000',
      bob.id,
    );
    expect(waiting).toEqual({ state: 'pending', deposit_id: null });
    expect((await lastStrike())?.nav_after_cents).toBe(await cashOf(gw, ids.c));
    await desk.control.deposit(ids.c, 160);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    expect(await unitsOf(bob)).toBe(260_000_000);
    expect(await unitsOf(ann)).toBe(annUnits);
    expect((await lastStrike())?.nav_after_cents).toBe(await cashOf(gw, ids.c));
  });

  it('2: values an account reached through two sessions once', async () => {
    const alphaB = await cashOf(gw, ids.b);
    await fund(admin, 'accounts', { action: 'add', session: ids.b, opening_member: ann.id }, /Added bookie_b\/alpha_b/);
    expect(
      await fund(admin, 'accounts', { action: 'add', session: ids.b2 }, /already one of the fund's accounts/),
    ).toContain('bookie_b/alpha_b');
    await desk.control.deposit(ids.b2, 100);
    await fund(admin, 'contribute', { member: bob.id, amount: 100, session: ids.b2 }, /Recorded/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    expect(await cashOf(gw, ids.b)).toBe(alphaB + 10_000);
    // NAV is the two accounts' cash, bookie_b's counted once however many sessions reach it.
    expect((await lastStrike())?.nav_after_cents).toBe((await cashOf(gw, ids.c)) + (await cashOf(gw, ids.b)));
    expect(await unitsOf(bob)).toBe(360_000_000);
  });

  it('1: values no account outside the fund, whatever the server bets through it', async () => {
    const sel = await placeBet('bookie_a', 5);
    await desk.control.settle(sel.epk);
    expect((await historyOf(gw, ids.a)).some((t) => t.type === 'bet' && cents(t.stake) === 500)).toBe(true);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    // NAV is the fund's two accounts' cash, not bookie_a's, however the bet went.
    expect((await lastStrike())?.nav_after_cents).toBe((await cashOf(gw, ids.c)) + (await cashOf(gw, ids.b)));
    expect(await q('SELECT bookie FROM fund_accounts WHERE bookie = ?', 'bookie_a')).toEqual([]);
  }, 90_000);

  it('6: counts a settlement the book made and the desk has not read once, in the cash', async () => {
    // bookie_a's cash joins as a float the fund does not own but for Ann's $20.00, the fund's to bet (only bookie_a
    // takes market_ref bets here; the float is never staked: decision 1950).
    await desk.advance(31_000);
    float = (await cashOf(gw, ids.a)) - 2_000;
    await fund(
      admin,
      'accounts',
      { action: 'add', session: ids.a, float: float / 100, opening_member: ann.id },
      /Added bookie_a\/alpha_a/,
    );
    const sel = await placeBet('bookie_a', 20);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const books = async () => (await cashOf(gw, ids.c)) + (await cashOf(gw, ids.b)) + (await cashOf(gw, ids.a)) - float;
    // The open bet is at cost: NAV is the cash plus its stake.
    expect((await lastStrike())?.nav_after_cents).toBe((await books()) + 2_000);
    await desk.control.settle(sel.epk);
    expect(
      (await historyOf(gw, ids.a)).find((t) => t.type === 'bet' && t.status !== 'pending' && cents(t.stake) === 2_000),
    ).toBeDefined();
    // The desk still reads the bet as placed; the strike finds its settlement in the book and counts it once.
    expect(
      await q("SELECT 1 AS x FROM bet_records WHERE state = 'placed' AND session_id = ? AND stake_cents = 2000", ids.a),
    ).toHaveLength(1);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    expect((await lastStrike())?.nav_after_cents).toBe(await books());
  }, 90_000);

  it('4: pays each of two cash-outs with its own withdrawal when the first request is lost on its way', async () => {
    await fund(ann, 'cashout', { amount: 300 }, /asks to cash out \$300\.00/);
    await fund(bob, 'cashout', { amount: 300 }, /asks to cash out \$300\.00/);
    desk.proxy!.hold('/v3/withdraw_balance');
    expect(await strikeFund(desk)).toMatch(/Struck/);
    await until(
      'the first withdrawal request to be on its way',
      () => desk.proxy!.heldFor('/v3/withdraw_balance') > 0,
      {
        timeoutMs: 20_000,
      },
    );
    desk.proxy!.drop();
    await until(
      'both cash-outs to be withdrawn',
      async () => (await q("SELECT 1 AS x FROM fund_cashouts WHERE state = 'withdrawn'")).length === 2,
      { timeoutMs: 60_000 },
    );
    const listed = [...(await withdrawalsOf(ids.b)), ...(await withdrawalsOf(ids.c))];
    expect(listed.map((t) => cents(t.stake))).toEqual([30_000, 30_000]);
    const attempts = await q<{ cashout_id: string; state: string; gateway_withdrawal_id: string | null }>(
      "SELECT cashout_id, state, gateway_withdrawal_id FROM fund_withdrawals WHERE state = 'completed'",
    );
    expect(new Set(attempts.map((a) => a.cashout_id)).size).toBe(2);
    expect(attempts.map((a) => a.gateway_withdrawal_id).sort()).toEqual(listed.map((t) => t.id).sort());
    // Nothing is left in flight: the next strike is not held by a withdrawal.
    expect(await strikeFund(desk)).toMatch(/Struck/);
  }, 90_000);

  /** Every withdrawal the sandbox lists on the fund's three accounts. */
  const fundWithdrawals = async () => [
    ...(await withdrawalsOf(ids.c)),
    ...(await withdrawalsOf(ids.b)),
    ...(await withdrawalsOf(ids.a)),
  ];
  /** The sandbox's cash of the fund's accounts, less bookie_a's float (what the fund owns). */
  const fundCash = async () =>
    (await cashOf(gw, ids.c)) + (await cashOf(gw, ids.b)) + (await cashOf(gw, ids.a)) - float;
  const fundRow = async () =>
    (await q<{ units: number; fees_accrued_cents: number }>('SELECT units, fees_accrued_cents FROM funds'))[0];

  it('8: counts a member once a strike: a second ask before it is refused, so splitting cannot pass under the tier', async () => {
    const before = await fundWithdrawals();
    const asked = await fund(bob, 'cashout', { amount: 50 }, /asks to cash out \$50\.00/);
    expect(asked).not.toContain('Approved by');
    await fund(bob, 'cashout', { amount: 50 }, /already have a cash-out waiting/);
    await fund(bob, 'cashout', { amount: 20 }, /already have a cash-out waiting/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    await until(
      "Bob's cash-out withdrawn",
      async () =>
        (await q("SELECT 1 AS x FROM fund_cashouts WHERE member_id = ? AND state = 'withdrawn'", bob.id)).length >= 2,
      { timeoutMs: 60_000 },
    );
    // The sandbox lists exactly one more withdrawal, of the one ask's $50.
    const after = await fundWithdrawals();
    const added = after.filter((t) => !before.some((b) => b.id === t.id));
    expect(added.map((t) => cents(t.stake))).toEqual([5_000]);
  }, 90_000);

  it('9: checks every ask and setting on the server: nothing out of range reaches the books or the sandbox', async () => {
    const withdrawals = await fundWithdrawals();
    const cash = { c: await cashOf(gw, ids.c), b: await cashOf(gw, ids.b), a: await cashOf(gw, ids.a) };
    const rows = async () => ({
      contributions: (await q('SELECT contribution_id FROM fund_contributions')).length,
      cashouts: (await q('SELECT cashout_id FROM fund_cashouts')).length,
    });
    const counted = await rows();
    await fund(bob, 'cashout', { units: -5 }, /Units are a positive number/);
    await fund(bob, 'cashout', { amount: 99_999 }, /You hold [\d.]+ units, worth \$[\d,.]+ at the last strike/);
    await fund(bob, 'cashout', { amount: 0.01 }, /smallest cash-out is \$10\.00/);
    await fund(admin, 'contribute', { member: bob.id, amount: 999_999_999.99, session: ids.c }, /between \$0\.01 and/);
    await deskCommand(
      desk,
      admin,
      'settings',
      'fund',
      { cashout_tier: -5 },
      /cashout_tier must be from 0 to 1,000,000/,
    );
    expect(await strikeFund(desk)).toMatch(/Struck/);
    expect(await rows()).toEqual(counted);
    expect(await fundWithdrawals()).toEqual(withdrawals);
    expect({ c: await cashOf(gw, ids.c), b: await cashOf(gw, ids.b), a: await cashOf(gw, ids.a) }).toEqual(cash);
  });

  it('10: cancels an ask with a reason, and a strike with nothing changed is a fixed point, the fee off and on', async () => {
    // Bob's value after the earlier items depends on how their bets went: $20 more makes his $10 ask one he holds.
    await desk.control.deposit(ids.c, 20);
    await fund(admin, 'contribute', { member: bob.id, amount: 20, session: ids.c }, /Recorded/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const asked = await fund(bob, 'cashout', { amount: 10 }, /asks to cash out \$10\.00/);
    expect(asked).not.toContain('<@null>');
    const [open] = await q<{ cashout_id: string }>("SELECT cashout_id FROM fund_cashouts WHERE state = 'pending'");
    await fund(admin, 'cancel', { id: open!.cashout_id, reason: 'asked by mistake' }, /Cancelled/);
    const [entry] = await q<{ data: string }>(
      "SELECT data FROM ledger WHERE kind = 'fund_cancel' AND ref = ?",
      open!.cashout_id,
    );
    expect(JSON.parse(String(entry?.data)).reason).toBe('asked by mistake');
    const withdrawals = await fundWithdrawals();
    // Fee off: NAV is the fund's cash at the sandbox, and stays so.
    const fixed = await strikesWithNothingChanged(await lastStrike());
    expect(fixed?.nav_after_cents).toBe(await fundCash());
    // Fee on: a gain (money a treasurer accepts as the fund's) and a contribution dealt at the same strike.
    await deskCommand(desk, admin, 'settings', 'fund', { fee_percent: 20 }, /Saved/);
    const { deposit_id } = await desk.control.deposit(ids.c, 37.37);
    expect(await strikeFund(desk)).toMatch(/Not struck: unexplained money/);
    await fund(
      admin,
      'explain',
      { transaction: deposit_id, reason: 'a gift to the fund' },
      /deposit|Accepted|explained/i,
    );
    await desk.control.deposit(ids.b, 11.11);
    await fund(admin, 'contribute', { member: ann.id, amount: 11.11, session: ids.b }, /Recorded/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const accrued = (await fundRow())?.fees_accrued_cents ?? 0;
    expect(Number(accrued)).toBeGreaterThan(0);
    const feeOn = await lastStrike();
    // NAV plus the fee accrued is the fund's cash at the sandbox.
    expect(Number(feeOn?.nav_after_cents) + Number(accrued)).toBe(await fundCash());
    await strikesWithNothingChanged(feeOn);
    expect((await fundRow())?.fees_accrued_cents).toBe(accrued);
    expect(await fundWithdrawals()).toEqual(withdrawals);
    expect(await q("SELECT 1 AS x FROM fund_cashouts WHERE state IN ('pending', 'redeemed')")).toEqual([]);
  }, 90_000);

  it("the daily reconciliation finds the fund's entries agreeing with its rows, and names a row changed behind them", async () => {
    const day = new Date(Date.parse((await desk.control.state()).now)).toISOString().slice(0, 10);
    const reconcile = async () =>
      (
        await reconcileDay({
          store: desk.bot.store,
          gateway: gw,
          callbackUrl: undefined,
          guildKey: desk.ld.guildId,
          day,
          timezone: 'UTC',
          now: Date.parse((await desk.control.state()).now),
        })
      ).mismatches.filter((m) => m.kind === 'fund_entries' || m.kind === 'fund_units');
    expect(await reconcile()).toEqual([]);
    const [done] = await q<{ attempt_id: string; gateway_withdrawal_id: string }>(
      "SELECT attempt_id, gateway_withdrawal_id FROM fund_withdrawals WHERE state = 'completed' LIMIT 1",
    );
    await q(
      'UPDATE fund_withdrawals SET gateway_withdrawal_id = ? WHERE attempt_id = ?',
      'wd-forged',
      done!.attempt_id,
    );
    try {
      expect((await reconcile()).map((m) => m.detail)).toEqual([
        `withdrawal attempt ${done!.attempt_id}: its row names withdrawal wd-forged, its completing entry ${done!.gateway_withdrawal_id}`,
      ]);
    } finally {
      await q(
        'UPDATE fund_withdrawals SET gateway_withdrawal_id = ? WHERE attempt_id = ?',
        done!.gateway_withdrawal_id,
        done!.attempt_id,
      );
    }
  }, 60_000);
});
