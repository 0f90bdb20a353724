import type { RoutedContext } from './command.js';
import type { ComponentInteraction } from './component-handler.js';

/** Where the record behind a component lives: its server (null for a DM) and, when it has them, channel and message. */
export interface ComponentOwner {
  guildId: string | null;
  channelId?: string | null;
  messageId?: string | null;
  /** The record the lookup read, handed to the handler (`ownerRecord`) so a click reads it once. */
  record?: unknown;
}

/** The records the guard's lookups read, by interaction: a handler takes its record here instead of reading it again. */
const records = new WeakMap<ComponentInteraction, unknown>();

/** The record the owner lookup read for this interaction, when it read one. */
export function ownerRecord<T>(interaction: ComponentInteraction): T | undefined {
  return records.get(interaction) as T | undefined;
}

/**
 * Finds the owner of the record a custom id points at (a slip, a proposal, a stored ref); undefined when the
 * record is gone or was made without an owner. One per custom-id scope, given the action and the arguments.
 */
export type OwnerLookup<C extends RoutedContext = RoutedContext> = (
  action: string,
  args: string[],
  ctx: C,
) => Promise<ComponentOwner | undefined>;

export type GuardVerdict = { ok: true } | { ok: false; reason: 'gone' | 'guild' | 'channel' | 'message'; text: string };

export const GUARD_TEXT = {
  gone: 'This control is too old or does not belong to anything the desk knows. Nothing was done; run the command again.',
  guild:
    'This control belongs to a message in another server. Nothing was done; use the buttons on the message in that server.',
  channel: 'This control belongs to a message in another channel. Nothing was done.',
  message: 'This control does not belong to this message. Nothing was done; use the buttons on the message itself.',
} as const;

const refuse = (reason: keyof typeof GUARD_TEXT): GuardVerdict => ({ ok: false, reason, text: GUARD_TEXT[reason] });

/**
 * The one check every component passes before its handler runs (decision 1630): the click must come from the
 * server the record belongs to, and from its channel and message when the record has them. A custom id is text
 * a modified client can send from anywhere, so a handler may then judge the clicker's rights in the server the
 * interaction names, which is the record's own.
 */
export async function guardComponent<C extends RoutedContext>(
  interaction: ComponentInteraction,
  id: { action: string; args: string[] },
  lookup: OwnerLookup<C> | undefined,
  ctx: C,
): Promise<GuardVerdict> {
  // A scope without a lookup is refused, so a new handler cannot skip the check by forgetting it.
  if (!lookup) return refuse('gone');
  const owner = await lookup(id.action, id.args, ctx);
  if (!owner) return refuse('gone');
  if ((interaction.guildId ?? null) !== owner.guildId) return refuse('guild');
  if (owner.channelId && interaction.channelId !== owner.channelId) return refuse('channel');
  if (owner.messageId && interaction.message?.id !== owner.messageId) return refuse('message');
  if (owner.record !== undefined) records.set(interaction, owner.record);
  return { ok: true };
}
