// One door for who may do what: the member's roles and Manage Server, read the same way for every command and
// control, against the roles a server set in /settings. Handlers and commands ask here; none reads roles itself.
import { PermissionFlagsBits } from 'discord.js';
import type { GuildSettings } from '../guild-settings.js';

/** Who is asking, as an interaction carries it: the member (roles as ids, or discord.js's cache) and permissions. */
export interface Asker {
  user: { id: string };
  member: unknown;
  memberPermissions?: { has(bit: bigint): boolean } | null;
}

/** The ids of the member's roles in the server (none outside one). */
export function memberRoles(asker: Pick<Asker, 'member'>): string[] {
  const member = asker.member as { roles?: string[] | { cache?: Map<string, unknown> } } | null;
  return Array.isArray(member?.roles) ? member.roles : [...(member?.roles?.cache?.keys() ?? [])];
}

/** An admin: Manage Server. */
export function isAdmin(asker: Pick<Asker, 'memberPermissions'>): boolean {
  return asker.memberPermissions?.has(PermissionFlagsBits.ManageGuild) === true;
}

const hasAnyRole = (asker: Pick<Asker, 'member'>, roleIds: readonly (string | undefined)[]): boolean => {
  const roles = memberRoles(asker);
  return roleIds.some((r) => r !== undefined && roles.includes(r));
};

/** May bet: an admin, or a member with the bet role (closed by default: with no role set, admins only). */
export function mayBet(asker: Asker, settings: Pick<GuildSettings, 'betRoleId'>): boolean {
  return isAdmin(asker) || hasAnyRole(asker, [settings.betRoleId]);
}

/** A treasurer of the fund: an admin, or a member with the treasurer role set in /settings fund. */
export function isTreasurer(asker: Asker, settings: Pick<GuildSettings, 'fundTreasurerRoleId'>): boolean {
  return isAdmin(asker) || hasAnyRole(asker, [settings.fundTreasurerRoleId]);
}

/** A checker of a cash-out above the tier: an admin, a treasurer, or a member with the approver role. */
export function isChecker(
  asker: Asker,
  settings: Pick<GuildSettings, 'fundTreasurerRoleId' | 'approverRoleId'>,
): boolean {
  return isAdmin(asker) || hasAnyRole(asker, [settings.fundTreasurerRoleId, settings.approverRoleId]);
}

/** The member as the approval rules weigh them: id, roles and Manage Server. */
export function memberOf(asker: Asker): { id: string; roles: string[]; manager: boolean } {
  return { id: asker.user.id, roles: memberRoles(asker), manager: isAdmin(asker) };
}
