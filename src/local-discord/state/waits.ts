import type { EventEmitter } from 'node:events';
import type { LocalDiscordEvents, LocalMessage } from '../types.js';

/** Resolves with the first message event in the channel that matches, or rejects at the deadline. */
export function waitForMessageEvent(
  events: EventEmitter<LocalDiscordEvents>,
  kinds: ('messageCreate' | 'messageUpdate')[],
  channelId: string,
  predicate: (m: LocalMessage) => boolean,
  timeoutMs: number,
  what: string,
): Promise<LocalMessage> {
  return new Promise((resolve, reject) => {
    const listener = (e: { channelId: string; message: LocalMessage }) => {
      if (e.channelId !== channelId || !predicate(e.message)) return;
      done();
      resolve(e.message);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${what} in channel ${channelId} within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      for (const k of kinds) events.off(k, listener);
    };
    for (const k of kinds) events.on(k, listener);
  });
}
