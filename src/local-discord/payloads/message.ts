import type { APIUser } from 'discord.js';
import { MessageFlags } from 'discord-api-types/v10';
import { isoFromMs, msOfSnowflake } from '../ids.js';
import type { InteractionRecord } from '../state/interactions.js';
import type { World } from '../state/world.js';
import type { LocalMessage } from '../types.js';
import { FormErrors } from '../validation/form-errors.js';

type Json = Record<string, unknown>;

/** Flags a bot may set on a message it sends; Discord ignores the rest. */
const SETTABLE_FLAGS =
  MessageFlags.SuppressEmbeds |
  MessageFlags.SuppressNotifications |
  MessageFlags.Ephemeral |
  MessageFlags.IsComponentsV2;

export interface NewMessage {
  channelId: string;
  author: APIUser;
  body: Json;
  /** Set for interaction responses and follow-ups: they are webhook messages of the application. */
  interaction?: InteractionRecord;
  extraFlags?: number;
  attachments?: Json[];
}

/** A stored message shaped as Discord returns it from REST. */
export function buildMessage(world: World, input: NewMessage): LocalMessage {
  const { body, interaction } = input;
  const flags = (Number(body.flags ?? 0) & SETTABLE_FLAGS) | (input.extraFlags ?? 0);
  const ephemeral = (flags & MessageFlags.Ephemeral) !== 0;
  // One reading of the clock for the id and the date, so the two always agree (as Discord's do).
  const id = world.snowflake();
  const message: Json = {
    id,
    type: interaction?.type === 2 && interaction.originalMessageId === null ? 20 : 0,
    channel_id: input.channelId,
    // A DM is in no server.
    ...(world.isDm(input.channelId) ? {} : { guild_id: world.guildId }),
    author: input.author,
    content: typeof body.content === 'string' ? body.content : '',
    timestamp: isoFromMs(msOfSnowflake(id)),
    edited_timestamp: null,
    tts: body.tts === true,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: input.attachments ?? [],
    embeds: normaliseEmbeds(body.embeds),
    components: Array.isArray(body.components) ? structuredClone(body.components) : [],
    pinned: false,
    flags,
    ...replyFields(world, body, input.channelId),
    visibleTo: ephemeral && interaction ? interaction.userId : null,
  };
  if (interaction) {
    const user = world.user(interaction.userId);
    message.webhook_id = world.applicationId;
    message.application_id = world.applicationId;
    message.interaction_metadata = {
      id: interaction.id,
      type: interaction.type,
      user,
      authorizing_integration_owners: { '0': world.guildId },
      ...(interaction.commandName ? { name: interaction.commandName } : {}),
      ...(interaction.sourceMessageId ? { interacted_message_id: interaction.sourceMessageId } : {}),
    };
    if (interaction.commandName) {
      message.interaction = { id: interaction.id, type: interaction.type, name: interaction.commandName, user };
    }
  }
  return JSON.parse(JSON.stringify(message)) as LocalMessage;
}

/**
 * Applies an edit body: only the fields present change; `null` clears a field, as on Discord. `uploads`: files
 * sent with the edit (already stored), added to the attachments kept.
 */
export function editPatch(
  world: World,
  body: Json,
  current: LocalMessage,
  markEdited: boolean,
  uploads: Json[] = [],
): Partial<LocalMessage> {
  const patch: Json = {};
  if ('content' in body) patch.content = typeof body.content === 'string' ? body.content : '';
  if ('embeds' in body) patch.embeds = normaliseEmbeds(body.embeds);
  if ('components' in body) patch.components = Array.isArray(body.components) ? structuredClone(body.components) : [];
  if (('attachments' in body && Array.isArray(body.attachments)) || uploads.length > 0) {
    // The payload's `attachments` lists the existing files to keep; without it every file stays.
    const listed = Array.isArray(body.attachments) ? body.attachments : undefined;
    const keep = listed ? new Set(listed.map((a) => String((a as Json).id))) : undefined;
    const kept = keep ? current.attachments.filter((a) => keep.has(a.id)) : current.attachments;
    patch.attachments = [...kept, ...uploads];
  }
  const keptFlags = current.flags ?? 0;
  // A deferred placeholder stops loading once edited; ephemeral-ness never changes after creation.
  let flags = keptFlags & ~MessageFlags.Loading;
  if (typeof body.flags === 'number')
    flags = (flags & MessageFlags.Ephemeral) | (body.flags & SETTABLE_FLAGS & ~MessageFlags.Ephemeral);
  patch.flags = flags;
  const wasLoading = (keptFlags & MessageFlags.Loading) !== 0;
  if (markEdited && !wasLoading) patch.edited_timestamp = isoFromMs(world.postedNow());
  return patch as Partial<LocalMessage>;
}

function normaliseEmbeds(embeds: unknown): Json[] {
  if (!Array.isArray(embeds)) return [];
  return embeds.map((e) => ({ type: 'rich', ...(structuredClone(e) as Json) }));
}

/** A bot reply to a channel message (message_reference) is type 19 and carries the message it answers. */
function replyFields(world: World, body: Json, channelId: string): Json {
  const ref = body.message_reference as Json | undefined;
  if (!ref || typeof ref.message_id !== 'string') return {};
  const target = world.messages.get(ref.message_id);
  if (!target || target.channel_id !== channelId) {
    if (ref.fail_if_not_exists === false) return {};
    const errors = new FormErrors();
    errors.add(['message_reference'], 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message');
    errors.throwIfAny();
    return {};
  }
  const { visibleTo: _visibleTo, ...referenced } = target;
  return {
    type: 19,
    message_reference: { type: 0, message_id: target.id, channel_id: channelId, guild_id: world.guildId },
    referenced_message: referenced,
  };
}
