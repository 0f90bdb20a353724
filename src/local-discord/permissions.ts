/** Permission bits the fixtures use (Discord's values). */
export const Permission = {
  Administrator: 1n << 3n,
  AddReactions: 1n << 6n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  UseExternalEmojis: 1n << 18n,
  UseApplicationCommands: 1n << 31n,
} as const;

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
  return (bits & Permission.Administrator) !== 0n ? ALL_PERMISSIONS : bits;
}
