import type { APIMessage } from 'discord.js';

/**
 * A message as Discord would return it, plus who may see it: `visibleTo` is the invoking user's id for an
 * ephemeral reply (flags 64) and null for everyone. REST answers strip `visibleTo`.
 */
export type LocalMessage = APIMessage & { visibleTo: string | null };

export interface MessageEvent {
  channelId: string;
  message: LocalMessage;
}

export interface InteractionResponseEvent {
  interactionId: string;
  /** The callback type (4 reply, 5 deferred reply, 6 deferred update, 7 update, 8 autocomplete, 9 modal). */
  type: number;
  message?: LocalMessage;
}

export interface ModalEvent {
  interactionId: string;
  userId: string;
  channelId: string;
  modal: Record<string, unknown>;
}

/** A REST call the double refused, for diagnosing a bot (interaction tokens in the path are redacted). */
export interface RestRefusalEvent {
  method: string;
  path: string;
  status: number;
  code: number;
  message: string;
  errors?: Record<string, unknown>;
}

export interface LocalDiscordEvents {
  messageCreate: [MessageEvent];
  messageUpdate: [MessageEvent];
  messageDelete: [MessageEvent];
  interactionResponse: [InteractionResponseEvent];
  modal: [ModalEvent];
  restRefusal: [RestRefusalEvent];
}

/** Strips the double's own bookkeeping from a stored message before it goes over REST or the gateway. */
export function toApiMessage(message: LocalMessage): APIMessage {
  const { visibleTo: _visibleTo, ...api } = message;
  return api as APIMessage;
}
