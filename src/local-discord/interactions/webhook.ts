import { MessageFlags } from 'discord-api-types/v10';
import { emptyMessage, invalidWebhookToken, unknownMessage, unknownWebhook } from '../api-error.js';
import { buildMessage, editPatch } from '../payloads/message.js';
import type { InteractionRecord } from '../state/interactions.js';
import type { World } from '../state/world.js';
import type { LocalMessage } from '../types.js';
import { validateMessageBody } from '../validation/message.js';

type Json = Record<string, unknown>;

/** Finds the interaction behind /webhooks/{app}/{token}; its token dies 15 minutes after the interaction. */
export function interactionForWebhook(world: World, applicationId: string, token: string): InteractionRecord {
  const record = world.interactions.byToken(token);
  if (!record || applicationId !== world.applicationId) throw unknownWebhook();
  if (world.now() - record.createdAt > world.options.tokenLifetimeMs) throw invalidWebhookToken();
  // Until the interaction is acknowledged there is no webhook to post to.
  if (!record.ack) throw unknownWebhook();
  return record;
}

/** `@original` or a follow-up id, as long as it belongs to this interaction. */
function ownMessage(world: World, record: InteractionRecord, messageId: string): LocalMessage {
  const id = messageId === '@original' ? record.originalMessageId : messageId;
  const owned = id !== null && (id === record.originalMessageId || record.followUpIds.includes(id));
  const message = owned ? world.messages.get(id) : undefined;
  if (!message) throw unknownMessage();
  return message;
}

export function getWebhookMessage(world: World, record: InteractionRecord, messageId: string): LocalMessage {
  return ownMessage(world, record, messageId);
}

export function editWebhookMessage(
  world: World,
  record: InteractionRecord,
  messageId: string,
  body: Json,
  uploads: Json[],
): LocalMessage {
  const message = ownMessage(world, record, messageId);
  validateMessageBody(body, { requireContent: false, hasFiles: uploads.length > 0, currentFlags: message.flags ?? 0 });
  const wasLoading = ((message.flags ?? 0) & MessageFlags.Loading) !== 0;
  const patch = editPatch(world, body, message, true, uploads);
  // Discord refuses to turn a "thinking…" placeholder into an empty message.
  if (wasLoading && isEmpty({ ...message, ...patch })) throw emptyMessage();
  return world.messages.update(message.id, patch) as LocalMessage;
}

export function deleteWebhookMessage(world: World, record: InteractionRecord, messageId: string): void {
  const message = ownMessage(world, record, messageId);
  world.messages.delete(message.id);
}

/**
 * POST /webhooks/{app}/{token}: a follow-up. After a deferred reply the first follow-up replaces the
 * "thinking…" placeholder, as Discord does; its ephemeral flag then follows the deferral.
 */
export function createFollowUp(world: World, record: InteractionRecord, body: Json, uploads: Json[]): LocalMessage {
  validateMessageBody(body, { requireContent: true, hasFiles: uploads.length > 0 });
  const original = record.originalMessageId ? world.messages.get(record.originalMessageId) : undefined;
  if (original && record.ack?.type === 5 && ((original.flags ?? 0) & MessageFlags.Loading) !== 0) {
    return world.messages.update(original.id, editPatch(world, body, original, false, uploads)) as LocalMessage;
  }
  const message = buildMessage(world, {
    channelId: record.channelId,
    author: world.botUser,
    body,
    interaction: record,
    attachments: uploads,
  });
  record.followUpIds.push(message.id);
  return world.messages.add(message);
}

function isEmpty(m: LocalMessage): boolean {
  return m.content === '' && m.embeds.length === 0 && (m.components?.length ?? 0) === 0 && m.attachments.length === 0;
}
