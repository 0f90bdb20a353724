import type { EventEmitter } from 'node:events';
import type { LocalDiscordEvents, LocalMessage } from '../types.js';

/** Messages per channel in creation order; every change is announced on the shared emitter. */
export class MessageStore {
  readonly #byChannel = new Map<string, LocalMessage[]>();
  readonly #byId = new Map<string, LocalMessage>();

  constructor(private readonly events: EventEmitter<LocalDiscordEvents>) {}

  add(message: LocalMessage): LocalMessage {
    const list = this.#byChannel.get(message.channel_id) ?? [];
    list.push(message);
    this.#byChannel.set(message.channel_id, list);
    this.#byId.set(message.id, message);
    this.events.emit('messageCreate', { channelId: message.channel_id, message: structuredClone(message) });
    return message;
  }

  get(id: string): LocalMessage | undefined {
    return this.#byId.get(id);
  }

  /** Replaces a message's fields in place (ids and channel stay) and announces the update. */
  update(id: string, patch: Partial<LocalMessage>): LocalMessage | undefined {
    const current = this.#byId.get(id);
    if (!current) return undefined;
    Object.assign(current, patch);
    this.events.emit('messageUpdate', { channelId: current.channel_id, message: structuredClone(current) });
    return current;
  }

  delete(id: string): boolean {
    const current = this.#byId.get(id);
    if (!current) return false;
    this.#byId.delete(id);
    const list = this.#byChannel.get(current.channel_id) ?? [];
    this.#byChannel.set(
      current.channel_id,
      list.filter((m) => m.id !== id),
    );
    this.events.emit('messageDelete', { channelId: current.channel_id, message: structuredClone(current) });
    return true;
  }

  /** A copy of the channel's first message that matches, copying only that one. */
  find(channelId: string, predicate: (m: LocalMessage) => boolean): LocalMessage | undefined {
    const found = (this.#byChannel.get(channelId) ?? []).find(predicate);
    return found ? structuredClone(found) : undefined;
  }

  /** Copies, so callers cannot change what the bot will read back. `viewer` hides others' ephemeral replies. */
  list(channelId: string, viewer?: string): LocalMessage[] {
    const list = this.#byChannel.get(channelId) ?? [];
    return list
      .filter((m) => viewer === undefined || m.visibleTo === null || m.visibleTo === viewer)
      .map((m) => structuredClone(m));
  }
}
