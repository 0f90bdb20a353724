import type { EventEmitter } from 'node:events';

// The slice of the local Discord the playground drives. Kept structural so the page depends on the
// double's behaviour, not on its internals; `startLocalDiscord()`'s result satisfies it.

export interface DiscordUserLike {
  id: string;
  username: string;
  global_name?: string | null;
}

export interface ApplicationCommandLike {
  name: string;
  description?: string;
  type?: number;
  options?: unknown[];
}

export interface InteractionHandle {
  id: string;
  acknowledged: Promise<unknown>;
}

export interface DiscordMessageLike {
  id: string;
  channel_id?: string;
  flags?: number;
  [key: string]: unknown;
}

export interface CommandOptionInput {
  name: string;
  type?: number;
  value?: string | number | boolean;
  options?: CommandOptionInput[];
  focused?: boolean;
}

export interface PlaygroundDiscord {
  users: { admin: DiscordUserLike; bettor: DiscordUserLike; viewer: DiscordUserLike };
  channelIds: { bets: string; results: string };
  guild: { id: string; name?: string };
  commands(guildId?: string): ApplicationCommandLike[];
  messages(channelId: string): DiscordMessageLike[];
  sendCommand(input: {
    user: DiscordUserLike;
    channelId: string;
    name: string;
    options?: CommandOptionInput[];
    subcommand?: string;
  }): Promise<InteractionHandle>;
  autocomplete(input: {
    user: DiscordUserLike;
    channelId: string;
    name: string;
    options: CommandOptionInput[];
    focused: string;
    subcommand?: string;
  }): Promise<unknown>;
  clickButton(input: {
    user: DiscordUserLike;
    message: DiscordMessageLike;
    customId: string;
  }): Promise<InteractionHandle>;
  selectMenu(input: {
    user: DiscordUserLike;
    message: DiscordMessageLike;
    customId: string;
    values: string[];
  }): Promise<InteractionHandle>;
  submitModal(input: {
    user: DiscordUserLike;
    channelId: string;
    customId: string;
    fields: Record<string, string>;
    message?: DiscordMessageLike;
  }): Promise<InteractionHandle>;
  events: EventEmitter;
}

export type Persona = keyof PlaygroundDiscord['users'];
export const PERSONAS: readonly Persona[] = ['admin', 'bettor', 'viewer'];
