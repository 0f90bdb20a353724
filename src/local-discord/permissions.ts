import { PermissionFlagsBits } from 'discord-api-types/v10';

/** Every permission bit Discord defines today (through bit 50): what an administrator is granted. */
export const ALL_PERMISSIONS = (1n << 51n) - 1n;

/** A member's guild permissions: the union of @everyone and their roles; ADMINISTRATOR implies all. */
export function memberPermissions(
  guildId: string,
  roleIds: readonly string[],
  roles: readonly { id: string; permissions: string }[],
): bigint {
  let bits = 0n;
  for (const role of roles) {
    // The @everyone role shares the guild's id and applies to every member.
    if (role.id === guildId || roleIds.includes(role.id)) bits |= BigInt(role.permissions);
  }
  return (bits & PermissionFlagsBits.Administrator) !== 0n ? ALL_PERMISSIONS : bits;
}
