import { MessageFlags } from 'discord-api-types/v10';
import type { DiscordMessageLike } from './types.js';

interface WithUser {
  user?: { id?: unknown };
  user_id?: unknown;
}

/**
 * The user an ephemeral message belongs to: the double records it as `visibleTo`; Discord itself names
 * them in the interaction metadata, read as a fallback.
 */
export function ephemeralOwner(message: DiscordMessageLike): string | undefined {
  if (typeof message.visibleTo === 'string') return message.visibleTo;
  const meta = (message.interaction_metadata ?? message.interaction) as WithUser | undefined;
  const id = meta?.user?.id ?? meta?.user_id;
  return typeof id === 'string' ? id : undefined;
}

export function isEphemeral(message: DiscordMessageLike): boolean {
  return ((message.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
}

/** Discord shows an ephemeral message to its user only; everything else to everyone in the channel. */
export function isVisibleTo(message: DiscordMessageLike, userId: string): boolean {
  if (!isEphemeral(message)) return true;
  return ephemeralOwner(message) === userId;
}
