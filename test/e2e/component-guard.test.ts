import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUARD_TEXT } from '../../src/bot/discord/component-guard.js';
import {
  forgedAnswer,
  moneyTrail,
  pickEvent,
  SCOPES,
  type ScopeControl,
  scopeControls,
} from '../support/forged-clicks.js';
import { type Desk, startDesk } from '../support/harness.js';
import { until } from '../support/wait.js';

/**
 * A custom id is text a modified client can send from anywhere. Every component scope is clicked with a real
 * control's id from a second server (where the clicker has Manage Server) and from another message or channel of
 * the syndicate's server: the clicker is told no, and nothing moves (no bet, no ledger entry, no approval).
 */
describe('components answer only where their record lives', () => {
  let desk: Desk;
  let controls: ScopeControl[];

  beforeAll(async () => {
    desk = await startDesk({ webhooks: false });
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name: 'settings',
      subcommand: 'approvals',
      options: { t1: 10, t2: 100 },
    });
    await until('the tiers saved', () => ix.responses().find((m) => /Saved/.test(m.content ?? '')), {
      timeoutMs: 20_000,
    });
    controls = await scopeControls(desk, { sel: await pickEvent(desk, 'nba'), slipStake: 5, proposalStake: 20 });
  }, 120_000);
  afterAll(() => desk?.close());

  it('has a real control for every component scope', () => {
    expect(new Set(controls.map((c) => c.scope))).toEqual(new Set(SCOPES));
  });

  it('refuses every scope clicked from another server by a member with Manage Server there, and nothing moves', async () => {
    const before = await moneyTrail(desk);
    for (const c of controls) {
      const answer = await forgedAnswer(desk, desk.ld.users.viewer, c, { channelId: desk.ld.elsewhere.channelId });
      expect(answer, c.customId).toBe(GUARD_TEXT.guild);
    }
    expect(await moneyTrail(desk)).toBe(before);
  }, 60_000);

  it('refuses a slip or proposal button sent on another message, and a listing control from another channel', async () => {
    const before = await moneyTrail(desk);
    const other = controls.find((c) => c.scope === 'cmp')?.message.id as string;
    for (const c of controls) {
      const answer = c.messageBound
        ? await forgedAnswer(desk, desk.ld.users.admin, c, { channelId: desk.ld.channelIds.bets, messageId: other })
        : await forgedAnswer(desk, desk.ld.users.admin, c, { channelId: desk.ld.channelIds.results });
      expect(answer, c.customId).toBe(c.messageBound ? GUARD_TEXT.message : GUARD_TEXT.channel);
    }
    expect(await moneyTrail(desk)).toBe(before);
  }, 60_000);
});
