import { buildMessage } from '../payloads/message.js';
import type { World } from '../state/world.js';
import type { LocalMessage } from '../types.js';
import { CommandInputError } from './command-options.js';
import { type InteractionHandle, openInteraction } from './open.js';

/**
 * What a modified client can send and the Discord client never would: a component interaction with any custom
 * id, from any channel the member is in (the fixture guild's, or `#lobby` in the second server), on any message.
 * Attack tests use it to prove the bot checks where a click comes from instead of trusting its custom id.
 */
export interface ForgedComponent {
  userId: string;
  channelId: string;
  customId: string;
  /** button (default), a string select with `values`, or a modal submit with `fields`. */
  kind?: 'button' | 'select' | 'modal';
  values?: string[];
  fields?: Record<string, string>;
  /** The message the click claims to be on; default a message of the bot's in that channel showing the button. */
  messageId?: string;
}

export function forgeComponent(world: World, timers: Set<NodeJS.Timeout>, input: ForgedComponent): InteractionHandle {
  const guildId = world.guildOfChannel(input.channelId);
  if (!guildId) throw new CommandInputError(`channel ${input.channelId} is in no server of the local Discord`);
  if (!world.member(input.userId)) throw new CommandInputError(`user ${input.userId} is not a fixture member`);
  const kind = input.kind ?? 'button';
  const message = input.messageId ? world.messages.get(input.messageId) : botMessage(world, input);
  if (!message) throw new CommandInputError(`message ${input.messageId} does not exist`);
  const data =
    kind === 'modal'
      ? {
          custom_id: input.customId,
          components: Object.entries(input.fields ?? {}).map(([id, value]) => ({
            type: 1,
            components: [{ type: 4, custom_id: id, value }],
          })),
        }
      : kind === 'select'
        ? { custom_id: input.customId, component_type: 3, values: [...(input.values ?? [])] }
        : { custom_id: input.customId, component_type: 2 };
  return openInteraction(
    world,
    { type: kind === 'modal' ? 5 : 3, userId: input.userId, channelId: input.channelId, data, message, guildId },
    timers,
  ).handle;
}

/** A message the bot posted earlier in the channel, carrying the control the forged click names. */
function botMessage(world: World, input: ForgedComponent): LocalMessage {
  const control =
    input.kind === 'select'
      ? { type: 3, custom_id: input.customId, options: (input.values ?? []).map((v) => ({ label: v, value: v })) }
      : { type: 2, style: 1, label: 'Go', custom_id: input.customId };
  const message = buildMessage(world, {
    channelId: input.channelId,
    author: world.botUser,
    body: { content: 'An earlier answer of the bot', components: [{ type: 1, components: [control] }] },
  });
  const guildId = world.guildOfChannel(input.channelId);
  return world.messages.add({ ...message, ...(guildId ? { guild_id: guildId } : {}) } as LocalMessage);
}
