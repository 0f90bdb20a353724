import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotStore, openStore } from '../../src/bot/store/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { type BotChild, respawnBot, spawnReadyBot } from '../support/bot-child.js';
import {
  type BettableSelection,
  betSlip,
  messageMatching,
  newTrail,
  press,
  SlipRefusedError,
} from '../support/flows.js';
import { cashOf, cents, deskCommand, historyOf, sidesOf, strikeFund } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

const U = 1_000_000n; // units are fixed-point with six decimals
const $ = (c: bigint | number) => `$${(Number(c) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

/**
 * The fund through the local Discord with the bot in its own process: three members contribute at different
 * strikes, bets placed through /bet settle won and lost, one member cashes out through a real withdraw_balance
 * job, and every member's value is checked against a hand computation from the gateway's own numbers. A kill -9
 * while a strike reads balances, and another while the cash-out's withdrawal is at the gateway with its answer
 * held, leave nothing struck twice, withdrawn twice or lost.
 */
describe('the fund end to end: contributions, strikes, bets, a cash-out, kill -9 twice', () => {
  let desk: Desk;
  let child: BotChild | undefined;
  let store: BotStore;
  let gw: GatewayClient;
  let session = '';

  const restart = async () => {
    child = await respawnBot(desk, child);
  };

  beforeAll(async () => {
    desk = await startDesk({
      proxy: true,
      inProcessBot: false,
      env: {
        SETTLEMENT_INTERVAL_SECONDS: '1',
        RECONCILE_INTERVAL_SECONDS: '1',
        RECONCILE_WINDOW_SECONDS: '4',
        GATEWAY_JOB_DEADLINE_SECONDS: '4',
        FUND_CHECK_SECONDS: '1',
      },
    });
    child = await spawnReadyBot(desk);
    store = await openStore(desk.env.STORE_URL as string);
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    session = (await gw.sessions.list()).find((s) => s.bookie === 'bookie_a' && s.active)?.session_id ?? '';
    expect(session).not.toBe('');
    await deskCommand(
      desk,
      desk.ld.users.admin,
      'settings',
      'results-channel',
      { channel: desk.ld.channelIds.results },
      /Saved/,
    );
  }, 90_000);
  afterAll(async () => {
    await child?.kill9().catch(() => undefined);
    await gw?.close();
    await store?.close();
    await desk?.close();
  });

  /** The gateway's cash on the session (balance less bonus) after its next heartbeat, in cents. */
  async function gatewayCash(): Promise<number> {
    await desk.advance(31_000);
    return cashOf(gw, session);
  }

  /** Two selections of one two-way market of an upcoming event at bookie_a: one wins, the other loses. */
  async function bothSides(skip: number): Promise<[BettableSelection, BettableSelection]> {
    const page = await gw.events.list({ league: 'nba', status: 'prematch', limit: 50 });
    // Well ahead of the sandbox clock: the test moves it on, and an event near its start changes books and prices.
    const soon = Date.parse((await desk.control.state()).now) + 3 * 3_600_000;
    for (const e of page.data) {
      if (!e.books?.includes('bookie_a') || Date.parse(e.start_time) < soon) continue;
      const card = await gw.markets.get({ epk: e.event_id, bookie: 'bookie_a' });
      if (!card.bound || !card.market_ref_betting_enabled) continue;
      const m = card.markets.find(
        (x) => x.selections.length === 2 && x.selections.every((s) => s.bettable && s.market_ref),
      );
      if (!m) continue;
      if (skip-- > 0) continue;
      return sidesOf(e, m, 'bookie_a');
    }
    throw new Error('no two-way market at bookie_a');
  }

  /** Bets both sides through /bet, settles the event at the sandbox, waits for the desk: the bets' P&L in cents. */
  async function betAndSettle(skip: number, stakes: [number, number]): Promise<{ pnl: number; statuses: string[] }> {
    const trail = newTrail();
    // An event whose book the desk refuses before any slip (its card went since the listing) gives way to the next.
    let sides = await bothSides(skip);
    let first = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel: sides[0], stake: stakes[0] }).catch(
      (err) => (err instanceof SlipRefusedError ? undefined : Promise.reject(err)),
    );
    for (let next = skip + 2; !first && next < skip + 8; next++) {
      sides = await bothSides(next);
      first = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel: sides[0], stake: stakes[0] }).catch(
        (err) => (err instanceof SlipRefusedError ? undefined : Promise.reject(err)),
      );
    }
    if (!first) throw new Error('no event took a slip');
    const second = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel: sides[1], stake: stakes[1] });
    for (const { slip } of [first, second]) {
      await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet placed ✅/, 30_000);
    }
    const placed = await store.query<{ bet_id: string }>(
      "SELECT bet_id FROM bet_records WHERE state = 'placed' AND session_id = ?",
      session,
    );
    expect(placed).toHaveLength(2);
    await desk.control.settle(sides[0].epk);
    await until(
      'the desk to settle both bets',
      async () =>
        (await store.query("SELECT 1 AS x FROM bet_records WHERE state = 'placed' AND session_id = ?", session))
          .length === 0,
      { timeoutMs: 30_000 },
    );
    const mine = (await historyOf(gw, session)).filter((t) => placed.some((p) => p.bet_id === t.id));
    return { pnl: mine.reduce((a, t) => a + cents(t.pnl), 0), statuses: mine.map((t) => String(t.status)) };
  }

  /** /ledger reconcile for a day (UTC, the server's zone here), then that day's new post in #results. */
  async function reconcilePost(day: string): Promise<string> {
    const posts = () =>
      desk.ld.messages(desk.ld.channelIds.results).filter((m) => textOf(m).includes(`Daily reconciliation · ${day}`));
    const before = posts().length;
    await deskCommand(desk, desk.ld.users.admin, 'ledger', 'reconcile', { day }, /Reconciliation of/);
    return textOf(await until(`the reconciliation post of ${day}`, () => posts()[before], { timeoutMs: 30_000 }));
  }

  const units = async (member: string) =>
    BigInt(
      (await store.query<{ units: number }>('SELECT units FROM fund_members WHERE member_id = ?', member))[0]?.units ??
        0,
    );

  it('values every member to the cent, through two crashes', async () => {
    const { admin, bettor, viewer } = desk.ld.users;
    // Strike 1: the account joins the fund; the bank already in it is the admin's opening contribution at $1.00.
    const c0 = await gatewayCash();
    await deskCommand(
      desk,
      admin,
      'fund',
      'accounts',
      { action: 'add', session, opening_member: admin.id },
      /Added bookie_a\/alpha_a/,
    );
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const ua = (BigInt(c0) * U) / 100n;
    expect(await units(admin.id)).toBe(ua);

    // Bets on both sides of a market: one wins, one loses.
    const round1 = await betAndSettle(0, [10, 6]);
    expect(round1.statuses.sort()).toEqual(['lost', 'won']);

    // Strike 2, with a kill -9 while it reads the balance: nothing is struck then, exactly once after.
    await desk.control.deposit(session, 50);
    await deskCommand(desk, admin, 'fund', 'contribute', { member: bettor.id, amount: 50, session }, /Recorded/);
    await desk.advance(31_000);
    desk.proxy!.hold('/v3/balance');
    await desk.ld.sendCommand({
      user: admin,
      channelId: desk.ld.channelIds.bets,
      name: 'fund',
      subcommand: 'strike',
      options: {},
    });
    await until('the strike to read the balance', () => desk.proxy!.heldFor('/v3/balance') > 0, { timeoutMs: 15_000 });
    await child!.kill9();
    desk.proxy!.drop();
    expect((await store.query('SELECT strike_id FROM fund_strikes')).length).toBe(1);
    await restart();
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const nav2 = BigInt(c0 + round1.pnl);
    const ub = (5_000n * ua) / nav2;
    expect(await units(bettor.id)).toBe(ub);
    expect((await store.query('SELECT strike_id FROM fund_strikes')).length).toBe(2);
    expect((await store.query("SELECT seq FROM ledger WHERE kind = 'fund_issue'")).length).toBe(2);

    // More bets, then the third member at strike 3.
    const round2 = await betAndSettle(1, [8, 12]);
    expect(round2.statuses.sort()).toEqual(['lost', 'won']);
    await desk.control.deposit(session, 30);
    await deskCommand(desk, admin, 'fund', 'contribute', { member: viewer.id, amount: 30, session }, /Recorded/);
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const nav3 = nav2 + 5_000n + BigInt(round2.pnl);
    const uv = (3_000n * (ua + ub)) / nav3;
    expect(await units(viewer.id)).toBe(uv);

    // The bettor cashes out everything at strike 4; its withdrawal reaches the gateway, the answer is held, kill -9.
    await deskCommand(desk, bettor, 'fund', 'cashout', { all: true }, /cash out all units/);
    const nav4 = nav3 + 3_000n;
    const total4 = ua + ub + uv;
    const owed = (ub * nav4) / total4;
    desk.proxy!.holdAnswers('/v3/withdraw_balance');
    expect(await strikeFund(desk)).toMatch(/Struck/);
    await until('the withdrawal to be at the gateway', () => desk.proxy!.heldAnswers > 0, { timeoutMs: 20_000 });
    await child!.kill9();
    desk.proxy!.drop();
    await restart();
    const [cashout] = await store.query<{ cashout_id: string; cents: number }>(
      'SELECT cashout_id, cents FROM fund_cashouts WHERE member_id = ?',
      bettor.id,
    );
    expect(BigInt(cashout?.cents ?? -1)).toBe(owed);
    // The attempt's 202 was lost with the process: no job to ask, and the history lists a withdrawal no attempt
    // owns. The desk never guesses whose it is by its amount: the attempt waits, unresolved, for a treasurer.
    const [attempt] = await until(
      'the attempt to wait for a treasurer',
      async () => {
        const rows = await store.query<{ attempt_id: string; note: string }>(
          "SELECT attempt_id, note FROM fund_withdrawals WHERE state = 'unresolved'",
        );
        return rows.length === 1 ? rows : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const withdrawals = (await historyOf(gw, session)).filter(
      (t) => t.type === 'withdrawal' && cents(t.stake) === Number(owed),
    );
    expect(withdrawals).toHaveLength(1);
    expect(attempt?.note).toContain(withdrawals[0]!.id);
    await deskCommand(
      desk,
      admin,
      'fund',
      'withdrawal',
      { attempt: attempt!.attempt_id, withdrawal_id: withdrawals[0]!.id },
      /Settled: the \$[\d,.]+ withdrawal was/,
    );
    expect(
      (
        await store.query(
          "SELECT 1 AS x FROM fund_cashouts WHERE cashout_id = ? AND state = 'withdrawn'",
          cashout?.cashout_id,
        )
      ).length,
    ).toBe(1);
    const attempts = await store.query<{ state: string }>('SELECT state FROM fund_withdrawals');
    expect(attempts.map((a) => a.state)).toEqual(['completed']);

    // Paid once; a second mark is refused.
    await deskCommand(desk, admin, 'fund', 'paid', { cashout: cashout?.cashout_id as string }, /Marked paid/);
    await deskCommand(desk, admin, 'fund', 'paid', { cashout: cashout?.cashout_id as string }, /already marked paid/);

    // Strike 5: NAV is the gateway's cash, and the two members left share it to the cent.
    const cash = await gatewayCash();
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const nav5 = nav4 - owed;
    expect(BigInt(cash)).toBe(nav5);
    const total5 = ua + uv;
    const exact = [ua, uv].map((u) => ({ floor: (u * nav5) / total5, rem: (u * nav5) % total5 }));
    const residual = nav5 - exact[0]!.floor - exact[1]!.floor;
    // The residual cent (at most one with two members) goes to the larger fraction, the admin on a tie.
    const adminValue = exact[0]!.floor + (residual > 0n && exact[0]!.rem >= exact[1]!.rem ? 1n : 0n);
    const viewerValue = nav5 - adminValue;
    const members = await deskCommand(desk, admin, 'fund', 'members', {}, /Fund members/);
    expect(members).toContain(
      `<@${admin.id}>: ${(Number(ua) / 1e6).toLocaleString('en-US', { minimumFractionDigits: 6 })} units, ${$(adminValue)}`,
    );
    expect(members).toContain(
      `<@${viewer.id}>: ${(Number(uv) / 1e6).toLocaleString('en-US', { minimumFractionDigits: 6 })} units, ${$(viewerValue)}`,
    );
    expect(members).toContain(`= NAV ${$(nav5)}`);
    const me = await deskCommand(desk, bettor, 'fund', 'me', {}, /Your share of the fund/);
    expect(me).toContain($(owed));

    // The daily reconciliation of the days the money moved names the fund's moves: the bettor's deposit matched to
    // the contribution and the withdrawal for the cash-out; the opening bank was in the account as it joined.
    const moved = (await historyOf(gw, session)).filter(
      (t) =>
        (t.type === 'deposit' && cents(t.stake) === 5_000) ||
        (t.type === 'withdrawal' && cents(t.stake) === Number(owed)),
    );
    expect(moved).toHaveLength(2);
    const days = [...new Set(moved.map((t) => String(t.placed_at).slice(0, 10)))];
    const posts = (await Promise.all(days.map(reconcilePost))).join('\n');
    const [opening] = await store.query<{ contribution_id: string }>(
      'SELECT contribution_id FROM fund_contributions WHERE member_id = ?',
      admin.id,
    );
    expect(posts).toMatch(new RegExp(`✓ [^\n]*: deposit \\$50\\.00 matched to <@${bettor.id}>'s contribution`));
    expect(posts).toMatch(
      new RegExp(
        `✓ [^\n]*: withdrawal \\${$(owed)} \\(completed\\) for <@${bettor.id}>'s cash-out \`${cashout?.cashout_id}\``,
      ),
    );
    expect(posts).not.toContain(`contribution \`${opening?.contribution_id}\``);
    // The fund's rows agree: units issued less redeemed are the units outstanding, and the members hold them.
    expect(posts).not.toContain("The fund's units");

    // Every strike once, every contribution issued once, the chain unbroken.
    expect((await store.query('SELECT strike_id FROM fund_strikes')).length).toBe(5);
    const kinds = await store.query<{ kind: string; n: number }>(
      "SELECT kind, COUNT(*) AS n FROM ledger WHERE kind LIKE 'fund_%' GROUP BY kind ORDER BY kind",
    );
    expect(Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]))).toMatchObject({
      fund_contribution: 3,
      fund_issue: 3,
      fund_strike: 5,
      fund_redemption: 1,
      fund_paid: 1,
    });
  }, 300_000);
});
