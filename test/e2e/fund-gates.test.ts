import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Placement } from '../../src/bot/betting/placement.js';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import type { RunningBot } from '../support/bot-entry.js';
import { type BettableSelection, betSlip, messageMatching, newTrail, press } from '../support/flows.js';
import {
  cashOf,
  cents,
  deskCommand,
  type FundFlows,
  fundFlows,
  fundReport,
  headToHeadAt,
  historyOf,
  proposeBet,
  sidesOf,
  strikeFund,
} from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/** The desk's own Confirm, for the slip another server holds. */
type GateBot = RunningBot & { context: { placement: Placement } };

/** The alpha syndicate's active sessions (the sandbox's fixture accounts). */
const SESSION = {
  bookie_a: '5e55a1fa-0000-4000-8000-00000000000a',
  bookie_c: '5e55a1fa-0000-4000-8000-00000000000c',
};

/** The sandbox's own record of the bets placed on an event. */
async function betsAt(desk: Desk, epk: string) {
  return (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(epk));
}

const lastNav = async (desk: Desk) =>
  Number(
    (
      await desk.bot.store.query<{ nav_after_cents: number }>(
        'SELECT nav_after_cents FROM fund_strikes ORDER BY at DESC, strike_id DESC LIMIT 1',
      )
    )[0]?.nav_after_cents,
  );

/** A slip posted, then its Confirm pressed: the slip message as it ends (placed or refused). */
async function confirm(desk: Desk, user: APIUser, sel: BettableSelection, stake: number): Promise<LocalMessage> {
  const trail = newTrail();
  const { slip } = await betSlip(desk, trail, { user, sel, stake });
  if (!slip) throw new Error('no slip');
  const pressed = await press(desk, trail, user, slip, /^Confirm$/);
  // The slip's end, or the gate's private answer (a refusal before the claim leaves the slip as it was).
  return until(
    'the slip placed or refused',
    () => {
      const m = desk.ld.message(slip.id);
      if (m && /Bet placed ✅|Not placed/.test(textOf(m))) return m;
      return pressed.responses().find((r) => r.visibleTo === user.id && textOf(r) !== '');
    },
    { timeoutMs: 30_000, seen: () => textOf(desk.ld.message(slip.id)) },
  );
}

/**
 * The fund's money behind its gates (issue 43, decision 1950), each end state read from the sandbox's own records:
 * only the owning server's members stake a fund account, only with the fund's money in it (never its float), the
 * daily loss limit reserved with the bet's record so Confirms pressed together cannot both take its last room, and
 * an account with an open fund bet cannot leave the fund.
 */
