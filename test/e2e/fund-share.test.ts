import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StrikeInputs } from '../../src/bot/fund/model/fund-records.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { cents, expectTipstersSumToFund, type FundFlows, fundFlows, money } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/** Two and a half hours before November 2026 ends in UTC (the server's zone by default): the month turns mid-test. */
const START = new Date('2026-11-30T21:30:00Z');
const SHARE_BPS = 2_000;

type StrikeRow = {
  strike_id: string;
  nav_cents: number;
  nav_after_cents: number;
  price: number;
  inputs: string;
};

/**
 * The tipster share through the local Discord (decision 1923), on the bot's clock pinned to the sandbox's: the share
 * on at 20 %, three tipsters' bets settle and /fund tipsters sums to the fund's P&L; the next strike accrues each
 * winning tipster 20 % of their own profit (the fund gained more than they did, so nothing is cut) and NAV is struck
 * net of it; the first strike of December crystallises it with NAV unchanged to the cent; the desk withdraws each
 * tipster's share through withdraw_balance, the treasurer marks it paid, and NAV is unchanged by both; the ledger
 * holds the share's entries and verifies. Then the server's week turns and the fund's beat posts that week's report
 * (each tipster's P&L) to the results channel once.
 */
describe('the fund: the tipster share', () => {
  let desk: Desk;
  let gw: GatewayClient;
  let session = '';
  let flows: FundFlows;
  /** Each tipster's P&L by the gateway's history, from the first test (the second reads its week). */
  let settledByMember = new Map<string, number>();

  beforeAll(async () => {
    desk = await startDesk({
      sandboxClock: true,
      sandbox: { start: START },
      env: { SETTLEMENT_INTERVAL_SECONDS: '1', FUND_CHECK_SECONDS: '1' },
    });
    // Its jobs' timeout_at are on the sandbox's clock, which START may put behind the machine's.
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    session = (await gw.sessions.list()).find((s) => s.bookie === 'bookie_a' && s.active)?.session_id ?? '';
    expect(session).not.toBe('');
    flows = fundFlows(desk, gw, session);
    await flows.command(
      desk.ld.users.admin,
      'settings',
      'results-channel',
      { channel: desk.ld.channelIds.results },
      /Saved/,
    );
    // Vic bets too: the third tipster.
    desk.ld.setMemberRoles(desk.ld.users.viewer.id, [desk.ld.roleIds.bettor]);
  }, 90_000);
  afterAll(async () => {
    await gw?.close();
    await desk?.close();
  });

  const lastStrike = async () => {
    const [row] = await desk.bot.store.query<StrikeRow>(
      'SELECT strike_id, nav_cents, nav_after_cents, price, inputs FROM fund_strikes ORDER BY at DESC, strike_id DESC LIMIT 1',
    );
    if (!row) throw new Error('no strike');
    return { ...row, nav: Number(row.nav_cents), navAfter: Number(row.nav_after_cents), price: Number(row.price) };
  };
  const shareOf = (row: StrikeRow) => (JSON.parse(row.inputs) as StrikeInputs).share;
  const shareCashouts = () =>
    desk.bot.store.query<{ cashout_id: string; member_id: string; cents: number; state: string; strike_id: string }>(
      `SELECT cashout_id, member_id, cents, state, strike_id FROM fund_cashouts WHERE ask LIKE '%"share"%' ORDER BY member_id`,
    );

  it('accrues each tipster their share above their mark, crystallises it at the month turn and pays it by withdrawal, NAV unchanged', async () => {
    const { admin } = desk.ld.users;
    const { command, strike, history } = flows;
    const settings = await command(admin, 'settings', 'fund', { share_percent: SHARE_BPS / 100 }, /Saved/);
    expect(settings).toContain("tipster share: 20% of each tipster's attributed profit above their own mark");

    // The account joins with a float, so that NAV is $100.00; the opening strike starts every tipster's mark at 0.
    expect(await flows.openWithNav(10_000)).toMatch(/Struck/);
    const opening = await lastStrike();
    expect(opening.navAfter).toBe(10_000);

    // Three tipsters: Ada and Ben on the two sides of one market (one of them wins), Vic on another.
    const byMember = await flows.threeTipsters();
    settledByMember = byMember;
    const fundPnl = await expectTipstersSumToFund(flows, admin, byMember);

    // A bookmaker's refund of $50.00 the treasurer accepts as the fund's: the fund gains more than any tipster did, so
    // the cap (the fund's own gain above its mark) cuts nothing and each share is 20 % of the tipster's own profit.
    const refund = await desk.control.deposit(session, 50);
    await command(
      admin,
      'fund',
      'explain',
      { transaction: refund.deposit_id, reason: "the bookmaker's refund" },
      /Accepted/,
    );
    const accruing = await strike();
    expect(accruing).toMatch(/Struck/);
    const expected = new Map(
      [...byMember].map(([member, pnl]) => [member, Math.floor((Math.max(0, pnl) * SHARE_BPS) / 10_000)]),
    );
    const owedTotal = [...expected.values()].reduce((s, x) => s + x, 0);
    expect(owedTotal, 'one of Ada and Ben won, so someone has a share').toBeGreaterThan(0);
    expect(accruing).toContain(`Tipster share accrued this period: ${money(-owedTotal)}`);
    const accrued = await lastStrike();
    const share = shareOf(accrued);
    expect(share?.capped).toBe(false);
    expect(share?.fundGainCents).toBe(fundPnl + 5_000);
    expect(Object.fromEntries((share?.tipsters ?? []).map((t) => [t.memberId, t.accruedCents]))).toEqual(
      Object.fromEntries(expected),
    );
    // NAV is struck net of the share, as of the fee: the opening $100.00, the bets, the refund, less the share.
    expect(accrued.nav).toBe(10_000 + fundPnl + 5_000 - owedTotal);
    expect(await shareCashouts()).toEqual([]);

    // December's first strike crystallises the share: owed to each tipster, NAV and the price unchanged to the cent.
    await desk.advance(2 * 3_600_000 + 40 * 60_000);
    expect(await strike()).toMatch(/Tipster share crystallised/);
    const crystallised = await lastStrike();
    expect(crystallised.nav).toBe(accrued.nav);
    expect(crystallised.price).toBe(accrued.price);
    expect(shareOf(crystallised)?.crystallisedCents).toBe(owedTotal);
    const winners = [...expected].filter(([, c]) => c > 0).sort(([a], [b]) => (a < b ? -1 : 1));
    const owed = await shareCashouts();
    expect(owed.map((c) => [c.member_id, Number(c.cents)])).toEqual(winners);
    expect(owed.every((c) => c.strike_id === crystallised.strike_id)).toBe(true);

    // The beat withdraws each through withdraw_balance; the history shows each withdrawal the desk's attempt owns.
    let states = '';
    await until(
      "every tipster's share withdrawn",
      async () => {
        const now = await shareCashouts();
        states = now.map((c) => `${c.cashout_id}: ${c.state}`).join(', ');
        return now.every((c) => c.state === 'withdrawn');
      },
      { timeoutMs: 30_000, seen: () => states },
    );
    const attempts = await desk.bot.store.query<{
      cashout_id: string;
      amount_cents: number;
      gateway_withdrawal_id: string;
    }>(
      "SELECT cashout_id, amount_cents, gateway_withdrawal_id FROM fund_withdrawals WHERE state = 'completed' ORDER BY cashout_id",
    );
    expect(attempts.map((a) => [a.cashout_id, Number(a.amount_cents)])).toEqual(
      [...owed].sort((x, y) => (x.cashout_id < y.cashout_id ? -1 : 1)).map((c) => [c.cashout_id, Number(c.cents)]),
    );
    const withdrawals = new Map((await history()).filter((t) => t.type === 'withdrawal').map((t) => [t.id, t]));
    for (const a of attempts)
      expect(cents(withdrawals.get(a.gateway_withdrawal_id)?.stake)).toBe(Number(a.amount_cents));
    expect(await strike()).toMatch(/Struck/);
    expect((await lastStrike()).nav).toBe(accrued.nav);

    // The treasurer pays each tipster and marks it paid, like a cash-out; NAV is unchanged once more.
    for (const c of owed) {
      expect(await command(admin, 'fund', 'paid', { cashout: c.cashout_id }, /Marked paid/)).toContain(
        `<@${c.member_id}> ${money(Number(c.cents))}`,
      );
    }
    expect((await shareCashouts()).map((c) => c.state)).toEqual(owed.map(() => 'paid'));
    expect(await strike()).toMatch(/Struck/);
    const paid = await lastStrike();
    expect(paid.nav).toBe(accrued.nav);
    // Each mark moved up to the tipster's P&L: nothing accrues again until they make more.
    expect(shareOf(paid)?.accruedCents).toBe(0);

    // The ledger holds the share's accrual and crystallisation, each withdrawal's steps and each payment; it verifies.
    const entries = await desk.bot.store.query<{ kind: string; ref: string; amount_cents: number; data: string }>(
      "SELECT kind, ref, amount_cents, data FROM ledger WHERE kind IN ('fund_share', 'fund_paid') ORDER BY seq",
    );
    const shares = entries.filter((e) => e.kind === 'fund_share');
    expect(shares.map((e) => [e.ref, Number(e.amount_cents)]).slice(0, 2)).toEqual([
      [accrued.strike_id, owedTotal],
      [crystallised.strike_id, owedTotal],
    ]);
    expect((JSON.parse(shares[1]?.data ?? '{}') as { shareCashoutIds?: string[] }).shareCashoutIds?.sort()).toEqual(
      owed.map((c) => c.cashout_id).sort(),
    );
    expect(
      entries
        .filter((e) => e.kind === 'fund_paid')
        .map((e) => e.ref)
        .sort(),
    ).toEqual(owed.map((c) => c.cashout_id).sort());
    expect(await command(admin, 'ledger', 'verify', {}, /The ledger is/)).toMatch(/^The ledger is intact/);
  }, 120_000);

  it("posts the week's report to the results channel once, with each tipster's P&L, once the week turns", async () => {
    const byMember = settledByMember;
    expect(byMember.size, 'runs after the first test, on its bets').toBe(3);
    // The weekly report: once the server's week turns (Monday 00:00 UTC), the fund's beat posts last week's report
    // to the results channel once, with each tipster's P&L; more beats post nothing more.
    const reports = (week: string) =>
      desk.ld
        .messages(desk.ld.channelIds.results)
        .filter((m) => textOf(m).includes(`The fund's report · week of ${week}`));
    expect(reports('2026-11-30')).toHaveLength(0);
    const now = Date.parse((await desk.control.state()).now);
    await desk.advance(Date.parse('2026-12-07T00:05:00Z') - now);
    const [weekly] = await until(
      'the weekly report',
      () => (reports('2026-11-30').length > 0 ? reports('2026-11-30') : undefined),
      {
        timeoutMs: 20_000,
      },
    );
    for (const [member, pnl] of byMember) expect(textOf(weekly)).toContain(`<@${member}>: **${money(pnl)}**`);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(reports('2026-11-30')).toHaveLength(1);
    const key = await desk.bot.store.query(
      'SELECT 1 AS x FROM outbox WHERE outbox_key LIKE ?',
      '%fund-week:%:2026-11-30',
    );
    expect(key).toHaveLength(1);
  }, 60_000);
});
