import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { messageMatching, newTrail, press } from '../support/flows.js';
import { cashOf, cents, deskCommand, strikeFund } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { lastResponseText, textOf } from '../support/messages.js';
import { driftPrice, pickShared, type Shared } from '../support/shared-event.js';
import { until } from '../support/wait.js';

/** The alpha syndicate's active sessions (the sandbox's fixture accounts). */
const SESSION = {
  bookie_a: '5e55a1fa-0000-4000-8000-00000000000a',
  bookie_c: '5e55a1fa-0000-4000-8000-00000000000c',
};

/**
 * Bets and the fund agree on whose money it is (issue 30, decision 1910): the fund owns bookie_a's account (the
 * bettor's opening bank) and bookie_c's price is the best. A stake the desk routes is the fund's and goes only
 * through the fund's accounts; a bet at a book named outside the fund is sized from the set bank, never the fund's
 * NAV, says so on its slip, and its money stays out of NAV. Each end state is read from the sandbox's own records
 * (the bets it took and through which session, each account's cash) and the desk's strike rows.
 */
describe('with a fund open, a bet is either the fund’s (through its accounts) or plainly outside it', () => {
  let desk: Desk;
  let gw: GatewayClient;
  let shared: Shared;
  let admin: APIUser;
  let bettor: APIUser;

  const betsAt = async (epk: string) =>
    (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(epk));
  const lastNav = async () =>
    Number(
      (
        await desk.bot.store.query<{ nav_after_cents: number }>(
          'SELECT nav_after_cents FROM fund_strikes ORDER BY at DESC LIMIT 1',
        )
      )[0]?.nav_after_cents,
    );

  /** /bet on the shared selection; the public slip, or undefined with the private answer. */
  async function bet(stake: number, bookie?: string): Promise<{ slip?: LocalMessage; said: string }> {
    const handle = await desk.ld.sendCommand({
      user: bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: {
        event: shared.epk,
        market: shared.market,
        selection: shared.slug,
        stake,
        ...(bookie ? { bookie } : {}),
      },
    });
    const isSlip = (m: LocalMessage) => /Bet slip/.test(textOf(m)) && (m.content ?? '').includes(bettor.id);
    return until(
      'the slip or a refusal',
      () => {
        const slip = handle.responses().find(isSlip);
        if (slip) return { slip, said: textOf(slip) };
        const said = lastResponseText(handle);
        return said !== '' && !/posted below/.test(said) ? { said } : undefined;
      },
      { timeoutMs: 30_000 },
    );
  }

  beforeAll(async () => {
    desk = await startDesk();
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    ({ admin, bettor } = desk.ld.users);
    shared = await pickShared(desk);
    // bookie_c's price lengthened by 30%: the best price is at a book outside the fund.
    await driftPrice(desk, shared, 'bookie_c', 1.3);
    await deskCommand(desk, admin, 'settings', 'results-channel', { channel: desk.ld.channelIds.results }, /Saved/);
    // The set bank ($100) sizes bets outside the fund; one bet may stake 10% of the bank it is sized from.
    await deskCommand(desk, admin, 'settings', 'bank', { amount: 100 }, /Saved/);
    await deskCommand(desk, admin, 'settings', 'limits', { per_bet_pct: 10 }, /Saved/);
    await deskCommand(
      desk,
      admin,
      'fund',
      'accounts',
      { action: 'add', session: SESSION.bookie_a, opening_member: bettor.id },
      /Added bookie_a\//,
    );
    expect(await strikeFund(desk)).toMatch(/Struck/);
    // The fund's NAV is bookie_a's cash, far above the set bank: 10% of it is more than $20.
    expect(await lastNav()).toBe(await cashOf(gw, SESSION.bookie_a));
    expect(await lastNav()).toBeGreaterThan(200_00);
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
    await desk?.close();
  });

  it('routes a stake with no book named only among the fund’s accounts, though a book outside has the best price', async () => {
    const { slip, said } = await bet(5);
    if (!slip) throw new Error(`no slip: ${said}`);
    expect(said).toMatch(/Book\nbookie_a/);
    expect(said).toMatch(/Left out: [^\n]*bookie_c \(outside the fund/);
    expect(said).not.toMatch(/Outside the fund:/);
    await press(desk, newTrail(), bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 30_000);
    const bets = await betsAt(shared.epk);
    expect(bets.map((b) => [b.bet.session_id, cents(b.bet.stake)])).toEqual([[SESSION.bookie_a, 5_00]]);
  }, 90_000);

  it('sizes a bet at a book named outside the fund from the set bank, says so on the slip, and keeps it out of NAV', async () => {
    // 10% of the fund's NAV would allow $20; 10% of the set $100 bank does not.
    const refused = await bet(20, 'bookie_c');
    expect(refused.slip).toBeUndefined();
    expect(refused.said).toMatch(/10% of the bank \(\$10\.00\)/);

    const cashCBefore = await cashOf(gw, SESSION.bookie_c);
    const { slip, said } = await bet(5, 'bookie_c');
    if (!slip) throw new Error(`no slip: ${said}`);
    expect(said).toMatch(/Outside the fund: bookie_c\/\w+ is not one of the fund's accounts/);
    await press(desk, newTrail(), bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 30_000);
    const atC = (await betsAt(shared.epk)).filter((b) => b.bet.session_id === SESSION.bookie_c);
    expect(atC.map((b) => cents(b.bet.stake))).toEqual([5_00]);

    expect(await strikeFund(desk)).toMatch(/Struck/);
    // The sandbox's own cash: bookie_c paid the $5 stake; NAV is bookie_a's cash and its one open $5 bet at cost.
    expect(await cashOf(gw, SESSION.bookie_c)).toBe(cashCBefore - 5_00);
    expect(await lastNav()).toBe((await cashOf(gw, SESSION.bookie_a)) + 5_00);
  }, 120_000);
});
