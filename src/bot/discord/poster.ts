import { type APIMessage, type Client, DefaultRestOptions, DefaultUserAgent, Routes, SnowflakeUtil } from 'discord.js';
import type { Dispatcher } from 'undici';
import type { MessageView } from '../model/limits.js';
import { type EditToken, type InteractionEdits, interactionEditsOf } from './interaction-edits.js';
import { request } from './undici-request.js';

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

/**
 * Edits through an interaction's webhook (decision 2030): Discord does not count interaction endpoints against the
 * bot's global limit, and each interaction's webhook is its own bucket, so a receipt waits behind no other message's
 * edit. One plain undici PATCH (decision 2137): discord.js's REST queue would add its own turns of the event loop to
 * every receipt and has nothing to queue here; a refusal other than the token's is the outbox's to send again.
 */
function webhookEdits(client: Client, edits: InteractionEdits) {
  const rest = client.options.rest;
  const base = `${rest?.api ?? DefaultRestOptions.api}/v${rest?.version ?? DefaultRestOptions.version}`;
  // As long as discord.js's REST waits for Discord, through its agent when one is set.
  const timeoutMs = rest?.timeout ?? DefaultRestOptions.timeout;
  const dispatcher = (rest?.agent ?? undefined) as Dispatcher | undefined;
  return async (messageId: string, token: EditToken, body: unknown): Promise<boolean> => {
    const res = await request(`${base}/webhooks/${token.applicationId}/${token.token}/messages/@original`, {
      method: 'PATCH',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'user-agent': DefaultUserAgent },
      signal: AbortSignal.timeout(timeoutMs),
      ...(dispatcher ? { dispatcher } : {}),
    });
    const answer = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300) return true;
    if (res.statusCode === 401 || res.statusCode === 404) {
      edits.refused(messageId, token.token);
      return false;
    }
    // The status as discord.js's errors carry it: the outbox reads it (429 and 5xx are tried again, a 429 after
    // the wait Discord asked for).
    const retryAfter = Number(res.headers['retry-after']);
    throw Object.assign(new Error(`Discord answered ${res.statusCode} to an edit: ${answer.slice(0, 200)}`), {
      status: res.statusCode,
      ...(res.statusCode === 429 && Number.isFinite(retryAfter) ? { retryAfterMs: Math.ceil(retryAfter * 1000) } : {}),
    });
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
