import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainStaged } from '../../src/bot/ledger/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { type BettableSelection, messageMatching, newTrail, pickEvent, press, steadyPrices } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/**
 * Maker-checker through the local Discord: stakes above t1 become proposals that approvers (here the Bettor role
 * and Manage Server) approve; the proposer never can, one member counts once, the price is checked again at
 * each approval, and proposals expire.
 */
describe('approvals', () => {
  let desk: Desk;
  let sels: BettableSelection[];

  beforeAll(async () => {
    desk = await startDesk({ webhooks: true });
    sels = [await pickEvent(desk, 'nba', 3), await pickEvent(desk, 'nba', 4), await pickEvent(desk, 'nba', 5)];
    // Vic is made a Bettor by the admin, so the Bettor role has two members besides the admin.
    desk.ld.setMemberRoles(desk.ld.users.viewer.id, [desk.ld.roleIds.bettor]);
    await settings({ t1: 5, t2: 10, approver_role: desk.ld.roleIds.bettor });
  }, 60_000);
  afterAll(() => desk?.close());

  async function settings(options: Record<string, string | number>) {
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name: 'settings',
      subcommand: 'approvals',
      options,
    });
    await until('the settings saved', () => ix.responses().find((m) => /Saved/.test(m.content ?? '')), {
      timeoutMs: 20_000,
    });
  }

  /** Presses Approve or Reject as `user`; resolves with the private answer the clicker sees. */
  async function click(user: keyof Desk['ld']['users'], proposal: LocalMessage, label: RegExp): Promise<string> {
    const u = desk.ld.users[user];
    const handle = await press(desk, newTrail(), u, desk.ld.message(proposal.id) ?? proposal, label);
    const reply = await until(
      `${user}'s answer`,
      () => handle.responses().find((m) => m.visibleTo === u.id && textOf(m) !== ''),
      { timeoutMs: 20_000 },
    );
    return textOf(reply);
  }

  /** /bet above t1: the public proposal (the bot posts it instead of a slip). */
  async function propose(sel: BettableSelection, stake: number): Promise<LocalMessage> {
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: sel.epk, bookie: sel.bookie, market: sel.market, selection: sel.marketRef, stake },
    });
    return until(
      'the proposal',
      () => handle.responses().find((m) => m.visibleTo === null && /Bet proposal/.test(textOf(m))),
      { timeoutMs: 20_000 },
    );
  }

  const betsAt = async (epk: string) =>
    (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(epk));

  it('places a stake above t2 once, after two different approvers; the proposer and a second click do not count', async () => {
    const sel = sels[0]!;
    const proposal = await propose(sel, 12);
    expect(textOf(proposal)).toMatch(/Bet proposal: 2 more approvals needed/);
    expect(textOf(proposal)).toMatch(/Approve/);
    expect(textOf(proposal)).not.toMatch(/^Confirm$/m);

    expect(await click('bettor', proposal, /^Approve$/)).toBe(
      'You proposed this bet, so you cannot approve it: another approver must. You may Reject it to withdraw it.',
    );
    expect(await click('admin', proposal, /^Approve$/)).toMatch(/Approved\. 1 more approval needed/);
    await messageMatching(desk, proposal, /1 more approval needed/);
    expect(await click('admin', proposal, /^Approve$/)).toMatch(/already approved this\. Each member counts once/);
    expect(await betsAt(sel.epk)).toHaveLength(0);

    expect(await click('viewer', proposal, /^Approve$/)).toMatch(/last approval/);
    const placed = await messageMatching(desk, proposal, /Bet placed ✅/, 20_000);
    expect(placed.components ?? []).toEqual([]);
    // The receipt says who approved it, in the order they did.
    expect(textOf(placed)).toContain(`Approved by\n<@${desk.ld.users.admin.id}>, <@${desk.ld.users.viewer.id}>`);
    expect(await betsAt(sel.epk)).toHaveLength(1);
    await chainStaged(desk.bot.store); // as every read of the ledger does (decision 2131)
    const kinds = (
      await desk.bot.store.query<{ kind: string; actor: string | null }>('SELECT kind, actor FROM ledger ORDER BY seq')
    ).filter((r) => r.kind !== 'limit_change');
    expect(kinds.slice(0, 4)).toEqual([
      { kind: 'proposal', actor: desk.ld.users.bettor.id },
      { kind: 'approval', actor: desk.ld.users.admin.id },
      { kind: 'approval', actor: desk.ld.users.viewer.id },
      { kind: 'hold', actor: desk.ld.users.bettor.id },
    ]);
  });

  it('lapses an approval when the sandbox moved the price, shows old → new, and places at the new price when approved again', async () => {
    // The drift and the 11 s below must be the only moves between the proposal and the placement.
    await steadyPrices(desk, 3 * 60_000);
    const sel = sels[1]!;
    const proposal = await propose(sel, 7);
    expect(textOf(proposal)).toMatch(/Bet proposal: 1 more approval needed/);
    const res = await fetch(`${desk.sandbox.url}/_sandbox/world/drift`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ factor: 0.8, bookie: sel.bookie, epk: sel.epk }),
    });
    expect(res.ok).toBe(true);
    // A price read under 10 s ago comes back from the gateway's fast path: move past it.
    await desk.control.advance(11_000);
    expect(await click('admin', proposal, /^Approve$/)).toMatch(/Not counted: the price moved \d+\.\d+ → \d+\.\d+/);
    const moved = await messageMatching(desk, proposal, /The price moved from \d+\.\d+ to \d+\.\d+/);
    expect(textOf(moved)).toMatch(/approvals so far lapsed/);
    expect(await betsAt(sel.epk)).toHaveLength(0);
    expect(await click('admin', proposal, /^Approve$/)).toMatch(/last approval/);
    await messageMatching(desk, proposal, /Bet placed ✅/, 20_000);
    expect(await betsAt(sel.epk)).toHaveLength(1);
  });

  it('reminds approvers at half-time, then expires an unapproved proposal and releases its hold', async () => {
    await settings({ expiry_minutes: 0.25 });
    const sel = sels[2]!;
    const proposal = await propose(sel, 8);
    const reminder = await desk.ld.waitForMessage(
      desk.ld.channelIds.bets,
      (m) => /^Reminder for <@&/.test(m.content ?? '') && (m.content ?? '').includes(desk.ld.users.bettor.id),
      20_000,
    );
    expect(reminder.content).toContain(`<@&${desk.ld.roleIds.bettor}>`);
    const expired = await messageMatching(desk, proposal, /Bet proposal expired/, 30_000);
    expect(textOf(expired)).toMatch(/nothing was placed and the hold is released/);
    expect(expired.components ?? []).toEqual([]);
    const [row] = await desk.bot.store.query<{ state: string }>(
      'SELECT state FROM proposals WHERE epk = ? ORDER BY created_at DESC LIMIT 1',
      sel.epk,
    );
    expect(row?.state).toBe('expired');
    expect(await click('admin', proposal, /^Approve$/).catch((e: Error) => e.message)).toMatch(
      /no button|expired|closed/i,
    );
    expect(await betsAt(sel.epk)).toHaveLength(0);
  }, 60_000);

  it('tells a proposer without the approver role that they proposed it, and that Reject withdraws it', async () => {
    await settings({ approver_role: desk.ld.roleIds.admin, expiry_minutes: 10 });
    const proposal = await propose(sels[0]!, 6);
    expect(await click('bettor', proposal, /^Approve$/)).toBe(
      'You proposed this bet, so you cannot approve it: another approver must. You may Reject it to withdraw it.',
    );
    const logged = desk.logs.lines.filter((l) => l.includes('request refused') && l.includes('You proposed this bet'));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((l) => (JSON.parse(l) as { level: string }).level === 'info')).toBe(true);
    expect(await click('bettor', proposal, /^Reject$/)).toMatch(/Rejected\. Nothing was placed\./);
  });

  /** /bet above t1 as the bettor: the private answer, once the desk has said whether it proposed it. */
  async function tryPropose(sel: BettableSelection, stake: number): Promise<string> {
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: sel.epk, bookie: sel.bookie, market: sel.market, selection: sel.marketRef, stake },
    });
    const answer = await until(
      'the answer',
      () =>
        handle
          .responses()
          .find((m) => m.visibleTo === desk.ld.users.bettor.id && /Not proposed|proposal is posted/.test(textOf(m))),
      { timeoutMs: 20_000 },
    );
    return textOf(answer);
  }

  it('refuses a stake above t2 when the server has one approver besides the proposer, saying what to do', async () => {
    // Approvers are the Admin role or Manage Server: Ada alone (Vic holds only the Bettor role).
    await settings({ t1: 5, t2: 10, approver_role: desk.ld.roleIds.admin });
    const before = (await desk.bot.store.query('SELECT proposal_id FROM proposals')).length;
    expect(await tryPropose(sels[2]!, 12)).toBe(
      `Not proposed: a $12.00 stake needs 2 approvals from members with the <@&${desk.ld.roleIds.admin}> role or Manage Server, not counting you, and this server has only 1, so it could never pass. Lower the stake to $10.00 or less (one approval), or ask an admin to give another member Manage Server or name an approver role (/settings approvals approver_role:), or to raise the tiers (/settings approvals t1: t2:).`,
    );
    expect(await desk.bot.store.query('SELECT proposal_id FROM proposals')).toHaveLength(before);
  });

  it('proposes the same stake once a second member may approve it', async () => {
    await settings({ t1: 5, t2: 10, approver_role: desk.ld.roleIds.admin });
    desk.ld.setMemberRoles(desk.ld.users.viewer.id, [desk.ld.roleIds.admin]);
    try {
      expect(await tryPropose(sels[2]!, 12)).toBe(
        'Your stake needs 2 approvals: the proposal is posted below for approvers.',
      );
    } finally {
      desk.ld.setMemberRoles(desk.ld.users.viewer.id, [desk.ld.roleIds.bettor]);
    }
  });

  it('proposes as before, and warns how to fix it, when Discord refuses the member list (Server Members Intent off)', async () => {
    await settings({ t1: 5, t2: 10, approver_role: desk.ld.roleIds.admin });
    desk.ld.setServerMembersIntent(false);
    try {
      expect(await tryPropose(sels[2]!, 12)).toBe(
        'Your stake needs 2 approvals: the proposal is posted below for approvers.',
      );
      expect(desk.logs.lines.some((l) => l.includes('Switch on Server Members Intent'))).toBe(true);
    } finally {
      desk.ld.setServerMembersIntent(true);
    }
  });
});
