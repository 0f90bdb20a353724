import { type APIMessage, type Client, REST, Routes, SnowflakeUtil } from 'discord.js';
import type { MessageView } from '../model/limits.js';
import { type EditToken, type InteractionEdits, interactionEditsOf } from './interaction-edits.js';

/**
 * The one place the bot writes to channels outside an interaction's own reply (results, settlements). An edit of a
 * message a member pressed goes with that press's token while it lives (decision 2030), any other write with the bot's.
 */
export interface DiscordPoster {
  edit(channelId: string, messageId: string, view: MessageView): Promise<void>;
  /** With a nonce, Discord answers a repeat of the same create with the message it already made. */
  post(channelId: string, view: MessageView, nonce?: string): Promise<string>;
  /**
   * The id of a message the bot posted in the channel since `sinceMs` that shows this view (the same text, embed
   * titles and descriptions, and buttons); undefined when none. Absent: the poster cannot look.
   */
  findPosted?(channelId: string, view: MessageView, sinceMs: number): Promise<string | undefined>;
}

/** Clock skew allowed between the bot and Discord when reading a channel back from a time. */
const SKEW_MS = 2 * 60_000;
/** Pages of 100 read back at most: a create older than that many newer messages is not looked for further. */
const PAGES = 10;

type Shown = Pick<APIMessage, 'content' | 'embeds' | 'components'>;

/** What makes two posts the same post: text, embed titles and descriptions, and button ids. */
function fingerprint(m: Partial<Shown> | MessageView): string {
  const ids = (m.components ?? []).flatMap((row) =>
    'components' in row ? row.components.map((c) => ('custom_id' in c ? c.custom_id : '')) : [],
  );
  const embeds = (m.embeds ?? []).map((e) => [e.title ?? '', e.description ?? '']);
  return JSON.stringify([m.content ?? '', embeds, ids]);
}

/** Discord no longer knows the token (expired, or the interaction is gone): the bot token is asked instead. */
function tokenRefused(err: unknown): boolean {
  const status = (err as { status?: unknown })?.status;
  return status === 401 || status === 404;
}

/**
 * Edits through an interaction's webhook (decision 2030): a REST of their own, since Discord does not count
 * interaction endpoints against the bot's global limit while discord.js's REST for the bot token would; each
 * interaction's webhook is its own bucket, so a receipt waits behind no other message's edit.
 */
function webhookEdits(client: Client, edits: InteractionEdits) {
  let rest: REST | undefined;
  return async (messageId: string, token: EditToken, body: unknown): Promise<boolean> => {
    rest ??= new REST({ ...client.options.rest, globalRequestsPerSecond: Number.POSITIVE_INFINITY });
    try {
      await rest.patch(Routes.webhookMessage(token.applicationId, token.token, '@original'), { body, auth: false });
      return true;
    } catch (err) {
      if (!tokenRefused(err)) throw err;
      edits.refused(messageId, token.token);
      return false;
    }
  };
}

export function restPoster(client: Client): DiscordPoster {
  const edits = interactionEditsOf(client);
  const viaToken = edits ? webhookEdits(client, edits) : undefined;
  return {
    async edit(channelId, messageId, view) {
      const body = { content: view.content ?? '', embeds: view.embeds, components: view.components };
      const token = edits?.tokenFor(messageId);
      if (token && viaToken && (await viaToken(messageId, token, body))) return;
      await client.rest.patch(Routes.channelMessage(channelId, messageId), { body });
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
    async findPosted(channelId, view, sinceMs) {
      const want = fingerprint(view);
      let after = SnowflakeUtil.generate({ timestamp: Math.max(0, sinceMs - SKEW_MS) }).toString();
      for (let page = 0; page < PAGES; page++) {
        const msgs = (await client.rest.get(Routes.channelMessages(channelId), {
          query: new URLSearchParams({ after, limit: '100' }),
        })) as APIMessage[];
        const mine = msgs.find(
          (m) => (client.user === null || m.author.id === client.user.id) && fingerprint(m) === want,
        );
        if (mine) return mine.id;
        if (msgs.length < 100) return undefined;
        after = msgs.reduce((max, m) => (BigInt(m.id) > BigInt(max) ? m.id : max), after);
      }
      return undefined;
    },
  };
}
