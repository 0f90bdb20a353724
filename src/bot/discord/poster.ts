import { type Client, Routes } from 'discord.js';
import type { MessageView } from '../model/limits.js';

/** The one place the bot writes to channels outside an interaction (results, settlements). */
export interface DiscordPoster {
  edit(channelId: string, messageId: string, view: MessageView): Promise<void>;
  /** With a nonce, Discord answers a repeat of the same create with the message it already made. */
  post(channelId: string, view: MessageView, nonce?: string): Promise<string>;
}

export function restPoster(client: Client): DiscordPoster {
  return {
    async edit(channelId, messageId, view) {
      await client.rest.patch(Routes.channelMessage(channelId, messageId), {
        body: { content: view.content ?? '', embeds: view.embeds, components: view.components },
      });
    },
    async post(channelId, view, nonce) {
      const msg = (await client.rest.post(Routes.channelMessages(channelId), {
        body: {
          content: view.content ?? '',
          embeds: view.embeds,
          components: view.components,
          allowed_mentions: { parse: ['users'] },
          ...(nonce ? { nonce, enforce_nonce: true } : {}),
        },
      })) as { id: string };
      return msg.id;
    },
  };
}
