export { FIXTURE_IDS } from './fixtures.js';
export type { FaultSpec } from './http/faults.js';
export type { OptionInput } from './interactions/command-options.js';
export { CommandInputError } from './interactions/command-options.js';
export type { InteractionHandle } from './interactions/open.js';
export { NoBotConnectedError } from './interactions/open.js';
export { LocalDiscord, type LocalDiscordOptions, startLocalDiscord, type UserRef } from './local-discord.js';
export type { RegisteredCommand } from './state/commands.js';
export type {
  InteractionResponseEvent,
  LocalDiscordEvents,
  LocalMessage,
  MessageEvent,
  ModalEvent,
  RestRefusalEvent,
} from './types.js';
