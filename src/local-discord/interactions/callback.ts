import { InteractionResponseType, MessageFlags } from 'discord-api-types/v10';
import { alreadyAcknowledged, DiscordApiError, unknownInteraction } from '../api-error.js';
import { buildMessage, editPatch } from '../payloads/message.js';
import type { InteractionRecord } from '../state/interactions.js';
import type { World } from '../state/world.js';
import { type LocalMessage, toApiMessage } from '../types.js';
import { validateAutocompleteData, validateModalData } from '../validation/callback.js';
import { FormErrors } from '../validation/form-errors.js';
import { validateMessageBody } from '../validation/message.js';

type Json = Record<string, unknown>;

const COMMAND = 2;
const COMPONENT = 3;
const AUTOCOMPLETE = 4;
const MODAL_SUBMIT = 5;

/** Which callback types Discord accepts for each interaction type. */
function allowedTypes(record: InteractionRecord): number[] {
  switch (record.type) {
    case COMMAND:
      return [4, 5, 9];
    case COMPONENT:
      return [4, 5, 6, 7, 9];
    case AUTOCOMPLETE:
      return [8];
    case MODAL_SUBMIT:
      // Only a modal opened from a component may update that component's message.
      return record.sourceMessageId ? [4, 5, 6, 7] : [4, 5];
    default:
      return [];
  }
}

/**
 * POST /interactions/{id}/{token}/callback: enforces the 3 s window and the single acknowledgement, applies the
 * response to the channel, and answers 204 or, with `with_response=true`, the interaction callback response.
 */
export function handleCallback(
  world: World,
  params: { id: string; token: string; withResponse: boolean; body: Json; uploads: Json[] },
): Json | null {
  const record = world.interactions.byId(params.id);
  if (!record || record.token !== params.token) throw unknownInteraction();
  const elapsed = world.now() - record.createdAt;
  if (record.ack) throw alreadyAcknowledged();
  if (elapsed > world.options.ackDeadlineMs) {
    record.failAck(new Error(`interaction ${record.id} answered after ${elapsed} ms; Discord answered 10062`));
    throw unknownInteraction();
  }
  const type = Number(params.body.type);
  if (!allowedTypes(record).includes(type)) {
    const errors = new FormErrors();
    errors.add(
      ['type'],
      'INTERACTION_RESPONSE_TYPE_INVALID',
      `Callback type ${String(params.body.type)} is not valid for this interaction`,
    );
    record.lastRefusal = `callback type ${String(params.body.type)} is not valid for interaction type ${record.type}`;
    errors.throwIfAny();
  }
  const data = (params.body.data && typeof params.body.data === 'object' ? params.body.data : {}) as Json;
  let message: LocalMessage | undefined;
  try {
    message = apply(world, record, type, data, params.uploads);
  } catch (error) {
    if (error instanceof DiscordApiError) record.lastRefusal = `${error.code} ${error.message}`;
    throw error;
  }
  record.ack = { type, at: world.now() };
  record.settleAck({ type, ms: elapsed });
  world.events.emit('interactionResponse', {
    interactionId: record.id,
    type,
    ...(message ? { message: structuredClone(message) } : {}),
  });
  if (!params.withResponse) return null;
  return {
    interaction: {
      id: record.id,
      type: record.type,
      ...(message ? { response_message_id: message.id } : {}),
      ...(message ? { response_message_loading: ((message.flags ?? 0) & MessageFlags.Loading) !== 0 } : {}),
      ...(message ? { response_message_ephemeral: ((message.flags ?? 0) & MessageFlags.Ephemeral) !== 0 } : {}),
    },
    resource: { type, ...(message ? { message: toApiMessage(message) } : {}) },
  };
}

function apply(world: World, record: InteractionRecord, type: number, data: Json, uploads: Json[]) {
  const hasFiles = uploads.length > 0;
  switch (type) {
    case InteractionResponseType.ChannelMessageWithSource: {
      validateDataBody(data, { requireContent: true, hasFiles });
      const msg = buildMessage(world, {
        channelId: record.channelId,
        author: world.botUser,
        body: data,
        interaction: record,
        attachments: uploads,
      });
      record.originalMessageId = msg.id;
      return world.messages.add(msg);
    }
    case InteractionResponseType.DeferredChannelMessageWithSource: {
      const flags = Number(data.flags ?? 0) & MessageFlags.Ephemeral;
      const msg = buildMessage(world, {
        channelId: record.channelId,
        author: world.botUser,
        body: { flags },
        interaction: record,
        extraFlags: MessageFlags.Loading,
      });
      record.originalMessageId = msg.id;
      return world.messages.add(msg);
    }
    case InteractionResponseType.DeferredMessageUpdate:
      record.originalMessageId = record.sourceMessageId ?? null;
      return undefined;
    case InteractionResponseType.UpdateMessage: {
      const source = record.sourceMessageId ? world.messages.get(record.sourceMessageId) : undefined;
      if (!source) throw new DiscordApiError(404, 10008, 'Unknown Message');
      validateDataBody(data, { requireContent: false, hasFiles, currentFlags: source.flags ?? 0 });
      record.originalMessageId = source.id;
      return world.messages.update(source.id, editPatch(world, data, source, true, uploads)) as LocalMessage;
    }
    case InteractionResponseType.ApplicationCommandAutocompleteResult: {
      validateAutocompleteData(data);
      record.settleChoices?.(structuredClone(data.choices as unknown[]));
      return undefined;
    }
    case InteractionResponseType.Modal: {
      validateModalData(data);
      record.modal = structuredClone(data);
      world.events.emit('modal', {
        interactionId: record.id,
        userId: record.userId,
        channelId: record.channelId,
        modal: structuredClone(data),
      });
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Message validation with paths under `data`, as Discord reports them for callbacks. */
function validateDataBody(
  data: Json,
  opts: { requireContent: boolean; hasFiles: boolean; currentFlags?: number },
): void {
  try {
    validateMessageBody(data, opts);
  } catch (error) {
    if (error instanceof DiscordApiError && error.errors) {
      throw new DiscordApiError(error.status, error.code, error.message, { data: error.errors });
    }
    throw error;
  }
}
