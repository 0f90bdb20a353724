import type { APIAttachment } from 'discord.js';
import type { Route, RouteContext } from '../http/router.js';
import { handleCallback } from '../interactions/callback.js';
import {
  createFollowUp,
  deleteWebhookMessage,
  editWebhookMessage,
  getWebhookMessage,
  interactionForWebhook,
} from '../interactions/webhook.js';
import { toApiMessage } from '../types.js';

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

const record = (ctx: RouteContext) => interactionForWebhook(ctx.world, ctx.params.app ?? '', ctx.params.token ?? '');

/** The attachments of an upload, described as Discord describes them. */
function uploaded(ctx: RouteContext, channelId: string): APIAttachment[] {
  return ctx.files.map((f) => {
    const id = ctx.world.snowflake();
    const url = `${ctx.origin}/attachments/${channelId}/${id}/${encodeURIComponent(f.filename)}`;
    return { id, filename: f.filename, size: f.size, content_type: f.content_type, url, proxy_url: url };
  });
}

/** Interaction callbacks and the interaction webhook (original response and follow-ups); no bot auth, like Discord. */
export const interactionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/interactions/:id/:token/callback',
    auth: false,
    handle: (ctx) => {
      const result = handleCallback(ctx.world, {
        id: ctx.params.id ?? '',
        token: ctx.params.token ?? '',
        withResponse: ctx.query.get('with_response') === 'true',
        body: asObject(ctx.body),
        hasFiles: ctx.files.length > 0,
      });
      return result ? { status: 200, body: result } : { status: 204 };
    },
  },
  {
    method: 'POST',
    path: '/webhooks/:app/:token',
    auth: false,
    handle: (ctx) => {
      const message = createFollowUp(ctx.world, record(ctx), asObject(ctx.body), ctx.files.length > 0);
      // Without ?wait=true Discord answers 204 and no message.
      return ctx.query.get('wait') === 'true' ? { status: 200, body: toApiMessage(message) } : { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/webhooks/:app/:token/messages/:message',
    auth: false,
    handle: (ctx) => ({
      status: 200,
      body: toApiMessage(getWebhookMessage(ctx.world, record(ctx), ctx.params.message ?? '')),
    }),
  },
  {
    method: 'PATCH',
    path: '/webhooks/:app/:token/messages/:message',
    auth: false,
    handle: (ctx) => {
      const edited = editWebhookMessage(
        ctx.world,
        record(ctx),
        ctx.params.message ?? '',
        asObject(ctx.body),
        ctx.files.length > 0,
      );
      // Files uploaded with the edit are added to the message, as Discord does.
      const message =
        ctx.files.length === 0
          ? edited
          : ((ctx.world.messages.update(edited.id, {
              attachments: [...edited.attachments, ...uploaded(ctx, edited.channel_id)],
            } as Partial<typeof edited>) ?? edited) as typeof edited);
      return { status: 200, body: toApiMessage(message) };
    },
  },
  {
    method: 'DELETE',
    path: '/webhooks/:app/:token/messages/:message',
    auth: false,
    handle: (ctx) => {
      deleteWebhookMessage(ctx.world, record(ctx), ctx.params.message ?? '');
      return { status: 204 };
    },
  },
];
