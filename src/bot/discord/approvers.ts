import { DiscordAPIError, type Guild, PermissionFlagsBits } from 'discord.js';
import type { Logger } from '../config/logger.js';

/** Discord's code when the application's Server Members Intent is off and the member list is asked for. */
const MISSING_ACCESS = 50001;
const PAGE = 1000;

/**
 * How many members of `guild` may approve a proposal by `proposerId`: not bots, not the proposer, holding Manage
 * Server (Administrator and the owner included) or the approver role. Read from Discord's member list (decision
 * 1781), which needs the Server Members Intent switched on in the Developer Portal; without it (or when the
 * list fails) the count is unknown (undefined) and a warning says why.
 */
export async function countApprovers(
  guild: Guild,
  q: { proposerId: string; approverRoleId: string | undefined },
  logger: Logger,
): Promise<number | undefined> {
  let count = 0;
  let after = '0';
  try {
    for (;;) {
      const page = await guild.members.list({ limit: PAGE, after, cache: false });
      for (const m of page.values()) {
        if (m.user.bot || m.id === q.proposerId) continue;
        const byRole = q.approverRoleId !== undefined && m.roles.cache.has(q.approverRoleId);
        if (byRole || m.permissions.has(PermissionFlagsBits.ManageGuild)) count++;
      }
      if (page.size < PAGE) return count;
      after = page.lastKey() ?? after;
    }
  } catch (err) {
    if (err instanceof DiscordAPIError && err.code === MISSING_ACCESS) {
      logger.warn(
        'cannot count approvers: Discord refused the member list. Switch on Server Members Intent (Developer Portal → Bot → Privileged Gateway Intents) so proposals that could never pass are refused',
        { guildId: guild.id },
      );
      return undefined;
    }
    // Any other failure leaves the count unknown: the proposal is posted as before rather than refused on a guess.
    logger.warn('cannot count approvers: the member list failed', { guildId: guild.id, err });
    return undefined;
  }
}
