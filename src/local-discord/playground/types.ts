import type { LocalDiscord } from '../local-discord.js';

/** The slice of the local Discord the playground drives (its in-process API, nothing internal). */
export type PlaygroundDiscord = Pick<
  LocalDiscord,
  | 'users'
  | 'channelIds'
  | 'guild'
  | 'members'
  | 'roles'
  | 'commands'
  | 'messages'
  | 'sendCommand'
  | 'autocomplete'
  | 'clickButton'
  | 'selectMenu'
  | 'submitModal'
  | 'events'
> &
  Partial<Pick<LocalDiscord, 'followClock'>>;

/** A message as the double stores it, read loosely: the page only needs its id, flags and owner. */
export interface DiscordMessageLike {
  id: string;
  flags?: number;
  visibleTo?: string | null;
  interaction_metadata?: unknown;
  interaction?: unknown;
}

export interface InteractionHandle {
  id: string;
  acknowledged: Promise<unknown>;
}

export interface ApplicationCommandLike {
  name: string;
  type?: number;
  default_member_permissions?: string | null;
}

export type Persona = keyof PlaygroundDiscord['users'];
export const PERSONAS: readonly Persona[] = ['admin', 'bettor', 'viewer'];
