import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setBetRole } from '../support/bet-role.js';
import { type BettableSelection, betSlip, newTrail, pickEvent, SlipRefusedError } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/** A server that has not named a bet role: only Manage Server may bet, and every refusal says how to open it. */
describe('betting is closed by default', () => {
  let desk: Desk;
  let sel: BettableSelection;

  beforeAll(async () => {
    desk = await startDesk({ betRole: false });
    sel = await pickEvent(desk, 'nba', 0);
  }, 60_000);
  afterAll(() => desk?.close());

  const refusal = (user: Parameters<typeof betSlip>[2]['user']) =>
    betSlip(desk, newTrail(), { user, sel, stake: 2 }).then(
      () => '',
      (err: unknown) => (err instanceof SlipRefusedError ? err.reply : Promise.reject(err)),
    );

  it('refuses the viewer with no bet role configured, saying only Manage Server can bet until one is set', async () => {
    const reply = await refusal(desk.ld.users.viewer);
    expect(reply).toMatch(/closed on this server until an admin sets a bet role with \/settings bet-role/);
    expect((await desk.control.state()).bets).toHaveLength(0);
    const logged = desk.logs.lines.filter((l) => l.includes('request refused') && l.includes('Betting is closed'));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0] as string)).toMatchObject({ level: 'info', command: 'bet' });
  });

  it('lets a member with Manage Server build a slip while no bet role is set', async () => {
    const { slip } = await betSlip(desk, newTrail(), { user: desk.ld.users.admin, sel, stake: 2 });
    expect(textOf(slip)).toContain('Bet slip');
  });

  it('shows the bet role as a mention in /settings show once set, and then the viewer is still refused', async () => {
    await setBetRole(desk.ld);
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name: 'settings',
      subcommand: 'show',
      options: {},
    });
    const shown = await until('the settings', () => ix.responses().find((m) => m.embeds.length > 0));
    expect(textOf(shown)).toContain(`<@&${desk.ld.roleIds.bettor}>`);
    const reply = await refusal(desk.ld.users.viewer);
    expect(reply).toContain(`needs the <@&${desk.ld.roleIds.bettor}> role`);
    const { slip } = await betSlip(desk, newTrail(), { user: desk.ld.users.bettor, sel, stake: 2 });
    expect(textOf(slip)).toContain('Bet slip');
  });
});
