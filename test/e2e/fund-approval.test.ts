import type { APIUser } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { findControl, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/**
 * A cash-out above the tier through the local Discord: the member's request is posted with Approve and Reject; the
 * member cannot approve their own, a member who is no checker cannot either, and the treasurer's approval makes it
 * wait for the next strike. Only a treasurer records contributions. Then /fund nav draws the strikes as a PNG and
 * /fund export attaches the fund as CSV.
 */
describe('the fund through the local Discord: a cash-out’s checker, the NAV chart, the export', () => {
  let desk: Desk;

  beforeAll(async () => {
    desk = await startDesk();
  }, 60_000);
  afterAll(() => desk?.close());

  async function command(
    user: APIUser,
    subcommand: string,
    options: Record<string, string | number | boolean>,
    done: RegExp,
    name = 'fund',
  ) {
    const ix = await desk.ld.sendCommand({ user, channelId: desk.ld.channelIds.bets, name, subcommand, options });
    return until(`/${name} ${subcommand} to answer ${done}`, () => ix.responses().find((m) => done.test(textOf(m))), {
      timeoutMs: 20_000,
      seen: () => ix.responses().map(textOf).join(' | '),
    });
  }

  async function click(user: APIUser, message: LocalMessage, label: RegExp, done: RegExp): Promise<string> {
    const control = findControl(message, label);
    if (!control) throw new Error(`no ${label} on ${textOf(message)}`);
    const ix = await desk.ld.clickButton({ user, message: message.id, customId: control.customId });
    const reply = await until(`the answer to ${label}`, () => ix.responses().find((m) => done.test(textOf(m))), {
      timeoutMs: 20_000,
      seen: () => ix.responses().map(textOf).join(' | '),
    });
    return textOf(reply);
  }

  it('refuses the member and a non-checker, and takes the treasurer’s approval', async () => {
    const { admin, bettor, viewer } = desk.ld.users;
    const gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const session = (await gw.sessions.list()).find((s) => s.bookie === 'bookie_a' && s.active)?.session_id ?? '';
    await gw.close();

    await command(viewer, 'contribute', { member: viewer.id, amount: 10, session }, /Only a treasurer can do that/);
    await command(admin, 'accounts', { action: 'add', session, opening_member: bettor.id }, /Added bookie_a/);
    await command(admin, 'strike', {}, /Struck/);
    // Below the tier a cash-out is the member's own business: the answer is private, and it can be cancelled.
    const mine = await command(bettor, 'cashout', { amount: 10 }, /asks to cash out \$10\.00/);
    expect(mine.visibleTo).toBe(bettor.id);
    const [asked] = await desk.bot.store.query<{ cashout_id: string }>('SELECT cashout_id FROM fund_cashouts');
    await command(admin, 'cancel', { id: String(asked?.cashout_id), reason: 'asked by mistake' }, /Cancelled/);
    await command(admin, 'fund', { cashout_tier: 1 }, /Saved/, 'settings');

    // Above it the ask is posted in the channel, where a checker approves it.
    const request = await command(bettor, 'cashout', { amount: 15 }, /asks to cash out \$15\.00/);
    expect(request.visibleTo).toBeNull();
    expect(findControl(request, /^Approve$/)).toBeDefined();
    expect(await click(bettor, request, /^Approve$/, /cannot approve it/)).toMatch(/You asked for this cash-out/);
    expect(await click(viewer, request, /^Approve$/, /Only a treasurer or an approver/)).toBeTruthy();
    expect(await click(admin, request, /^Approve$/, /Approved: it is redeemed at the next strike/)).toBeTruthy();
    const edited = await until('the request to show its approval', () => {
      const m = desk.ld.message(request.id);
      return m && /Approved by/.test(textOf(m)) ? m : undefined;
    });
    expect(findControl(edited, /^Approve$/)).toBeUndefined();
    const [row] = await desk.bot.store.query<{ state: string; approved_by: string }>(
      "SELECT state, approved_by FROM fund_cashouts WHERE state <> 'cancelled'",
    );
    expect(row).toEqual({ state: 'pending', approved_by: admin.id });
  });

  it("answers /fund withdrawal's choices with why there is none when no withdrawal is unresolved", async () => {
    const { ld } = desk;
    const choices = await ld.autocomplete({
      user: ld.users.admin,
      channelId: ld.channelIds.bets,
      name: 'fund',
      subcommand: 'withdrawal',
      options: { attempt: '' },
      focused: 'attempt',
    });
    expect(choices).toEqual([{ name: expect.stringMatching(/^no cash-out withdrawal is unresolved/), value: 'none' }]);
  });

  it('draws NAV per unit as a PNG and exports the fund as CSV', async () => {
    const { admin } = desk.ld.users;
    const nav = await command(admin, 'nav', {}, /strike.*a unit, NAV/);
    const chart = nav.attachments.find((a) => a.filename === 'fund-nav.png');
    expect(chart?.content_type).toBe('image/png');
    const png = Buffer.from(await (await fetch(chart!.url)).arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const exported = await command(admin, 'export', {}, /contributions, cash-outs and strikes/);
    const csv = await (await fetch(exported.attachments.find((a) => a.filename === 'fund.csv')!.url)).text();
    expect(csv.split('\r\n')[0]).toBe(
      'kind,id,at,member_id,member_name,amount,units,state,strike_id,dealing,price,nav_before,nav_after,fee,account,reference,note',
    );
    expect(csv).toMatch(/^strike,.*,struck,/m);
    expect(csv).toMatch(/^cashout,.*,pending,/m);
  });
});
