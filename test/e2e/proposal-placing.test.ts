import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/** The last approval places the proposal even when the bot has not yet learnt its message's id. */
describe('a proposal approved before its message id is stored', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await startDesk({ webhooks: false, proxy: true });
    // Vic is an admin too, so a stake above t2 has the two approvers it needs besides the proposer.
    desk.ld.setMemberRoles(desk.ld.users.viewer.id, [desk.ld.roleIds.admin]);
    await setTiers(5, 100);
  }, 60_000);
  afterAll(() => desk?.close());

  /** An admin sets the approval tiers (in dollars) and waits for them to be saved. */
  async function setTiers(t1: number, t2: number): Promise<void> {
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name: 'settings',
      subcommand: 'approvals',
      options: { t1, t2 },
    });
    await until('the tiers saved', () => ix.responses().find((m) => /Saved/.test(m.content ?? '')), {
      timeoutMs: 20_000,
    });
  }

  /**
   * The bettor bets $20 on `sel`; the proposal is a follow-up (POST /webhooks/{app}/{token}), posted at once with
   * its answer held 3 s, so the desk learns the message's id late. Returns the proposal once it is in the channel.
   */
  async function proposeWithLateAnswer(
    sel: Awaited<ReturnType<typeof pickEvent>>,
    title: RegExp,
    answerDelayMs = 3_000,
  ): Promise<LocalMessage> {
    desk.ld.faults.inject({ method: 'POST', path: /^\/webhooks\/\d+\/[^/]+$/, answerDelayMs });
    await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: sel.epk, bookie: sel.bookie, market: sel.market, selection: sel.marketRef, stake: 20 },
    });
    return until(
      'the proposal',
      () =>
        desk.ld
          .messages(desk.ld.channelIds.bets)
          .find((m) => m.visibleTo === null && title.test(textOf(m)) && textOf(m).includes(sel.label)),
      { timeoutMs: 20_000, everyMs: 10 },
    );
  }

  it('is placed once by a quick approver while the follow-up answer is 3 s late, and its message shows the bet', async () => {
    const sel = await pickEvent(desk, 'nba', 1);
    const started = Date.now();
    const proposal = await proposeWithLateAnswer(sel, /Bet proposal/);
    const stored = await desk.bot.store.query<{ message_id: string | null }>('SELECT message_id FROM proposals');
    expect(stored.map((r) => r.message_id)).toEqual([null]);
    const handle = await press(desk, newTrail(), desk.ld.users.admin, proposal, /^Approve$/);
    const answer = await until('the approver’s answer', () =>
      handle.responses().find((m) => m.visibleTo === desk.ld.users.admin.id && textOf(m) !== ''),
    );
    expect(Date.now() - started).toBeLessThan(3_000 + 2_000);
    expect(textOf(answer)).toMatch(/that was the last approval, the bet is placed/);
    await messageMatching(desk, proposal, /Bet placed ✅/, 30_000);
    const bets = (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(sel.epk));
    expect(bets).toHaveLength(1);
    const states = await desk.bot.store.query<{ state: string }>('SELECT state FROM proposals');
    expect(states.map((r) => r.state)).toEqual(['placed']);
  });

  it('shows a quick first approval on the proposal once the late follow-up answer gives the desk its message', async () => {
    // Above t2 two approvals are needed, so the first one only redraws the proposal.
    await setTiers(5, 10);
    const sel = await pickEvent(desk, 'nba', 2);
    const proposal = await proposeWithLateAnswer(sel, /Bet proposal: 2 more/);
    const handle = await press(desk, newTrail(), desk.ld.users.admin, proposal, /^Approve$/);
    const answer = await until('the approver’s answer', () =>
      handle.responses().find((m) => m.visibleTo === desk.ld.users.admin.id && textOf(m) !== ''),
    );
    expect(textOf(answer)).toMatch(/Approved\. 1 more approval needed/);
    await messageMatching(desk, proposal, /Bet proposal: 1 more approval needed/, 15_000);
  });
  it('shows a first approval whose price check ends after the late follow-up answer on the proposal', async () => {
    await setTiers(5, 10);
    const sel = await pickEvent(desk, 'nba', 3);
    const proxy = desk.proxy as NonNullable<Desk['proxy']>;
    const proposal = await proposeWithLateAnswer(sel, /Bet proposal: 2 more/, 1_000);
    // The approval reads the proposal before its message id is stored (the answer is held 1 s); its price check's
    // result (polled) is held until the id is stored, so the approval is written after: only a read after the write
    // can draw it.
    proxy.hold('/v3/price_check');
    try {
      const handle = await press(desk, newTrail(), desk.ld.users.admin, proposal, /^Approve$/);
      await until('the approval’s price check', () => proxy.heldFor('/v3/price_check') > 0 || undefined);
      await until('the proposal’s message id stored', async () => {
        const rows = await desk.bot.store.query<{ message_id: string | null }>('SELECT message_id FROM proposals');
        return rows.some((r) => r.message_id === proposal.id) || undefined;
      });
      proxy.release();
      const answer = await until('the approver’s answer', () =>
        handle.responses().find((m) => m.visibleTo === desk.ld.users.admin.id && textOf(m) !== ''),
      );
      expect(textOf(answer)).toMatch(/Approved\. 1 more approval needed/);
    } finally {
      proxy.release();
    }
    await messageMatching(desk, proposal, /Bet proposal: 1 more approval needed/, 15_000);
  });
});
