import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

describe('approval tiers at Confirm', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await startDesk({ webhooks: false });
  }, 60_000);
  afterAll(() => desk?.close());

  async function tiers(options: Record<string, number>) {
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name: 'settings',
      subcommand: 'approvals',
      options,
    });
    await until('the tiers saved', () => ix.responses().find((m) => /Saved/.test(m.content ?? '')), {
      timeoutMs: 20_000,
    });
  }

  it('refuses a slip made under t1 once an admin lowered t1 below its stake, says how to propose it, places nothing', async () => {
    await tiers({ t1: 50, t2: 100 });
    const sel = await pickEvent(desk, 'nba');
    const { slip } = await betSlip(desk, newTrail(), { user: desk.ld.users.bettor, sel, stake: 30 });
    await tiers({ t1: 5, t2: 100 });
    const bets = (await desk.control.state()).bets.length;
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    const closed = await messageMatching(desk, slip, /Bet not placed/, 20_000);
    expect(textOf(closed)).toMatch(/This stake now needs one approval/);
    expect(textOf(closed)).toMatch(/Run \/bet again with the same stake to propose it for approval/);
    expect(closed.components ?? []).toEqual([]);
    expect((await desk.control.state()).bets.length).toBe(bets);
  });

  it("reads the server's settings once per Confirm: the gate's reading goes on to the placement", async () => {
    await tiers({ t1: 50, t2: 100 });
    const sel = await pickEvent(desk, 'nba');
    const { slip } = await betSlip(desk, newTrail(), { user: desk.ld.users.bettor, sel, stake: 5 });
    const reads = vi.spyOn(desk.bot.store.kv, 'get');
    try {
      await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet placed/, 20_000);
      const settingsReads = reads.mock.calls.filter(([key]) => String(key) === `guild:${desk.ld.guildId}`);
      expect(settingsReads).toHaveLength(1);
    } finally {
      reads.mockRestore();
    }
  });
});
