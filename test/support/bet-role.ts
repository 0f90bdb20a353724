import type { LocalDiscord } from '../../src/local-discord/index.js';

/**
 * Betting is closed until a bet role is set: the admin names the fixture's Bettor role with /settings bet-role,
 * as on a real server, so `ld.users.bettor` may bet and `ld.users.viewer` may not.
 */
export async function setBetRole(ld: LocalDiscord, roleId: string = ld.roleIds.bettor, timeoutMs = 15_000) {
  const ix = await ld.sendCommand({
    user: ld.users.admin,
    channelId: ld.channelIds.bets,
    name: 'settings',
    subcommand: 'bet-role',
    options: { role: roleId },
  });
  await ix.acknowledged;
  const deadline = Date.now() + timeoutMs;
  while (!ix.responses().some((m) => (m.content ?? '').includes('Saved'))) {
    if (Date.now() > deadline) throw new Error('the bot did not save the bet role within the deadline');
    await new Promise((r) => setTimeout(r, 20));
  }
}