describe("the fund's money: whose account, how much of it, how many Confirms at once", () => {
  let desk: Desk<GateBot>;
  let gw: GatewayClient;
  let flows: FundFlows;

  beforeAll(async () => {
    desk = await startDesk<GateBot>({ env: { SETTLEMENT_INTERVAL_SECONDS: '1', FUND_CHECK_SECONDS: '3600' } });
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    flows = fundFlows(desk, gw, SESSION.bookie_a);
    // No approval tiers in the way: these stakes are placed at their Confirm.
    await deskCommand(desk, desk.ld.users.admin, 'settings', 'approvals', { t1: 100_000, t2: 100_000 }, /Saved/);
    // NAV $150.00: the rest of bookie_a's cash is a float, not the fund's to bet.
    expect(await flows.openWithNav(15_000)).toMatch(/Struck/);
  }, 90_000);
  afterAll(async () => {
    await gw?.close();
    await desk?.close();
  });

  it('2: refuses a fund bet above the fund’s money in the account: the float is not staked', async () => {
    const { bettor } = desk.ld.users;
    const [s0, s1] = await flows.market();
    // $150.00 of the fund's own money in bookie_a: an $80.00 bet leaves $70.00 of it, the float untouched.
    expect(textOf(await confirm(desk, bettor, s0, 80))).toMatch(/Bet placed ✅/);
    const refused = textOf(await confirm(desk, bettor, s1, 75));
    expect(refused).toContain('Not placed: the fund has $70.00 of its own money in bookie_a/');
    expect(refused).toContain("The float is not the fund's to bet.");
    expect((await betsAt(desk, s1.epk)).length).toBe(1);
  });

  it('6: refuses another server a bet through this fund’s account, before it is sent', async () => {
    const { bettor } = desk.ld.users;
    const [sel] = await flows.market();
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 5 });
    if (!slip) throw new Error('no slip');
    // The slip as another server's desk would hold it: the local Discord takes commands in its first server only,
    // so the second server's slip is this one moved there, and its Confirm is the desk's own call.
    // The slip's message id is stored just after it is posted (a moment later on a busy machine).
    const [row] = await until(
      'the slip stored with its message',
      async () => {
        const rows = await desk.bot.store.query<{ slip_id: string }>(
          'SELECT slip_id FROM slips WHERE message_id = ?',
          slip.id,
        );
        return rows.length === 1 ? rows : undefined;
      },
      { timeoutMs: 20_000 },
    );
    const other = desk.ld.elsewhere;
    await desk.bot.store.query(
      'UPDATE slips SET guild_id = ?, channel_id = ? WHERE slip_id = ?',
      other.guildId,
      other.channelId,
      row?.slip_id,
    );
    const result = await desk.bot.context.placement.confirm(String(row?.slip_id), bettor.id, {
      channelId: other.channelId,
      messageId: slip.id,
    });
    expect(result.kind).toBe('closed');
    expect(result.kind === 'closed' && result.message).toMatch(
      /^Not placed: bookie_a\/\S+ is another server's fund account; only that server's members can bet through it\./,
    );
    expect(await betsAt(desk, sel.epk)).toEqual([]);
    expect(await desk.bot.store.query('SELECT 1 AS x FROM bet_records WHERE slip_id = ?', row?.slip_id)).toEqual([]);
  });

  it('3: two and then ten Confirms pressed together never pass the daily loss limit', async () => {
    const { admin, bettor, viewer } = desk.ld.users;
    desk.ld.setMemberRoles(viewer.id, [desk.ld.roleIds.bettor]);
    // $80.00 rides on the fund already: a limit of $130.00 leaves $50.00 of room, for one of two $40.00 Confirms.
    await deskCommand(desk, admin, 'fund', 'limits', { daily_loss: '130' }, /Saved/);
    const [s0, s1] = await flows.market();
    const pair = await Promise.all([
      (async () => {
        const t = newTrail();
        const { slip } = await betSlip(desk, t, { user: bettor, sel: s0, stake: 40 });
        return { t, slip, user: bettor };
      })(),
      (async () => {
        const t = newTrail();
        const { slip } = await betSlip(desk, t, { user: viewer, sel: s1, stake: 40 });
        return { t, slip, user: viewer };
      })(),
    ]);
    await Promise.all(pair.map((x) => press(desk, x.t, x.user, x.slip as LocalMessage, /^Confirm$/)));
    const ends = await Promise.all(
      pair.map((x) => messageMatching(desk, x.slip as LocalMessage, /Bet placed ✅|Not placed/, 30_000)),
    );
    expect(ends.filter((m) => /Bet placed ✅/.test(textOf(m)))).toHaveLength(1);
    const refusal = textOf(ends.find((m) => /Not placed/.test(textOf(m))) as LocalMessage);
    expect(refusal).toContain('would take the fund past its daily loss limit of $130.00');
    expect((await betsAt(desk, s0.epk)).length).toBe(1);

    // Ten Confirms of $2.00 each together with $10.00 of room left: five placed, five refused.
    const [t0] = await flows.market();
    const slips: Array<{ t: ReturnType<typeof newTrail>; slip: LocalMessage }> = [];
    for (let i = 0; i < 10; i++) {
      const t = newTrail();
      const { slip } = await betSlip(desk, t, { user: bettor, sel: t0, stake: 2 + i / 100 });
      if (!slip) throw new Error('no slip');
      slips.push({ t, slip });
    }
    await Promise.all(slips.map((x) => press(desk, x.t, bettor, x.slip, /^Confirm$/)));
    const tens = await Promise.all(slips.map((x) => messageMatching(desk, x.slip, /Bet placed ✅|Not placed/, 30_000)));
    const placedStakes = (await betsAt(desk, t0.epk)).map((b) => cents(Number((b.bet as { stake?: number }).stake)));
    expect(tens.filter((m) => /Bet placed ✅/.test(textOf(m))).length).toBe(placedStakes.length);
    // At risk on the fund: $80.00, the $40.00 bet and the ten's, never past the $130.00 limit.
    expect(12_000 + placedStakes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(13_000);
    expect(placedStakes.length).toBeGreaterThanOrEqual(4);
  });

  it("3: a proposal's last approval and a Confirm pressed together never both take the daily loss limit's last room", async () => {
    const { admin, bettor, viewer } = desk.ld.users;
    const [risk] = await desk.bot.store.query<{ c: number | null }>(
      "SELECT SUM(stake_cents) AS c FROM bet_records WHERE fund_decided = 1 AND state IN ('sending', 'submitted', 'unknown', 'placed')",
    );
    const atRisk = Number(risk?.c ?? 0);
    // $5.00 of room: a $3.00 Confirm and a $4.00 proposal each fit, never both.
    await deskCommand(desk, admin, 'fund', 'limits', { daily_loss: String((atRisk + 500) / 100) }, /Saved/);
    await deskCommand(desk, admin, 'settings', 'approvals', { t1: 3, t2: 1_000 }, /Saved/);
    const [s0, s1] = await flows.market();
    const proposal = await proposeBet(desk, viewer, s1, 4);
    const t = newTrail();
    const { slip } = await betSlip(desk, t, { user: bettor, sel: s0, stake: 3 });
    if (!slip) throw new Error('no slip');
    const [approve] = await Promise.all([
      press(desk, newTrail(), admin, desk.ld.message(proposal.id) ?? proposal, /^Approve$/),
      press(desk, t, bettor, slip, /^Confirm$/),
    ]);
    await until(
      'both answers',
      async () => {
        const slipDone = /Bet placed ✅|Not placed/.test(textOf(desk.ld.message(slip.id)));
        const approved = approve.responses().some((m) => m.visibleTo === admin.id && textOf(m) !== '');
        return slipDone && approved ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
    // What the sandbox holds: exactly one of the two.
    await new Promise((r) => setTimeout(r, 1_000));
    // (The two are the two sides of one event.)
    expect((await betsAt(desk, s0.epk)).length).toBe(1);
    expect(
      await desk.bot.store.query("SELECT 1 AS x FROM bet_records WHERE epk = ? AND state = 'placed'", s0.epk),
    ).toHaveLength(1);
    await deskCommand(desk, admin, 'settings', 'approvals', { t1: 100_000, t2: 100_000 }, /Saved/);
  }, 90_000);

  it('4: an account whose fund money all rides on open bets cannot leave the fund, and says what is still there', {
    timeout: 90_000,
  }, async () => {
    const { admin, bettor } = desk.ld.users;
    await deskCommand(desk, admin, 'fund', 'limits', { daily_loss: 'off' }, /No risk limit is set/);
    // The rest of the fund's money in bookie_a on more bets (at most $100.00 each, the per-bet limit): its cash, less
    // the float, is then nothing.
    const [row] = await desk.bot.store.query<{ float_cents: number }>('SELECT float_cents FROM fund_accounts');
    const fundCash = async () => (await cashOf(gw, SESSION.bookie_a)) - Number(row?.float_cents);
    for (let left = await fundCash(); left > 0; left = await fundCash()) {
      const [sel] = await flows.market();
      expect(textOf(await confirm(desk, bettor, sel, Math.min(left, 10_000) / 100))).toMatch(/Bet placed ✅/);
      await until('the bet placed', async () => (await betsAt(desk, sel.epk)).length === 1, { timeoutMs: 20_000 });
    }
    expect(await fundCash()).toBe(0);
    const said = await deskCommand(
      desk,
      admin,
      'fund',
      'accounts',
      { action: 'remove', session: SESSION.bookie_a },
      /./,
    );
    expect(said).toMatch(/^bookie_a\/\S+ still has \d+ open fund bets of the fund's/);
    expect((await desk.bot.store.query('SELECT bookie FROM fund_accounts')).length).toBe(1);
  });
});

/** An event bookie_c takes bets on (it takes no basketball), with a head-to-head market of two bettable sides. */
async function bookieCMarket(desk: Desk, gw: GatewayClient): Promise<[BettableSelection, BettableSelection]> {
  const soon = Date.parse((await desk.control.state()).now) + 3 * 3_600_000;
  for (const league of ['nfl', 'soccer', 'afl', 'nrl', 'nhl', 'mlb']) {
    const page = await gw.events.list({ league, status: 'prematch', limit: 50 });
    for (const e of page.data) {
      if (!e.books?.includes('bookie_c') || Date.parse(e.start_time) < soon) continue;
      const m = await headToHeadAt(gw, e.event_id, 'bookie_c');
      if (m) return sidesOf(e, m, 'bookie_c');
    }
  }
  throw new Error('no head-to-head market at bookie_c');
}

describe('a bet placed before its account joined the fund stays outside NAV', () => {
  let desk: Desk;
  let gw: GatewayClient;

  beforeAll(async () => {
    desk = await startDesk({ env: { SETTLEMENT_INTERVAL_SECONDS: '1', FUND_CHECK_SECONDS: '3600' } });
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
  }, 90_000);
  afterAll(async () => {
    await gw?.close();
    await desk?.close();
  });

  it('1: its return goes to the float it joined with, never into NAV', async () => {
    const { admin, bettor } = desk.ld.users;
    // Both sides of one market at bookie_c, before any fund: one of the two wins.
    const sides = await bookieCMarket(desk, gw);
    for (const sel of sides) expect(textOf(await confirm(desk, bettor, sel, 20))).toMatch(/Bet placed ✅/);
    // The fund opens on bookie_a; then bookie_c joins with all its cash a float.
    const flows = fundFlows(desk, gw, SESSION.bookie_a);
    expect(await flows.openWithNav(10_000)).toMatch(/Struck/);
    const floatDollars = (await cashOf(gw, SESSION.bookie_c)) / 100;
    await deskCommand(
      desk,
      admin,
      'fund',
      'accounts',
      { action: 'add', session: SESSION.bookie_c, float: floatDollars },
      /Added/,
    );
    expect(await strikeFund(desk)).toMatch(/Struck/);
    const navBefore = await lastNav(desk);
    const floatBefore = cents(floatDollars);

    await desk.control.settle(sides[0].epk);
    await until(
      'the desk to settle both bets',
      async () => (await desk.bot.store.query("SELECT 1 AS x FROM bet_records WHERE state = 'placed'")).length === 0,
      { timeoutMs: 30_000 },
    );
    // What the two bets paid back into bookie_c, from the book's own history.
    const ids = new Set(
      (
        await desk.bot.store.query<{ bet_id: string }>('SELECT bet_id FROM bet_records WHERE bookie = ?', 'bookie_c')
      ).map((r) => r.bet_id),
    );
    const paid = (await historyOf(gw, SESSION.bookie_c))
      .filter((t) => ids.has(t.id))
      .reduce((a, t) => a + Math.max(0, cents(t.stake) + cents(t.pnl)), 0);
    expect(paid).toBeGreaterThan(0);

    expect(await strikeFund(desk)).toMatch(/Struck/);
    expect(await lastNav(desk)).toBe(navBefore);
    const [c] = await desk.bot.store.query<{ float_cents: number }>(
      'SELECT float_cents FROM fund_accounts WHERE bookie = ?',
      'bookie_c',
    );
    expect(Number(c?.float_cents)).toBe(floatBefore + paid);

    // /fund report with the fund's one settled bet (issue 45, item 5): a chart, and no footer pointing at itself.
    const [one] = await flows.market();
    expect(textOf(await confirm(desk, bettor, one, 5))).toMatch(/Bet placed ✅/);
    await desk.control.settle(one.epk);
    await until(
      'the fund bet settled',
      async () => (await desk.bot.store.query("SELECT 1 AS x FROM bet_records WHERE state = 'placed'")).length === 0,
      { timeoutMs: 30_000 },
    );
    const report = await fundReport(desk, admin);
    expect(report.attachments.map((x) => x.content_type)).toEqual(['image/png']);
    expect(textOf(report)).not.toContain('/fund report.');
    expect(textOf(report)).toContain('2 settled bets outside the fund');
    expect(textOf(report)).toContain("2 bets placed before their account joined the fund (its float's money)");
  });
});
